"""SNAPS with AMQP on real Open vSwitch: each host of a linear:3 network runs an unmodified
RabbitMQ node with `nps edge-agent --broker amqp://…` beside it; one `nps edge-coordinator` (root
namespace, management network) mirrors exchanges and asks the controller for multicast groups.
An AMQP application (pika) on h1 declares a topic exchange and publishes; applications on h2 and
h3 bind patterns with `*` and `#` at their own brokers (the exchange was mirrored there) and each
receives exactly what one broker would have routed to it: every matching message once, nothing
else."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import urllib.request

import pytest

from controller_process import learn_hosts, network_up, running_controller
from edge_processes import start_agent, start_coordinator
from live import TESTBED, in_host, needs_root, poll

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pubsub import auth  # noqa: E402
from pubsub.rabbitmq import AMQP_PORT, SERVER, RabbitNode  # noqa: E402
from pubsub.session import JsonLines  # noqa: E402

AMQP_LOAD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "pubsub", "amqp_load.py")
EXCHANGE = "plant"
KEYS = ["sensor.a.temp", "sensor.b.hum", "sensor.a.temp.raw", "alarm.a", "sensor"]
BINDINGS = {"h2": ["sensor.*.temp"], "h3": ["sensor.#", "alarm.*"]}
COUNT = 300

needs_amqp = pytest.mark.skipif(
    not os.path.exists(SERVER) or not os.path.exists("/usr/lib/python3/dist-packages/pika"),
    reason="needs rabbitmq-server and python3-pika (scripts/bootstrap installs both)")


def amqp_matches(pattern: str, key: str) -> bool:
    """AMQP topic matching as one broker does it: `*` one word, `#` zero or more words."""
    p, k = pattern.split("."), key.split(".")

    def match(i: int, j: int) -> bool:
        if i == len(p):
            return j == len(k)
        if p[i] == "#":
            return any(match(i + 1, jj) for jj in range(j, len(k) + 1))
        return j < len(k) and p[i] in ("*", k[j]) and match(i + 1, j + 1)

    return match(0, 0)


def test_amqp_matches_as_a_broker():
    assert amqp_matches("sensor.#", "sensor") and amqp_matches("sensor.#", "sensor.a.temp.raw")
    assert amqp_matches("sensor.*.temp", "sensor.a.temp")
    assert not amqp_matches("sensor.*.temp", "sensor.a.temp.raw")
    assert not amqp_matches("alarm.*", "alarm") and amqp_matches("alarm.*", "alarm.a")
    assert amqp_matches("a.#.c", "a.c") and amqp_matches("a.#.c", "a.b.b.c")
    assert not amqp_matches("a.#.c", "a.b")


@pytest.fixture
def controller():
    yield from running_controller()


@pytest.fixture
def network(controller):
    yield from network_up(controller, "linear:3", 3, timeout=120)


def json_get(url: str) -> dict:
    """A GET of the coordinator's API as the session's operator (admin of edges)."""
    with urllib.request.urlopen(urllib.request.Request(url, headers=auth.headers()), timeout=10) as r:
        return json.loads(r.read())


@needs_root
@needs_amqp
def test_amqp_applications_on_three_edges_see_what_one_broker_shows(controller, network):
    poll(lambda: len(controller.get("/v1/topology")["links"]) == 2, 30, "2 links")
    hosts = {h["name"]: h for h in network["hosts"]}
    learn_hosts(controller, list(hosts.values()))
    work = tempfile.mkdtemp(prefix="nps-amqp-ovs-")
    os.chmod(work, 0o755)  # the nodes run as the rabbitmq user
    nodes, processes = [], []
    try:
        coordinator, url = start_coordinator(controller, network, work)
        processes.append(coordinator)
        nodes = [RabbitNode(h, work) for h in ("h1", "h2", "h3")]
        for n in nodes:
            poll(lambda: n.exited() or in_host(n.host, "ss", "-Hltn",
                                               f"sport = :{AMQP_PORT}").stdout.strip(),
                 120, f"RabbitMQ on {n.host}", interval=0.5)
            assert not n.exited(), n.log()
        for h in ("h1", "h2", "h3"):
            processes.append(start_agent(hosts[h], f"amqp://127.0.0.1:{AMQP_PORT}", url))

        publisher = JsonLines([TESTBED, "exec", "h1", "--", "/usr/bin/python3", AMQP_LOAD, "pub",
                               "--exchange", EXCHANGE, "--keys", ",".join(KEYS), "--size", "100",
                               "--interval-ms", "2", "--seconds", str(COUNT * 0.002)], stdin=True)
        processes.append(publisher)
        publisher.wait_for(lambda o: o.get("kind") == "connected", 60, "the publisher")
        subscribers = {}
        for h, bindings in BINDINGS.items():
            subscribers[h] = JsonLines([TESTBED, "exec", h, "--", "/usr/bin/python3", AMQP_LOAD,
                                        "sub", "--exchange", EXCHANGE,
                                        *[a for b in bindings for a in ("--binding", b)]])
            processes.append(subscribers[h])
        for h, s in subscribers.items():
            s.wait_for(lambda o: o.get("kind") == "subscribed", 90,
                       f"{h} bound at its broker (the exchange mirrored there)")

        def bindings_known() -> bool:
            edges = {e["name"]: e for e in json_get(f"{url}/v1/edges")["edges"]}
            return all(len(edges.get(h, {}).get("filters", [])) >= len(b)
                       for h, b in BINDINGS.items())

        poll(bindings_known, 60, "every binding at the coordinator", interval=0.3)

        def all_warm() -> bool:
            publisher.proc.stdin.write("warm\n")
            publisher.proc.stdin.flush()
            return all(any(o.get("kind") == "warm" for o in s.all) for s in subscribers.values())

        poll(all_warm, 60, "a warm-up message at every subscriber", interval=0.3)
        publisher.proc.stdin.write("go\n")
        publisher.proc.stdin.flush()
        published = publisher.wait_for(lambda o: o.get("kind") == "published", 60,
                                       "the publishing")
        assert published["messages"] == COUNT
        expected = {h: [seq for seq in range(COUNT)
                        if any(amqp_matches(b, KEYS[seq % len(KEYS)]) for b in bindings)]
                    for h, bindings in BINDINGS.items()}

        def counted(s: JsonLines) -> int:
            counts = [o["n"] for o in s.all if o.get("kind") == "count"]
            return counts[-1] if counts else 0

        poll(lambda: all(counted(subscribers[h]) >= len(expected[h]) for h in BINDINGS), 60,
             "every matching message delivered", interval=0.3)
        for h, s in subscribers.items():
            s.terminate()
            summary = s.wait_for(lambda o: o.get("kind") == "summary", 30, f"{h}'s summary")
            assert summary["seqs"] == expected[h], \
                f"{h} received what one broker would route to {BINDINGS[h]}"
            assert summary["received"] == len(expected[h]), f"{h}: each message once"
    finally:
        for p in reversed(processes):
            p.terminate()
        for n in nodes:
            n.stop()
        shutil.rmtree(work, ignore_errors=True)
