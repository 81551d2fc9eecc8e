"""The edge agents' reliable mode in network mode on real Open vSwitch: Mosquitto with
`nps edge-agent` on h1 and h3 of linear:3, the coordinator asking the controller for multicast
groups. The link into h3 is shaped so tightly (tbf, a few ms of queue) that a burst from h1
loses datagrams on the way. Without --reliable the subscriber on h3 misses messages — which
proves the shaping loses; with --reliable every message arrives exactly once: h3's agent NACKs
the gaps to h1's agent at the source address the switches left in the copies, and h1's agent
retransmits."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest

from controller_process import learn_hosts, network_up, running_controller
from edge_processes import start_agents, start_coordinator
from live import TESTBED, in_host, needs_root, poll

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pubsub.session import JsonLines  # noqa: E402
from pubsub.snaps_modes import AGENT_BROKER_LINES, MQTT_PORT, broker_config  # noqa: E402

MQTT_LOAD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "pubsub", "mqtt_load.py")
MESSAGES = 1000  # 1 KB each, sent as fast as the publisher can


# One controller and one bed for both cases (a bed takes ~8.5 s): each case starts its own
# coordinator (fresh database), brokers, agents and clients and stops them all, and takes the
# shaping off h3's link again, so neither case sees what the other left.
@pytest.fixture(scope="module")
def controller():
    yield from running_controller()


@pytest.fixture(scope="module")
def network(controller):
    yield from network_up(controller, "linear:3", 3, timeout=120)


def host_port_interface(state: dict, host: dict) -> str:
    """The switch-side veth end of the host's link: its egress is what the host receives."""
    switch = next(s for s in state["switches"] if s["name"] == host["switch"])
    return next(p["interface"] for p in switch["ports"] if p["port"] == host["port"])


def unique_received(reliable: bool, controller, network) -> tuple[int, int, dict]:
    """Publishes MESSAGES from h1 to a subscriber on h3; returns (unique, received, h3's agent
    stats)."""
    hosts = {h["name"]: h for h in network["hosts"]}
    shaped = host_port_interface(network, hosts["h3"])
    work = tempfile.mkdtemp(prefix="nps-reliable-ovs-")
    processes = []
    try:
        coordinator, url = start_coordinator(controller, network, work)
        processes.append(coordinator)
        for h in ("h1", "h3"):
            conf = broker_config(work, h, AGENT_BROKER_LINES)
            processes.append(JsonLines([TESTBED, "exec", h, "--", "mosquitto", "-c", conf]))
            poll(lambda: in_host(h, "ss", "-Hltn", f"sport = :{MQTT_PORT}").stdout.strip(), 20,
                 f"Mosquitto on {h}")
        extra = ("--status-interval", "500ms", *(("--reliable",) if reliable else ()))
        agents = dict(zip(("h1", "h3"), start_agents([hosts["h1"], hosts["h3"]],
                                                     f"mqtt://[::1]:{MQTT_PORT}", url, *extra)))
        processes.extend(agents.values())
        subscriber = JsonLines([TESTBED, "exec", "h3", "--", "/usr/bin/python3", MQTT_LOAD, "sub",
                                "--broker", "::1", "--name", "sub-h3", "--topic", "snaps/data",
                                "--topic", "snaps/warmup"])
        processes.append(subscriber)
        subscriber.wait_for(lambda o: o.get("kind") == "subscribed", 60, "the subscriber")
        publisher = JsonLines([TESTBED, "exec", "h1", "--", "/usr/bin/python3", MQTT_LOAD, "pub",
                               "--broker", "::1", "--name", "pub-h1", "--size", "1000",
                               "--interval-ms", "0.01", "--seconds", str(MESSAGES * 0.00001)],
                              stdin=True)
        processes.append(publisher)
        publisher.wait_for(lambda o: o.get("kind") == "connected", 60, "the publisher")

        def warm() -> bool:
            publisher.proc.stdin.write("warm\n")
            publisher.proc.stdin.flush()
            return any(o.get("kind") == "warm" for o in subscriber.all)

        poll(warm, 60, "a warm-up message through the group", interval=0.3)
        # From here on the link into h3 drops what exceeds 8 Mbit/s beyond a 3 ms queue.
        subprocess.run(["tc", "qdisc", "replace", "dev", shaped, "root", "tbf", "rate", "8mbit",
                        "burst", "16kb", "latency", "3ms"], check=True, timeout=10)
        publisher.proc.stdin.write("go\n")
        publisher.proc.stdin.flush()
        sent = publisher.wait_for(lambda o: o.get("kind") == "published", 60, "the publishing")
        assert sent["messages"] == MESSAGES

        def settled() -> bool:
            counts = [o["n"] for o in subscriber.all if o.get("kind") == "count"]
            if counts and counts[-1] >= MESSAGES:
                return True
            if not reliable:
                return False
            stats = agent_stats(agents["h3"])
            return stats is not None and stats["pending"] == 0 and counts \
                and counts[-1] + stats["lost"] + stats["unknown"] >= MESSAGES
        try:
            poll(settled, 30 if reliable else 5, "the subscriber settled", interval=0.5)
        except pytest.fail.Exception:
            if reliable:
                raise  # without reliable mode, what has not come by now is lost
        subscriber.terminate()
        summary = subscriber.wait_for(lambda o: o.get("kind") == "summary", 30, "the summary")
        return summary["unique"], summary["received"], agent_stats(agents["h3"]) or {}
    finally:
        for p in reversed(processes):
            p.terminate()
        # the bed is shared with the other case: its link into h3 unshaped again
        subprocess.run(["tc", "qdisc", "del", "dev", shaped, "root"], capture_output=True,
                       timeout=10)


def agent_stats(agent: JsonLines) -> dict | None:
    """The latest reliable-mode counters among the agent's status lines."""
    found = [o["reliable"] for o in agent.all if o.get("kind") == "stats" and o.get("reliable")]
    return found[-1] if found else None


@needs_root
@pytest.mark.parametrize("reliable", [False, True], ids=["plain", "reliable"])
def test_reliable_mode_repairs_what_a_congested_link_drops(reliable, controller, network):
    poll(lambda: len(controller.get("/v1/topology")["links"]) == 2, 30, "2 links")
    learn_hosts(controller, network["hosts"])
    unique, received, stats = unique_received(reliable, controller, network)
    if reliable:
        assert (unique, received) == (MESSAGES, MESSAGES), f"exactly once: {stats}"
        assert stats.get("nacks_sent", 0) > 0, f"the link did drop, and NACKs repaired it: {stats}"
    else:
        assert unique < MESSAGES, "the shaped link drops part of a burst (else the test is moot)"
        assert received == unique, "no duplicates"
