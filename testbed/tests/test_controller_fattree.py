"""The netpubsub controller (`nps controller`) on a k=4 fat tree of real Open vSwitch bridges:
it discovers the 20 switches and 32 links (LLDP), learns the 16 hosts from IPv6 neighbour
discovery, routes pings between hosts across pods, reroutes when a core-aggregation link goes
down, and restores every switch's flows after ovs-vswitchd restarts.

Hosts are learned from their own neighbour solicitations: DAD is off in the test bed, so a host
sends nothing until it talks; the test makes each unknown host ping an unused address of the
data /64, which makes the kernel send a solicitation that the switch punts to the controller
(the attachment comes from the packet-in, nothing is registered by hand)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import threading
import urllib.request

import pytest

from live import UpProcess, in_host, needs_root, poll, tb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NPS = os.path.join(ROOT, "nps")
STATE = "/run/netpubsub/testbed.json"
OVS_CTL = "/usr/share/openvswitch/scripts/ovs-ctl"
UNUSED = "fd6e:7073:1::ffff"  # no host has it: pinging it only makes the kernel solicit


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Controller:
    """`./nps controller` in the background, stopped with SIGTERM."""

    def __init__(self, openflow_port: int, api_port: int):
        build = subprocess.run([NPS, "--version"], capture_output=True, text=True, timeout=600)
        assert build.returncode == 0, build.stderr
        self.api = f"http://127.0.0.1:{api_port}"
        self.log = open(os.path.join(ROOT, "target", "controller-test.log"), "w") \
            if os.path.isdir(os.path.join(ROOT, "target")) else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [NPS, "controller", "--openflow", f"tcp:127.0.0.1:{openflow_port}", "--api", self.api,
             "--probe-interval-ms", "1000", "--json"],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.started: dict = {}
        reader = threading.Thread(target=self._first_line, daemon=True)
        reader.start()
        reader.join(timeout=60)
        assert self.started.get("kind") == "controller", f"controller did not start: {self.started}"

    def _first_line(self) -> None:
        line = self.proc.stdout.readline()
        if line:
            self.started = json.loads(line)

    def get(self, path: str) -> dict:
        with urllib.request.urlopen(self.api + path, timeout=10) as r:
            return json.loads(r.read())

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def controller():
    c = Controller(free_port(), free_port())
    try:
        yield c
    finally:
        c.stop()
    # The JVM exits 128+15 after its shutdown hook closed the controller: stopped, not killed.
    assert c.proc.returncode == 128 + signal.SIGTERM, f"clean shutdown on SIGTERM: {c.proc.returncode}"


@pytest.fixture
def fattree(controller):
    port = controller.started["openflow"].rsplit(":", 1)[1]
    up = UpProcess("--topo", "fattree:4", "--controller", f"tcp:127.0.0.1:{port}",
                   "--wait-connected", "20", "--api", "none")
    try:
        event = up.wait_event("up", timeout=180)
        assert event["connected"] == 20
        with open(STATE) as f:
            yield json.load(f)
    finally:
        up.stop()


def undirected_links(topology: dict) -> set:
    return {frozenset([(l["a"]["dpid"], l["a"]["port"]), (l["b"]["dpid"], l["b"]["port"])])
            for l in topology["links"]}


def ping(host: str, address: str) -> bool:
    return in_host(host, "ping", "-6", "-c1", "-W2", address, timeout=15).returncode == 0


def sample_pairs(hosts: list) -> list:
    """48 pairs: every host to the hosts 1, 4 and 8 places on (same edge, same pod, other pod)."""
    n = len(hosts)
    return [(hosts[i], hosts[(i + k) % n]) for i in range(n) for k in (1, 4, 8)]


def all_reachable(pairs: list, what: str) -> None:
    for a, b in pairs:
        poll(lambda: ping(a["name"], b["address"]), timeout=20, what=f"{what}: {a['name']} -> {b['name']}")


@needs_root
def test_discovers_routes_and_reroutes_a_fat_tree(controller, fattree):
    state = fattree
    poll(lambda: len(controller.get("/v1/topology")["switches"]) == 20, 30, "20 switches")
    poll(lambda: len(undirected_links(controller.get("/v1/topology"))) == 32, 60, "32 links")
    topo = controller.get("/v1/topology")
    assert len(topo["links"]) == 32, "each link is reported once"

    hosts = state["hosts"]

    def learned() -> bool:
        known = {h["address"] for h in controller.get("/v1/topology")["hosts"]}
        for h in hosts:
            if h["address"] not in known:
                in_host(h["name"], "ping", "-6", "-c1", "-W1", UNUSED, timeout=15)
        return len(known) == 16

    poll(learned, 60, "16 hosts learned from neighbour discovery", interval=0.5)
    by_address = {h["address"]: h for h in controller.get("/v1/topology")["hosts"]}
    for h in hosts:  # learned at the right switch port, with the right MAC
        got = by_address[h["address"]]
        dpid = next(s["dpid"] for s in state["switches"] if s["name"] == h["switch"])
        assert (got["dpid"], got["port"], got["mac"]) == (dpid, h["port"], h["mac"])

    pairs = sample_pairs(hosts)
    all_reachable(pairs, "ping")

    # A core-aggregation link goes down: it leaves the topology, and the pings reroute.
    link = next(l for l in state["links"] if l["kind"] == "switch"
                and {l["a"], l["b"]} == {"s1", "s5"})
    dpid = {s["name"]: s["dpid"] for s in state["switches"]}
    gone = frozenset([(dpid[link["a"]], link["a_port"]), (dpid[link["b"]], link["b_port"])])
    assert gone in undirected_links(controller.get("/v1/topology"))
    result = tb("link", "s1", "s5", "down")
    assert result.returncode == 0, result.stderr
    poll(lambda: gone not in undirected_links(controller.get("/v1/topology")), 10, "s1-s5 removed")
    assert len(undirected_links(controller.get("/v1/topology"))) == 31
    all_reachable(pairs, "ping after s1-s5 down")

    # The switch really holds what the controller wants (the desired flows, read back).
    wanted = {f["flow"] for f in controller.get(f"/v1/switches/{dpid['s5']}/flows")["flows"]}
    held = {f["flow"] for f in controller.get(f"/v1/switches/{dpid['s5']}/flows?source=switch")["flows"]}
    assert wanted and wanted <= held

    # ovs-vswitchd restarts: the database keeps bridges, ports and controller settings, every
    # flow is lost (not `ovs-ctl restart`, which would save and restore the flows). The switches
    # reconnect, the controller reconciles them to the desired flows, and the pings succeed again.
    subprocess.run(["ovs-appctl", "-t", "ovs-vswitchd", "exit"], check=True, timeout=30)
    poll(lambda: not any(s["connected"] for s in controller.get("/v1/topology")["switches"]),
         20, "every switch seen disconnected")
    subprocess.run([OVS_CTL, "--no-ovsdb-server", "start"], check=True, timeout=120,
                   capture_output=True)

    def reconciled() -> bool:
        if not all(s["connected"] for s in controller.get("/v1/topology")["switches"]):
            return False
        for d in dpid.values():
            want = {f["flow"] for f in controller.get(f"/v1/switches/{d}/flows")["flows"]}
            have = {f["flow"] for f in controller.get(f"/v1/switches/{d}/flows?source=switch")["flows"]}
            if not want <= have:
                return False
        return True

    poll(reconciled, 60, "every switch reconnected and reconciled", interval=0.5)
    poll(lambda: len(undirected_links(controller.get("/v1/topology"))) == 31, 30, "31 links again")
    all_reachable(pairs, "ping after ovs-vswitchd restart")
