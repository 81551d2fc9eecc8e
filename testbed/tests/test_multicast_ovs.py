"""SNAPS multicast trees on real Open vSwitch: the controller (`nps controller`) on the Abilene
network of the Internet Topology Zoo (11 switches, 14 links, one host per switch) embeds a group
with two sources and four members as shortest-path trees whose replication segments are OVS
groups of type ALL with per-bucket `set_field:...->ipv6_dst`. Each source sends every datagram
once, to its tree's entry address; every member receives each exactly once with a valid UDP
checksum, no other host receives anything; after a tree link goes down the trees are re-embedded
and delivery is exact again; deleting the group removes every segment from the switches."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.parse

import pytest

import sys

from controller_process import learn_hosts, network_up, reconciled, running_controller
from live import TESTBED, needs_root, poll, tb

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from pubsub import linkstats  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PORT = 7447
WINDOW = 3.0


@pytest.fixture
def controller():
    yield from running_controller()


@pytest.fixture
def te_controller():
    """Traffic engineering on: links of 10 Mbit/s, avoided from 65 %, held 30 s."""
    yield from running_controller("--te-link-mbps", "10", "--te-interval", "500ms",
                                  "--te-hold", "30s")


@pytest.fixture
def abilene(controller):
    yield from network_up(controller, "zoo:Abilene", 11)


@pytest.fixture
def abilene_te(te_controller):
    yield from network_up(te_controller, "zoo:Abilene", 11)


def payload(tag: str, i: int, size: int) -> str:
    return f"{tag}-{i}".ljust(size, ".")


def receive_round(hosts: list, source: dict, send_to: str, count: int, tag: str,
                  size: int = 0) -> dict:
    """Starts a counter in every host but the source, sends `count` datagrams (padded to `size`
    bytes) from the source to `send_to`, and returns each host's payloads (the counting window
    starts when the sending is done: a line to each counter)."""
    counters = {}
    for h in hosts:
        if h is source:
            continue
        p = subprocess.Popen([TESTBED, "exec", h["name"], "--", "/usr/bin/python3",
                              os.path.join(HERE, "udp_count.py"), str(PORT), str(WINDOW)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        assert p.stdout.readline().strip() == "ready", p.stderr.read()
        counters[h["name"]] = p
    script = ("import socket,sys\n"
              "s=socket.socket(socket.AF_INET6,socket.SOCK_DGRAM)\n"
              "for i in range(int(sys.argv[3])): s.sendto(f'{sys.argv[4]}-{i}'"
              ".ljust(int(sys.argv[5]),'.').encode(),(sys.argv[1],int(sys.argv[2])))\n")
    sent = tb("exec", source["name"], "--", "/usr/bin/python3", "-c", script, send_to, str(PORT),
              str(count), tag, str(size), timeout=30)
    assert sent.returncode == 0, sent.stderr
    for p in counters.values():
        p.stdin.write("sent\n")  # each counter's window starts now
        p.stdin.flush()
    out = {}
    for name, p in counters.items():
        stdout, stderr = p.communicate(timeout=WINDOW + 30)
        assert p.returncode == 0, stderr
        out[name] = json.loads(stdout.strip().splitlines()[-1])
    return out


def assert_exact(result: dict, members: set, count: int, tag: str, size: int = 0) -> None:
    expected = [payload(tag, i, size) for i in range(count)]
    for name, got in result.items():
        if name in members:
            assert sorted(got["payloads"]) == sorted(expected), f"{name} got {got['payloads']}"
            assert got["checksums_ok"], f"{name}: bad UDP checksum after the rewrite"
        else:
            assert got["payloads"] == [], f"{name} is no member but got {got['payloads']}"


def segment_groups(dpids: list) -> int:
    """Groups the switches hold, read with ovs-ofctl (independently of the controller)."""
    total = 0
    for bridge in subprocess.run(["ovs-vsctl", "list-br"], capture_output=True, text=True,
                                 check=True).stdout.split():
        if bridge.startswith("npt"):
            dump = subprocess.run(["ovs-ofctl", "-O", "OpenFlow13", "dump-groups", bridge],
                                  capture_output=True, text=True, check=True).stdout
            total += sum(1 for line in dump.splitlines() if "type=all" in line)
    return total


@needs_root
def test_shared_segment_trees_deliver_exactly_and_follow_link_failure(controller, abilene):
    state = abilene
    poll(lambda: len(controller.get("/v1/topology")["links"]) == 14, 60, "14 links discovered")
    hosts = state["hosts"]
    learn_hosts(controller, hosts)
    by_name = {h["name"]: h for h in hosts}
    sources = [by_name["h1"], by_name["h3"]]
    members = {"h5", "h7", "h9", "h11"}
    path = "/v1/groups/" + urllib.parse.quote("plant/line-1/temp", safe="")
    status, group = controller.call("PUT", path, {
        "members": [by_name[m]["address"] for m in sorted(members)],
        "sources": [s["address"] for s in sources]})
    assert status == 200, group
    assert group["unknown_hosts"] == []
    dpids = [s["dpid"] for s in state["switches"]]
    poll(lambda: reconciled(controller, dpids), 30, "switches hold the desired flows")
    listed = controller.get("/v1/groups")
    per_source = sum(group["sources"][s["address"]]["segments"] for s in sources)
    assert 0 < listed["segments"] <= per_source
    assert segment_groups(dpids) == listed["segments"], "one OVS group per segment"

    for i, src in enumerate(sources):
        send_to = group["sources"][src["address"]]["send_to"]
        assert send_to.startswith("ff1e:5e00:"), send_to
        result = receive_round(hosts, src, send_to, 5, f"r{i}")
        assert_exact(result, members, 5, f"r{i}")

    # A link of h1's tree goes down: the trees are re-embedded around it.
    link = next(l for l in state["links"] if l["kind"] == "switch"
                and {l["a"], l["b"]} & {"s1"})
    assert tb("link", link["a"], link["b"], "down").returncode == 0
    poll(lambda: len(controller.get("/v1/topology")["links"]) == 13, 30, "13 links")
    poll(lambda: reconciled(controller, dpids), 30, "switches reconciled after the failure")
    group = controller.get(path)
    for i, src in enumerate(sources):
        send_to = group["sources"][src["address"]]["send_to"]
        result = receive_round(hosts, src, send_to, 5, f"f{i}")
        assert_exact(result, members, 5, f"f{i}")

    status, _ = controller.call("DELETE", path)
    assert status == 200
    poll(lambda: reconciled(controller, dpids), 30, "switches reconciled after the delete")
    assert segment_groups(dpids) == 0
    assert controller.get("/v1/groups")["segments"] == 0


def switch_link_bytes(state: dict, before: dict, after: dict) -> dict:
    """Bytes each switch-to-switch link carried between two port-counter snapshots."""
    names = {f"{l['a']}-{l['b']}" for l in state["links"] if l["kind"] == "switch"}
    return {k: v for k, v in linkstats.link_bytes(state, before, after).items() if k in names}


def group_traffic(state: dict, hosts: list, source: dict, send_to: str, tag: str,
                  members: set) -> dict:
    """Sends 20 datagrams of 1000 bytes to the group (far more than the LLDP probes a link carries
    meanwhile), checks exact delivery, returns bytes per switch link."""
    before = linkstats.snapshot(state)
    result = receive_round(hosts, source, send_to, 20, tag, size=1000)
    after = linkstats.snapshot(state)
    assert_exact(result, members, 20, tag, size=1000)
    return switch_link_bytes(state, before, after)


@needs_root
def test_trees_leave_a_busy_link_and_deliver_exactly_around_it(te_controller, abilene_te):
    c, state = te_controller, abilene_te
    poll(lambda: len(c.get("/v1/topology")["links"]) == 14, 60, "14 links discovered")
    hosts = state["hosts"]
    learn_hosts(c, hosts)
    by_name = {h["name"]: h for h in hosts}
    source, members = by_name["h1"], {"h5", "h7", "h9", "h11"}
    path = "/v1/groups/te"
    status, group = c.call("PUT", path, {"members": [by_name[m]["address"] for m in members],
                                        "sources": [source["address"]]})
    assert status == 200, group
    dpids = [s["dpid"] for s in state["switches"]]
    poll(lambda: reconciled(c, dpids), 30, "switches hold the group")
    send_to = group["sources"][source["address"]]["send_to"]
    used = group_traffic(state, hosts, source, send_to, "calm", members)
    carrying = sorted(k for k, v in used.items() if v > 10_000)
    assert carrying, f"the group crosses switch links: {used}"

    # Load one of them with 20 Mbit/s of UDP between the hosts at its ends (twice the capacity).
    hot = next(l for l in state["links"] if l["kind"] == "switch"
               and f"{l['a']}-{l['b']}" == carrying[0])
    a, b = by_name["h" + hot["a"][1:]], by_name["h" + hot["b"][1:]]
    blast = ("import socket,sys,time\n"
             "s=socket.socket(socket.AF_INET6,socket.SOCK_DGRAM); d=b'x'*1200\n"
             "end=time.monotonic()+float(sys.argv[2])\n"
             "while time.monotonic()<end:\n"
             "  t=time.monotonic()\n"
             "  for _ in range(20): s.sendto(d,(sys.argv[1],9))\n"
             "  time.sleep(max(0,0.01-(time.monotonic()-t)))\n")
    load = subprocess.Popen([TESTBED, "exec", a["name"], "--", "/usr/bin/python3", "-c", blast,
                             b["address"], "60"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        def avoided() -> bool:
            ends = [{(x["a"]["dpid"], x["a"]["port"]), (x["b"]["dpid"], x["b"]["port"])}
                    for x in c.get("/v1/groups")["avoided_links"]]
            dpid = {s["name"]: s["dpid"] for s in state["switches"]}
            want = {(dpid[hot["a"]], hot["a_port"]), (dpid[hot["b"]], hot["b_port"])}
            return want in ends
        poll(avoided, 30, f"link {carrying[0]} avoided", interval=0.5)
    finally:
        load.kill()
        load.wait()
    poll(lambda: reconciled(c, dpids), 30, "switches follow the move")
    group = c.get(path)
    send_to = group["sources"][source["address"]]["send_to"]
    moved = group_traffic(state, hosts, source, send_to, "moved", members)
    assert moved[carrying[0]] < 5_000, f"the group still crosses {carrying[0]}: {moved}"
    assert any(v > 10_000 for v in moved.values()), "the moved group is seen on other links"
