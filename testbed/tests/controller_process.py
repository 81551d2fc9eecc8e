"""The netpubsub controller as a process for the live tests: `./nps controller` in the
background, its REST API, and the waits every controller test needs."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import threading
import urllib.error
import urllib.request

import pytest

from live import UpProcess, clear_switches, poll
from pubsub import auth, openflow_tls
from pubsub.session import UNUSED, build, solicit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NPS = os.path.join(ROOT, "nps")
STATE = "/run/netpubsub/testbed.json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Controller:
    """`./nps controller` in the background, stopped with SIGTERM. Like pubsub/session.py's, with
    the session's principals (its own requests as `operator`) and OpenFlow over TLS unless
    NPS_TESTBED_AUTH=0 / NPS_TESTBED_OPENFLOW_TLS=0."""

    def __init__(self, openflow_port: int, api_port: int, *extra: str):
        build()  # once per test bed run (pubsub/session.py)
        self.api = f"http://127.0.0.1:{api_port}"
        self.tls = openflow_tls.choose(None)
        self.scheme = "ssl" if self.tls else "tcp"
        self.headers = auth.headers()
        self.log = open(os.path.join(ROOT, "target", "controller-test.log"), "w") \
            if os.path.isdir(os.path.join(ROOT, "target")) else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [NPS, "controller", "--openflow", f"{self.scheme}:127.0.0.1:{openflow_port}",
             *(openflow_tls.controller_args(self.tls) if self.tls else []), *auth.server_args(),
             "--api", self.api, "--probe-interval", "1s", "--json",
             # the start-up warm-up is for operators; tests start controllers many times
             *([] if "--warm-up" in extra else ["--warm-up", "0"]), *extra],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.started: dict = {}
        reader = threading.Thread(target=self._first_line, daemon=True)
        reader.start()
        reader.join(timeout=60)
        if self.started.get("kind") != "controller":
            self.proc.kill()  # no fixture stops a controller that never started: it would linger
            self.proc.wait()
        assert self.started.get("kind") == "controller", f"controller did not start: {self.started}"

    def _first_line(self) -> None:
        line = self.proc.stdout.readline()
        if line:
            self.started = json.loads(line)

    def get(self, path: str) -> dict:
        req = urllib.request.Request(self.api + path, headers=self.headers)
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        """A REST request; returns (status, JSON answer), errors included."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.api + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **self.headers})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def thread_dump(self, thread: str) -> str:
        """The stack of the controller's thread named `thread`, from `jcmd Thread.print`."""
        # the JDK of the running JVM (`nps` execs java), which need not be on PATH
        jcmd = os.path.join(os.path.dirname(os.path.realpath(f"/proc/{self.proc.pid}/exe")), "jcmd")
        dump = subprocess.run([jcmd, str(self.proc.pid), "Thread.print"], capture_output=True,
                              text=True, timeout=30, check=False).stdout
        return next((t for t in dump.split("\n\n") if t.startswith(f'"{thread}"')), "")[:3000]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def running_controller(*extra: str):
    """A fixture body: a controller with `extra` options, stopped afterwards."""
    c = Controller(free_port(), free_port(), *extra)
    try:
        yield c
    finally:
        c.stop()


def network_up(controller: Controller, topo: str, switches: int, timeout: float = 180):
    """A fixture body: `nps-testbed up --topo TOPO` connected to `controller`; yields the test
    bed's state once all `switches` are connected, and leaves the machine clean afterwards."""
    port = controller.started["openflow"].rsplit(":", 1)[1]
    if controller.tls:
        openflow_tls.configure_ovs(controller.tls)
    up = UpProcess("--topo", topo, "--controller", f"{controller.scheme}:127.0.0.1:{port}",
                   "--wait-connected", "20", "--api", "none")
    try:
        event = up.wait_event("up", timeout=timeout)
        assert event["connected"] == switches
        with open(STATE) as f:
            yield json.load(f)
    finally:
        up.stop()
        if controller.tls:
            openflow_tls.clear_ovs()


class SharedNetwork:
    """One network for several controllers in turn, within one test module (a bed takes seconds
    to build and tear down). Every
    controller listens on the same ports, so the bridges (max_backoff 1 s) reconnect to the next
    one; `release` stops a controller and deletes every bridge's flows and groups, so the next
    one meets empty tables, as on a fresh bed, and discovers links and learns hosts itself."""

    def __init__(self, topo: str, switches: int, timeout: float = 180):
        self.args = (topo, switches, timeout)
        self.ports = (free_port(), free_port())
        self.up = None
        self.state: dict = {}

    def controller(self, *extra: str) -> Controller:
        return Controller(*self.ports, *extra)

    def connect(self, controller: Controller) -> dict:
        """The network's state, brought up on first use with this controller."""
        if self.up is None:
            self.up = network_up(controller, *self.args)
            self.state = next(self.up)
        return self.state

    def release(self, controller: Controller) -> None:
        controller.stop()
        clear_switches(s["bridge"] for s in self.state.get("switches", []))


def shared_network(topo: str, switches: int, timeout: float = 180):
    """A module fixture's body: the SharedNetwork, brought down at the end of the module."""
    net = SharedNetwork(topo, switches, timeout)
    try:
        yield net
    finally:
        if net.up is not None:
            net.up.close()  # network_up's clean-up


def learn_hosts(controller: "Controller", hosts: list, link_local: bool = False) -> None:
    """Polls until the controller knows all hosts' addresses (their link-local ones too with
    `link_local`); unknown hosts are made to solicit from the address still missing. A host's
    link-local address is otherwise learned only from its duplicate address detection, which the
    controller sees or misses depending on when the switch connected."""
    last: dict = {}

    def learned() -> bool:
        topology = controller.get("/v1/topology")
        known = {h["address"] for h in topology["hosts"]}
        missing = [(h, a) for h in hosts for a in addresses(h, link_local) if a not in known]
        last.update(missing=[f"{h['name']} {a}" for h, a in missing], topology=topology)
        solicit([(h["name"], unused(h, a)) for h, a in missing])
        return not missing

    try:
        poll(learned, 60, f"{len(hosts)} hosts learned from neighbour discovery", interval=0.2)
    except pytest.fail.Exception:
        t = last["topology"]
        pytest.fail(f"hosts not learned in 60 s; still missing: {last['missing']}; switches "
                    f"connected: {sum(s['connected'] for s in t['switches'])} of "
                    f"{len(t['switches'])}; hosts known (address, dpid, port): "
                    f"{[(h['address'], h['dpid'], h['port']) for h in t['hosts']]}; the "
                    f"controller's loop thread: {controller.thread_dump('nps-controller-loop')}")


def addresses(host: dict, link_local: bool) -> list:
    return [host["address"], host["link_local"]] if link_local else [host["address"]]


def unused(host: dict, address: str) -> str:
    """An address no host has, in the scope of `address`: pinging it from there makes the kernel
    solicit with `address` as the source."""
    return f"fe80::ffff%{host['interface']}" if address.startswith("fe80:") else UNUSED


def reconciled(controller: "Controller", dpids: list) -> bool:
    """Every switch is connected and holds exactly the flows the controller wants."""
    if not all(s["connected"] for s in controller.get("/v1/topology")["switches"]):
        return False
    for d in dpids:
        want = {f["flow"] for f in controller.get(f"/v1/switches/{d}/flows")["flows"]}
        have = {f["flow"] for f in controller.get(f"/v1/switches/{d}/flows?source=switch")["flows"]}
        if want != have:
            return False
    return True
