"""Camus routing through real Open vSwitch on a k=4 fat tree (root; issue: packet subscriptions).

`nps controller --routing camus-mr|camus-tr` compiles every switch's filter sets (Algorithm 1)
into OpenFlow pipelines; events carry their query fields in the IPv6 destination. For each policy:
random filters of a random schema on eight hosts (`nps sub`), a publisher streaming random events
(`nps pub`): every subscriber receives exactly the events direct evaluation (`nps filter match`)
says match. Then subscriptions churn — some withdrawn, others added, which recompiles the switches
incrementally — and deliveries are exact again. With α > 1 above the edge the switches forward a
superset, and the subscribers still get exactly their events. After each part the controller's
view equals the switches' tables."""

from __future__ import annotations

import json
import os
import random
import tempfile

import pytest

from live import needs_root
from pubsub.session import (Controller, SessionError, SubscriberProcess, Testbed, build,
                            ground_truth_soon, poll, publish, stop_all,
                            wait_for_network)
from test_pubsub_ovs import random_event, random_filter, random_schema, schema_yaml

SEED = int(os.environ.get("NPS_TEST_SEED", "20261123"))
HOSTS = ["h2", "h4", "h6", "h9", "h11", "h13", "h15", "h16"]


def run_and_check(tb, work: str, r: random.Random, s: dict, schema_path: str,
                  subs: list[SubscriberProcess], name: str) -> None:
    """h1 publishes 200 random events; every subscriber gets exactly its matching ones, once."""
    before = [len(x.deliveries()) for x in subs]
    events = [random_event(r, s) for _ in range(200)]
    path = os.path.join(work, f"{name}.jsonl")
    with open(path, "w") as f:
        f.writelines(json.dumps(e) + "\n" for e in events)
    truth = ground_truth_soon(schema_path, path, [x.filter for x in subs])
    publish(tb, "h1", path, rate=200)
    truth = truth.result()
    for sub, want, b in zip(subs, truth, before):
        try:
            poll(lambda: len(sub.deliveries()) - b >= len(want), 20, "deliveries")
        except SessionError:
            pass
        got = [d["sequence"] - 1 for d in sub.deliveries()[b:]]
        assert len(got) == len(set(got)), f"{name}: {sub.host} received duplicates"
        assert set(got) == want, (f"{name}: {sub.host} {sub.filter!r} missing "
                                  f"{sorted(want - set(got))[:5]}, extra {sorted(set(got) - want)[:5]}")


@needs_root
@pytest.mark.parametrize("routing,alpha", [("camus-mr", 1), ("camus-tr", 16)])
def test_compiled_pipelines_deliver_exactly_and_follow_churn(routing, alpha):
    r = random.Random(f"{SEED}-{routing}")
    s = random_schema(r)
    work = tempfile.mkdtemp(prefix="nps-camus-test-")
    schema_path = os.path.join(work, "schema.yaml")
    with open(schema_path, "w") as f:
        f.write(schema_yaml(s))
    build()
    c = Controller(schema_path, "--routing", routing, "--alpha", str(alpha),
                   log_path=os.path.join(work, "controller.log"))
    tb = None
    subs: list[SubscriberProcess] = []
    try:
        tb = Testbed("fattree:4", c)
        wait_for_network(c, tb, links=32)
        assert c.get("/v1/pubsub")["routing"] == routing
        subs = [SubscriberProcess(tb, h, random_filter(r, s)) for h in HOSTS]
        for sub in subs:
            sub.wait_subscribed()
        run_and_check(tb, work, r, s, schema_path, subs, "start")
        assert c.tables_match_switches()

        # churn: three subscribers leave, three others arrive (incremental recompilation)
        stop_all(subs[:3])
        fresh = [SubscriberProcess(tb, h, random_filter(r, s)) for h in ["h3", "h7", "h14"]]
        for sub in fresh:
            sub.wait_subscribed()
        subs = subs[3:] + fresh
        run_and_check(tb, work, r, s, schema_path, subs, "after-churn")
        assert c.tables_match_switches()
    finally:
        stop_all(subs)
        if tb is not None:
            tb.down()
        c.terminate()
