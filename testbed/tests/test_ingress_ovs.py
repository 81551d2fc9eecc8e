"""Authorization enforced by the network, on real Open vSwitch (root; issue 27 part 2). The
controller runs with principals (`--auth`); every request goes through the REST API with a token,
but the hosts' traffic does not: `ingress_peer.py` sends to content addresses and listens on
sockets bound and joined directly, as a modified client would.

One switch, five hosts: h1 `pub` (advertises `price < 50000`, region `price < 1000`), h2 and h3
`wide` (region everything: h2 advertises `true`, h3 subscribes `true`), h4 `narrow` (subscribes
`true`, region `price < 1000`), h5 `rogue` (asks nothing). Then:

- h1's events inside its region reach the subscribers; those outside it, even inside its filter,
  are dropped at its switch port (h3, which subscribed everything, receives none of them), and the
  drop counter (`GET /v1/ingress`, `nps_ingress_dropped_packets`) rises by their number. Fails if
  the ingress drops are not installed, or if an advertisement is not cut to its region.
- h4 receives h2's events inside its region and none outside it, although its filter is `true`.
  Fails if a subscription's cover is its filter alone.
- h5, and the subscribers' event port, bound and joined to the content addresses, receive
  nothing.
- (PLEROMA, one process and the cluster) the principals file rewritten with `wide`'s subscribe region narrowed to
  `price < 1000`: the reload re-cuts h3's standing subscription, so h2's events at 40 000 stop
  reaching h3 while those at 10 still do (polled, no sleep). Fails if a reload leaves standing
  covers alone.

The same again with two controller processes of a cluster (`--cluster`, an embedded ZooKeeper):
the bridge connects to both, the requests go to one or the other, and the one process that writes
the drops follows the advertisements made at either; the drops are read at the other.
And with Camus routing (`--routing camus-mr`): query addresses instead of content addresses, the
same drops at h1's port (allowed boxes above a drop of ff0e::/16), and h4's pipeline rules compiled
from `filter ∧ region` (fails if they are compiled from its filter alone)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

from concurrent.futures import ThreadPoolExecutor

import pytest

from live import needs_root
from pubsub import auth as session_auth  # `auth` is this test's own principals file
from pubsub.session import (NPS, TESTBED, UNUSED, Controller, JsonLines, Testbed, build, free_port,
                            poll, solicit)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCHEMA = os.path.join(ROOT, "examples", "schemas", "quotes.yaml")
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))
from netpubsub.config import PubSubConfig  # noqa: E402
from netpubsub.index import format_address  # noqa: E402

SUB_PORT = 40001
COUNT = 20
QUIET = 1.0  # after the senders are done, a listener stops once nothing came for this long
PRINCIPALS = [("pub", "['fd6e:7073:1::1']", None, "price < 1000"),
              ("wide", "['fd6e:7073:1::2', 'fd6e:7073:1::3']", "true", "true"),
              ("narrow", "['fd6e:7073:1::4']", "price < 1000", None),
              ("rogue", "['fd6e:7073:1::5']", None, None)]


def principals_yaml(principals=PRINCIPALS) -> str:
    out = ["principals:"]
    for name, hosts, sub, adv in principals:
        out += [f"  - name: {name}",
                f"    token_sha256: {hashlib.sha256(f't-{name}'.encode()).hexdigest()}",
                f"    hosts: {hosts}"]
        out += [f"    subscribe: '{sub}'"] if sub else []
        out += [f"    advertise: '{adv}'"] if adv else []
    return "\n".join(out) + "\n"


def call(controller: Controller, who: str, method: str, path: str, body=None) -> dict:
    status, answer = controller.call(method, path, body, {"Authorization": f"Bearer t-{who}"})
    assert 200 <= status < 300, (method, path, status, answer)
    return answer


def exec_(testbed: Testbed, host: str, *args: str) -> subprocess.CompletedProcess:
    return testbed.exec(host, "/usr/bin/python3", os.path.join(HERE, "ingress_peer.py"), *args)


def dropped(controller: Controller, at: tuple[str, int]) -> int:
    """The packets the drops of one host port counted (another port's MLD reports are not h1's)."""
    ports = call(controller, "wide", "GET", "/v1/ingress")["ports"]
    return sum(p["dropped_packets"] for p in ports if (p["dpid"], p["port"]) == at)


def metric(controller: Controller) -> float:
    req = urllib.request.Request(controller.api + "/metrics",
                                 headers={"Authorization": "Bearer t-wide"})
    with urllib.request.urlopen(req, timeout=30) as r:
        m = re.search(r"^nps_ingress_dropped_packets (\S+)$", r.read().decode(), re.M)
    return float(m.group(1)) if m else -1.0


def narrowed_by_a_reload(controller: Controller, testbed: Testbed, auth: str, sub_id: str,
                         inside: str, middle: str) -> None:
    """The principals file rewritten with `wide`'s subscribe region narrowed to `price < 1000`: the
    controller that accepted h3's standing subscription (`true`) reloads it (within a second) and
    re-cuts the subscription (in a cluster, in the shared control plane), so h2's
    events at 40 000 stop reaching h3 while those at 10 still do, under the same subscription id.
    Fails if a reload leaves standing covers alone (before the re-cut, h3 received 40 000 above)."""
    narrowed = [(n, h, "price < 1000" if n == "wide" else sub, adv)
                for n, h, sub, adv in PRINCIPALS]
    with open(auth + ".tmp", "w") as f:
        f.write(principals_yaml(narrowed))
    os.replace(auth + ".tmp", auth)  # in one step, as docs/security-rest.md asks

    def delivered() -> list[str]:
        p = subprocess.Popen([TESTBED, "exec", "h3", "--", "/usr/bin/python3",
                              os.path.join(HERE, "ingress_peer.py"), "listen", "0.3",
                              str(SUB_PORT), inside, middle],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            assert p.stdout.readline().strip() == "ready", p.stderr.read()
            sent = exec_(testbed, "h2", "send", inside, "in", "3", middle, "mid", "3")
            assert sent.returncode == 0, sent.stderr
            stdout, stderr = p.communicate(timeout=30)
            assert p.returncode == 0, stderr
        finally:
            if p.poll() is None:
                p.kill()
        return json.loads(stdout.strip().splitlines()[-1])[str(SUB_PORT)]

    def recut() -> bool:
        got = delivered()
        return any(g.startswith("in-") for g in got) and not any(g.startswith("mid-") for g in got)

    poll(recut, 20, "h3 receiving 10 and no longer 40 000 after the reload", interval=0.2)
    mine = call(controller, "wide", "GET", "/v1/subscriptions")
    assert sub_id in json.dumps(mine), mine  # the same request, re-cut
    req = urllib.request.Request(controller.api + "/metrics",
                                 headers={"Authorization": "Bearer t-wide"})
    with urllib.request.urlopen(req, timeout=30) as r:
        assert re.search(r'^nps_auth_recut_total\{outcome="recut",?\} [1-9]', r.read().decode(),
                         re.M)


@needs_root
@pytest.mark.parametrize("processes,routing", [(1, "pleroma"), (2, "pleroma"), (1, "camus-mr")],
                         ids=["one-process", "cluster", "camus"])
def test_the_network_drops_what_a_modified_client_sends_or_binds_outside_its_region(processes,
                                                                                    routing):
    build()
    work = tempfile.mkdtemp(prefix="nps-ingress-")
    auth = os.path.join(work, "principals.yaml")
    with open(auth, "w") as f:
        f.write(principals_yaml())
    zk = None
    controllers: list[Controller] = []
    testbed = None
    listeners = []
    try:
        if processes == 1:
            controllers.append(Controller(SCHEMA, "--auth", auth, "--routing", routing,
                                          log_path=os.path.join(work, "controller.log")))
        else:
            zk_port = free_port()
            zk = JsonLines([NPS, "overlay", "zookeeper", "--listen", f"127.0.0.1:{zk_port}",
                            "--data", os.path.join(work, "zk"), "--tick", "200", "--json"])
            zk.wait_for(lambda o: o.get("kind") == "zookeeper", 60, "ZooKeeper")

            def member(i: int) -> Controller:
                return Controller(SCHEMA, "--auth", auth, *session_auth.zookeeper_args(),
                                  "--cluster", f"127.0.0.1:{zk_port}",
                                  "--member", f"c{i}", "--partitions", "4",
                                  log_path=os.path.join(work, f"controller-{i}.log"))

            with ThreadPoolExecutor(2) as pool:  # JVMs start faster side by side
                starting = [pool.submit(member, i) for i in range(2)]
            controllers.extend(f.result() for f in starting if f.exception() is None)
            for f in starting:
                if f.exception() is not None:
                    raise f.exception()  # the started ones are stopped below
        # requests alternate between the processes; the drops are read at the last one
        front, back = controllers[0], controllers[-1]
        testbed = Testbed("tree:1,5", front, also=tuple(controllers[1:]))
        hosts = {h["name"]: h for h in testbed.hosts}

        def learned() -> bool:
            missing = set()
            for c in controllers:
                known = {h["address"] for h in call(c, "wide", "GET", "/v1/topology")["hosts"]}
                missing |= {n for n, h in hosts.items() if h["address"] not in known}
            solicit([(name, UNUSED) for name in missing])
            return not missing

        poll(learned, 90, "5 hosts learned", interval=0.5)
        config = PubSubConfig.from_answer(call(front, "wide", "GET", "/v1/pubsub"))

        def address(price: int) -> str:
            return format_address(config.address(["AA", price, 500, "XNYS"]))

        inside, middle, outside = address(10), address(40_000), address(90_000)
        a = hosts["h1"]["address"], hosts["h2"]["address"], hosts["h3"]["address"]
        call(back, "pub", "POST", "/v1/advertisements", {"host": a[0], "filter": "price < 50000"})
        call(front, "wide", "POST", "/v1/advertisements", {"host": a[1], "filter": "true"})
        subscribed = {h: call(c, who, "POST", "/v1/subscriptions",
                              {"host": hosts[h]["address"], "filter": "true", "port": SUB_PORT})
                      for c, who, h in ((front, "wide", "h3"), (back, "narrow", "h4"))}
        h1 = next(h for h in call(back, "wide", "GET", "/v1/topology")["hosts"]
                  if h["address"] == a[0])
        at = (h1["dpid"], h1["port"])
        before = dropped(back, at)
        for h in ("h3", "h4", "h5"):
            p = subprocess.Popen([TESTBED, "exec", h, "--", "/usr/bin/python3",
                                  os.path.join(HERE, "ingress_peer.py"), "listen", str(QUIET),
                                  f"{SUB_PORT},7073", inside, middle, outside],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            assert p.stdout.readline().strip() == "ready", p.stderr.read()
            listeners.append((h, p))
        for h, tag in (("h1", "pub"), ("h2", "wide")):
            sent = exec_(testbed, h, "send", inside, f"{tag}-in", str(COUNT), middle,
                         f"{tag}-mid", str(COUNT), outside, f"{tag}-out", str(COUNT))
            assert sent.returncode == 0, sent.stderr
        got = {}
        for h, p in listeners:
            stdout, stderr = p.communicate(timeout=60)  # closes stdin: the senders are done
            assert p.returncode == 0, stderr
            got[h] = json.loads(stdout.strip().splitlines()[-1])

        def tags(*names: str) -> list[str]:
            return sorted(f"{n}-{i}" for n in names for i in range(COUNT))

        # h3 subscribed everything: h1's events outside its region never left h1's port
        assert sorted(got["h3"][str(SUB_PORT)]) == tags("pub-in", "wide-in", "wide-mid", "wide-out")
        # h4's filter is `true`, its region price < 1000: nothing else reaches it (PLEROMA's cover
        # and Camus's pipeline rules are both cut to the region)
        assert sorted(got["h4"][str(SUB_PORT)]) == tags("pub-in", "wide-in")
        # bound to the event port and joined to the content addresses: nothing, anywhere
        assert got["h3"]["7073"] == [] and got["h4"]["7073"] == []
        assert got["h5"] == {str(SUB_PORT): [], "7073": []}
        # OVS's flow counters lag the datapath by up to a second: poll
        poll(lambda: dropped(back, at) - before >= 2 * COUNT, 15, "the drops counted")
        assert dropped(back, at) - before == 2 * COUNT
        assert metric(back) >= 2 * COUNT
        if routing == "pleroma":  # in a cluster, front accepted h3's subscription: it re-cuts it
            narrowed_by_a_reload(front, testbed, auth, subscribed["h3"]["id"], inside, middle)
    finally:
        for _, p in listeners:
            if p.poll() is None:
                p.kill()
        if testbed:
            testbed.down()
        for c in controllers:
            c.terminate()
        if zk is not None:
            zk.terminate()
