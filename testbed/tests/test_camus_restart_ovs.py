"""A Camus controller, or a single PLEROMA process, restarted on its `--store` rewrites no table
(root; issue 27 part 7; docs/controller.md, "Restart").

The smallest bed with links and a Camus hierarchy (tree:2,2: a root, two edge switches, four
hosts): a subscription per host through the REST API; the controller stops (SIGTERM) and starts
again on the same ports and the same SQLite file. The switches keep their tables meanwhile
(fail-mode secure). The restarted controller brings the subscriptions, hosts and topology back
from the file and holds its reconciles until the links are rediscovered, so it sends no flow-mod
or group-mod at all (`nps_openflow_flow_mods_sent_total` 0), every switch's flows and groups are
as before (`ovs-ofctl`, counters aside), and no flow's `duration` or `n_packets` started again. Without the store
(main before stop 42) the restart reconciled each switch to a pipeline without subscriptions.

PLEROMA (stop 43) runs the same with an advertisement `true` per host besides (its content flows
need a publisher); in the default run since stop 44 (about 30 s of OVS, quiet;
docs/results/camus-restart.md)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import tempfile
import time
import urllib.request

import pytest

from live import needs_root
from pubsub.session import Controller, Testbed, build, poll, wait_for_network
from test_pubsub_ovs import random_filter, random_schema, schema_yaml

SEED = int(os.environ.get("NPS_TEST_SEED", "20261129"))
DURATION = re.compile(r"duration=([0-9.]+)s")
PACKETS = re.compile(r"n_packets=([0-9]+)")
COUNTERS = re.compile(r"(duration|n_packets|n_bytes|idle_age|hard_age)=[^,]*, ?")


def tables(bridge: str) -> tuple[dict[str, tuple[float, int]], set[str]]:
    """The bridge's flows (counters taken out) with their duration and packets, and its groups."""
    def ofctl(*args: str) -> list[str]:
        out = subprocess.run(["ovs-ofctl", "-O", "OpenFlow13", *args, bridge],
                             capture_output=True, text=True, check=True).stdout
        return [line.strip() for line in out.splitlines()[1:] if line.strip()]

    flows = {}
    for line in ofctl("dump-flows"):
        d, n = DURATION.search(line), PACKETS.search(line)
        flows[COUNTERS.sub("", line)] = (float(d.group(1)) if d else 0.0,
                                         int(n.group(1)) if n else 0)
    return flows, set(ofctl("dump-groups"))


def mods_sent(c: Controller) -> float:
    req = urllib.request.Request(c.api + "/metrics", headers=c.headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        text = r.read().decode()
    return sum(float(line.split()[-1]) for line in text.splitlines()
               if line.startswith("nps_openflow_flow_mods_sent_total"))


def keep_evidence(work: str, c: Controller, bridges: list[str],
                  before: dict[str, tuple[dict[str, tuple[float, int]], set[str]]]) -> None:
    """On a restart that sent mods: the restarted controller's metrics and each bridge's flows and
    groups that appeared, went or started again, kept in `work` beside the controllers' logs."""
    req = urllib.request.Request(c.api + "/metrics", headers=c.headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        metrics = r.read().decode()
    with open(os.path.join(work, "metrics-again.txt"), "w") as f:
        f.write(metrics)
    with open(os.path.join(work, "tables-diff.txt"), "w") as f:
        for b in bridges:
            flows, groups = tables(b)
            old_flows, old_groups = before[b]
            f.write(f"== {b}\n")
            f.writelines(f"+ {x}\n" for x in sorted(set(flows) - set(old_flows)))
            f.writelines(f"- {x}\n" for x in sorted(set(old_flows) - set(flows)))
            f.writelines(f"restarted {x} {old_flows[x]} -> {flows[x]}\n" for x in sorted(flows)
                         if x in old_flows and flows[x][0] < old_flows[x][0])
            f.writelines(f"+g {g}\n" for g in sorted(groups - old_groups))
            f.writelines(f"-g {g}\n" for g in sorted(old_groups - groups))


@needs_root
@pytest.mark.parametrize("routing", ["camus-mr", "pleroma"])
def test_a_controller_restarted_on_its_store_rewrites_no_table(routing):
    r = random.Random(SEED)
    s = random_schema(r)
    work = tempfile.mkdtemp(prefix=f"nps-{routing}-restart-")
    schema_path = os.path.join(work, "schema.yaml")
    with open(schema_path, "w") as f:
        f.write(schema_yaml(s))
    args = ("--routing", routing, "--store", "sqlite:" + os.path.join(work, "store.db"))
    build()
    c = Controller(schema_path, *args, log_path=os.path.join(work, "controller.log"))
    restarted = None
    tb = None
    try:
        tb = Testbed("tree:2,2", c)
        wait_for_network(c, tb, links=2)
        for i, h in enumerate(tb.hosts):
            status, body = c.call("POST", "/v1/subscriptions",
                                  {"host": h["address"], "filter": random_filter(r, s),
                                   "port": 41000 + i})
            assert status == 201, body
            if routing == "pleroma":
                status, body = c.call("POST", "/v1/advertisements",
                                      {"host": h["address"], "filter": "true"})
                assert status == 201, body
        poll(c.tables_match_switches, 30, "the switches hold the controller's tables")
        bridges = [sw["bridge"] for sw in tb.state["switches"]]
        before = {b: tables(b) for b in bridges}
        if routing == "pleroma":
            assert any("ipv6_dst=ff0e" in f for flows, _ in before.values() for f in flows), \
                "PLEROMA's content flows before the restart"
        else:
            assert any(groups for _, groups in before.values()), "Camus's groups before the restart"
        stopped_at = time.monotonic()
        c.terminate()

        restarted = Controller(schema_path, *args, openflow_port=c.openflow_port,
                               api_port=c.api_port,
                               log_path=os.path.join(work, "controller-again.log"))
        assert len(restarted.get("/v1/subscriptions")["subscriptions"]) == len(tb.hosts)
        if routing == "pleroma":
            ads = restarted.get("/v1/advertisements")["advertisements"]
            assert len(ads) == len(tb.hosts)
        poll(lambda: all(sw["connected"] for sw in restarted.get("/v1/topology")["switches"])
             and len(restarted.get("/v1/topology")["links"]) >= 2, 60,
             "every switch back and every link rediscovered", interval=0.5)
        poll(restarted.tables_match_switches, 30, "the restarted controller's tables on the switches")
        away = time.monotonic() - stopped_at
        sent = mods_sent(restarted)
        if sent:
            keep_evidence(work, restarted, bridges, before)
        assert sent == 0, f"flow-mods and group-mods sent after the restart (evidence in {work})"
        for b in bridges:
            flows, groups = tables(b)
            assert set(flows) == set(before[b][0]), f"{b}: flows changed by the restart"
            assert groups == before[b][1], f"{b}: groups changed by the restart"
            reset = [f for f, (d, n) in flows.items()
                     if d + 1 < before[b][0][f][0] + away or n < before[b][0][f][1]]
            assert not reset, f"{b}: flows whose duration or packets started again: {reset[:3]}"
    finally:
        if tb is not None:
            tb.down()
        if restarted is not None:
            restarted.terminate()
        c.terminate()
