"""OpenFlow over TLS for the test bed (issue 27 part 4): a PKI made with `ovs-pki` (Debian's
openvswitch ships it), the controller's TLS flags, and Open vSwitch's SSL settings.

Every `Controller` and `Testbed` of pubsub/session.py and testbed/tests/controller_process.py uses
it unless `NPS_TESTBED_OPENFLOW_TLS=0` (or a test asks for `tcp:` explicitly):
the controller listens on `ssl:`, every bridge connects to `ssl:` targets with one switch
certificate (ovs-vswitchd has one SSL identity for all its bridges), and the controller's switches
file lets that certificate claim any dpid. docs/security.md describes the binding."""

from __future__ import annotations

import os
import subprocess
import tempfile
import threading

from nps_testbed import ovs

SWITCH_NAME = "nps-testbed"  # the certificate's CN starts with it (ovs-pki adds " id:UUID")

_cached: dict | None = None
_making = threading.Lock()


def enabled() -> bool:
    """On unless NPS_TESTBED_OPENFLOW_TLS=0."""
    return os.environ.get("NPS_TESTBED_OPENFLOW_TLS", "1") != "0"


def choose(tls: dict | bool | None) -> dict | None:
    """A controller's PKI: the one given, none for False, else this process's when enabled()."""
    if isinstance(tls, dict):
        return tls
    if tls is False or (tls is None and not enabled()):
        return None
    return pki()


def _run(*args: str, cwd: str | None = None) -> None:
    r = subprocess.run(list(args), capture_output=True, text=True, timeout=120, cwd=cwd)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")


def make_pki(switch_name: str = SWITCH_NAME) -> dict:
    """A new PKI in a temporary directory: a controller certificate (controllerca), a switch
    certificate (switchca) named `switch_name`, and a switches file granting it every dpid."""
    d = tempfile.mkdtemp(prefix="nps-of-pki-")
    pki = os.path.join(d, "pki")
    _run("ovs-pki", f"--dir={pki}", "--force", "init")
    # NAME is relative: ovs-pki puts it into the CN, which must stay under 64 characters
    _run("ovs-pki", f"--dir={pki}", "--force", "req+sign", "controller", "controller", cwd=d)
    _run("ovs-pki", f"--dir={pki}", "--force", "req+sign", switch_name, "switch", cwd=d)
    ctl, sw = os.path.join(d, "controller"), os.path.join(d, switch_name)
    switches = os.path.join(d, "switches")
    with open(switches, "w") as f:
        f.write(f"{switch_name} *\n")
    return {"dir": d,
            "controller_key": ctl + "-privkey.pem", "controller_cert": ctl + "-cert.pem",
            "switch_ca": os.path.join(pki, "switchca", "cacert.pem"),
            "controller_ca": os.path.join(pki, "controllerca", "cacert.pem"),
            "switch_key": sw + "-privkey.pem", "switch_cert": sw + "-cert.pem",
            "switches": switches}


def pki() -> dict:
    """The PKI of this test process (made once, also when controllers start in parallel threads:
    three PKIs for a cluster's three processes left the switches trusting only the first)."""
    global _cached
    with _making:
        if _cached is None:
            _cached = make_pki()
        return _cached


def controller_args(p: dict) -> list[str]:
    return ["--openflow-key", p["controller_key"], "--openflow-cert", p["controller_cert"],
            "--openflow-ca", p["switch_ca"], "--openflow-switches", p["switches"]]


def configure_ovs(p: dict, switch_key: str | None = None, switch_cert: str | None = None) -> None:
    """ovs-vswitchd's SSL identity: the switch key and certificate, and the CA it trusts for the
    controller (its certificate must be signed by controllerca). Starts Open vSwitch first if it
    is down (`nps-testbed up` would, but only after this: set-ssl then failed to connect)."""
    ovs.ensure_running()
    _run("ovs-vsctl", "set-ssl", switch_key or p["switch_key"], switch_cert or p["switch_cert"],
         p["controller_ca"])


def clear_ovs() -> None:
    subprocess.run(["ovs-vsctl", "del-ssl"], capture_output=True, timeout=60)
