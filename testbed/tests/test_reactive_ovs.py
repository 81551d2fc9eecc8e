"""Reactive forwarding on real Open vSwitch (EMD, the setting of Fig. 10): with
`nps controller --forwarding reactive --apps simple+3red --nbi-topics bytes` the bridges of a
chain send table misses to the controller, the forwarding app on the northbound bus (classified
by protocol-independent byte windows) answers with flow-mods and a packet-out, and h1 reaches h3.
Both forwarding apps: the learning switch (simple) and shortest paths (shortest). Nothing is
installed ahead of traffic; the apps' flows carry their idle timeout."""

from __future__ import annotations

import subprocess

import pytest

from controller_process import learn_hosts, shared_network
from live import in_host, needs_root, poll


@pytest.fixture(scope="module")
def linear3():
    """One linear:3 bed for both apps, each with a controller of its own."""
    yield from shared_network("linear:3", 3, timeout=120)


@pytest.fixture(params=["simple+3red", "shortest+3red"])
def controller(request, linear3):
    c = linear3.controller("--forwarding", "reactive", "--apps", request.param,
                           "--nbi-topics", "bytes")
    try:
        yield c
    finally:
        linear3.release(c)


@pytest.fixture
def chain(controller, linear3):
    return linear3.connect(controller)


def learned_flows(bridge: str) -> list[str]:
    dump = subprocess.run(["ovs-ofctl", "-O", "OpenFlow13", "dump-flows", bridge],
                          capture_output=True, text=True, check=True).stdout
    return [line for line in dump.splitlines() if "priority=10," in line]


@needs_root
def test_a_forwarding_app_on_the_bus_forwards_a_chain(controller, chain):
    assert controller.started["forwarding"] == "reactive"
    poll(lambda: len(controller.get("/v1/topology")["links"]) == 2, 30, "2 links")
    hosts = chain["hosts"]
    learn_hosts(controller, hosts)
    h3 = next(h for h in hosts if h["name"] == "h3")
    for s in chain["switches"]:
        assert learned_flows(s["bridge"]) == [], "reactive: nothing installed ahead of traffic"
    poll(lambda: in_host("h1", "ping", "-6", "-c1", "-W2", h3["address"]).returncode == 0,
         30, "h1 reaches h3 through the app")
    for s in chain["switches"]:
        flows = learned_flows(s["bridge"])
        assert any(h3["address"] in f and "idle_timeout=60" in f for f in flows), flows
