"""The federated baseline of the SNAPS experiment (testbed/experiments/snaps_testbed.py) delivers
exactly once: three real Mosquitto brokers on linear:3 (standalone self-test mode: only plain
IPv6 connectivity is needed), each pulling from both others over bridges with the experiment's
own configuration. A publisher on h1 sends 100 messages; the subscribers on h1, h2 and h3, each
local to its host's broker, get every message exactly once: no bridge loop brings a message back
to h1 and no message reaches h3 both directly and through h2 (the plain mesh without the
experiment's `bridged/` prefix fails this: h1's subscriber got 213 copies of 100). Needs root."""

from __future__ import annotations

import json
import os
import sys
import tempfile

from live import UpProcess, in_host, needs_root, poll

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "experiments"))

import snaps_testbed as snaps  # noqa: E402
from pubsub.session import TESTBED, JsonLines  # noqa: E402
from pubsub.snaps_modes import bridge_lines, broker_config, subscriber_topics  # noqa: E402
from snaps_scenarios import INTERVAL_MS  # noqa: E402

STATE = "/run/netpubsub/testbed.json"
MESSAGES = 100


@needs_root
def test_federated_mesh_delivers_each_message_exactly_once():
    up = UpProcess("--topo", "linear:3", "--standalone")
    processes: list[JsonLines] = []
    try:
        up.wait_event("up", timeout=120)
        with open(STATE) as f:
            hosts = {h["name"]: h["address"] for h in json.load(f)["hosts"]}
        work = tempfile.mkdtemp(prefix="nps-federation-")
        for h in hosts:
            conf = broker_config(work, h, bridge_lines(
                h, [(u, a) for u, a in hosts.items() if u != h]))
            processes.append(JsonLines([TESTBED, "exec", h, "--", "mosquitto", "-c", conf]))
        for h in hosts:
            poll(lambda: "1883" in in_host(h, "ss", "-Hltn").stdout, 20, f"broker on {h}")
        subs = {h: snaps.start_subscriber(h, "::1", subscriber_topics("federated"))
                for h in hosts}
        processes += subs.values()
        for h, s in subs.items():
            s.wait_for(lambda o: o.get("kind") == "subscribed", 30, f"subscriber {h}")
        pub = snaps.start_publisher("h1", "::1", 200, MESSAGES * INTERVAL_MS / 1000, INTERVAL_MS)
        processes.append(pub)
        snaps.warm_up(pub, subs, 30)
        pub.proc.stdin.write("go\n")
        pub.proc.stdin.flush()
        published = pub.wait_for(lambda o: o.get("kind") == "published", 30, "publisher")
        assert published["messages"] == MESSAGES
        poll(lambda: all(snaps.count(s) >= MESSAGES for s in subs.values()), 20, "deliveries")
        for s in subs.values():
            s.terminate()
        for h, s in subs.items():
            summary = next(o for o in s.all if o.get("kind") == "summary")
            assert (summary["received"], summary["unique"]) == (MESSAGES, MESSAGES), (h, summary)
    finally:
        for p in reversed(processes):
            p.terminate()
        up.stop()
