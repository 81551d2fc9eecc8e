"""Authentication for the test bed (issue 27; docs/security-rest.md, "The test bed"): one principals file
per test process, given to every controller (`--auth`) and edge coordinator the test bed starts,
and a token for every client it starts.

The principals: `hN` for each test host (it acts for hN's data address `fd6e:7073:1::N` only,
subscribes and advertises anywhere, and registers the edge `hN` at a coordinator); `operator`
(every admin right: the harness's own REST calls, and a coordinator asking for multicast groups);
`dashboard` (admin `read`: lists every request and changes nothing). Tokens are random per process;
the file holds only their SHA-256. The same session gives ZooKeeper digest credentials
(`--zookeeper-auth`) to every party of a test's ZooKeeper tree, and the edge coordinators the
datagram key file that their agents fetch (`--coordinator-keys`). `NPS_TESTBED_AUTH=0` turns all
of it off (servers without `--auth`, ZooKeeper without ACLs, agents with the key file)."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import tempfile
import threading

DATA_PREFIX = "fd6e:7073:1::"  # testbed/nps_testbed/naming.py: hN is DATA_PREFIX + "N"
MAX_HOSTS = 256  # more than any test topology has (a k=4 fat tree has 16)
OPERATOR = "operator"
DASHBOARD = "dashboard"

_cached: dict | None = None
_making = threading.RLock()  # re-entered: the file's tokens are derived through session()


def enabled() -> bool:
    return os.environ.get("NPS_TESTBED_AUTH", "1") != "0"


def _yaml(token) -> str:
    out = ["principals:",
           f"  - name: {OPERATOR}",
           f"    token_sha256: {_sha(token(OPERATOR))}",
           "    admin: [hosts, groups, edges, index]",
           "    subscribe: 'true'",
           "    advertise: 'true'",
           f"  - name: {DASHBOARD}",
           f"    token_sha256: {_sha(token(DASHBOARD))}",
           "    admin: [read]"]
    for n in range(1, MAX_HOSTS + 1):
        out += [f"  - name: h{n}",
                f"    token_sha256: {_sha(token(f'h{n}'))}",
                f"    hosts: ['{DATA_PREFIX}{n}']",
                f"    edges: [h{n}]",
                "    subscribe: 'true'",
                "    advertise: 'true'"]
    return "\n".join(out) + "\n"


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def session() -> dict:
    """This process's principals: {"file", "secret", "operator_token_file"} (made once)."""
    global _cached
    with _making:  # once, also when a cluster's controllers start in parallel threads
        if _cached is None:
            d = tempfile.mkdtemp(prefix="nps-auth-")
            secret = secrets.token_bytes(32)
            _cached = {"dir": d, "secret": secret}
            _cached["file"] = _write(d, "principals.yaml", _yaml(token))
            _cached["operator_token_file"] = _write(d, "operator.token", token(OPERATOR) + "\n")
        return _cached


def _write(d: str, name: str, text: str) -> str:
    path = os.path.join(d, name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


def token(name: str) -> str:
    """The token of principal `name` in this process's session."""
    return hmac.new(session()["secret"], name.encode(), hashlib.sha256).hexdigest()


def host_principal(address: str) -> str:
    """The principal of a test host's data address (`fd6e:7073:1::N` is `hN`)."""
    if not address.startswith(DATA_PREFIX) or not address[len(DATA_PREFIX):].isdigit():
        raise ValueError(f"{address} is not a test host's data address ({DATA_PREFIX}N)")
    return "h" + address[len(DATA_PREFIX):]


def host_token(address: str) -> str:
    return token(host_principal(address))


def headers(name: str = OPERATOR) -> dict[str, str]:
    """The Authorization header of principal `name`, or none when authentication is off."""
    return {"Authorization": f"Bearer {token(name)}"} if enabled() else {}


def server_args() -> list[str]:
    """`--auth FILE` for a controller or coordinator, or nothing when authentication is off."""
    return ["--auth", session()["file"]] if enabled() else []


def coordinator_args(controller_auth: bool, datagram_key: str | None = None) -> list[str]:
    """An edge coordinator's options: the session's principals (its agents act as their edges
    `hN`), for a controller with them the operator's token to ask for multicast groups, and the
    datagram key file `datagram_key` that it hands to its agents (pubsub/datagram_key.py's
    agent_args: the agents run with `--coordinator-keys`)."""
    if not enabled():
        # the coordinator listens on the management address, not loopback: without --auth it
        # refuses to start unless told this is a lab (docs/security.md, "Defaults")
        return ["--insecure-api"]
    token = ["--controller-token-file", session()["operator_token_file"]] if controller_auth else []
    keys = ["--datagram-key", datagram_key] if datagram_key else []
    return ["--auth", session()["file"], *token, *keys]


def zookeeper_args() -> list[str]:
    """`--zookeeper-auth FILE` for every party of a test's ZooKeeper tree (the controllers of a
    cluster): one digest identity per test process, so every znode they create is theirs alone
    (docs/security-zookeeper.md); nothing when authentication is off."""
    if not enabled():
        return []
    s = session()
    with _making:
        if "zookeeper_file" not in s:
            s["zookeeper_file"] = _write(s["dir"], "zookeeper.auth",
                                         f"nps-testbed:{token('zookeeper')}\n")
    return ["--zookeeper-auth", s["zookeeper_file"]]


def client_env(env: dict, address: str) -> dict:
    """`env` with NPS_TOKEN set to the token of the host at `address` (when authentication is on)."""
    if enabled():
        env = dict(env)
        env["NPS_TOKEN"] = host_token(address)
    return env
