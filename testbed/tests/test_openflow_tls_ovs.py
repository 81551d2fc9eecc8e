"""OpenFlow over mutual TLS through real Open vSwitch (root; issue 27 part 4). A PKI from
`ovs-pki`: the controller listens on `ssl:` and trusts switchca only; ovs-vswitchd connects every
bridge to an `ssl:` target with a switch certificate and trusts controllerca.

- Deliveries: on a tree of four switches connected over TLS, subscribers receive exactly the
  events that direct evaluation says match their filters, and OVS reports its controller
  connections as `ssl:` and connected.
- A switch whose certificate comes from another CA never connects: the TLS handshake fails,
  the controller counts it (`nps_openflow_disconnects_total{reason="tls_failed"}`) and lists no
  switch."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import tempfile
import urllib.request

import pytest

from live import needs_root
from pubsub import openflow_tls
from pubsub.session import (Controller, SubscriberProcess, Testbed, build, ground_truth_soon, poll,
                            publish, stop_all, wait_for_network)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = os.path.join(ROOT, "examples", "schemas", "quotes.yaml")


def metric(controller: Controller, name: str, reason: str) -> float:
    req = urllib.request.Request(controller.api + "/metrics", headers=controller.headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        text = r.read().decode()
    m = re.search(rf'^{name}\{{[^}}]*reason="{reason}"[^}}]*\}} (\S+)$', text, re.M)
    return float(m.group(1)) if m else 0.0


def ovs_controllers() -> list[tuple[str, str]]:
    out = subprocess.run(["ovs-vsctl", "--format=json", "--columns=target,is_connected", "list",
                          "Controller"], capture_output=True, text=True, timeout=30, check=True)
    return [(row[0], row[1]) for row in json.loads(out.stdout)["data"]]


@needs_root
def test_pubsub_deliveries_over_openflow_tls():
    build()
    work = tempfile.mkdtemp(prefix="nps-of-tls-")
    pki = openflow_tls.pki()
    controller = Controller(SCHEMA, tls=pki, log_path=os.path.join(work, "controller.log"))
    testbed = None
    try:
        assert controller.started["openflow"].startswith("ssl:")
        testbed = Testbed("tree:2,3", controller)
        wait_for_network(controller, testbed, links=3)
        targets = ovs_controllers()
        assert targets and all(t.startswith("ssl:") and c is True for t, c in targets), targets

        r = random.Random(27)
        hosts = [h["name"] for h in testbed.hosts]
        filters = ["price < 50000", 'symbol prefix "A"', "volume >= 500000"]
        subs = [SubscriberProcess(testbed, hosts[i + 1], f) for i, f in enumerate(filters)]
        for sub in subs:
            sub.wait_subscribed()
        events = [{"kind": "event", "attributes": {"symbol": r.choice(["AA", "AB", "BA"]),
                                                   "price": r.randint(0, 100000),
                                                   "volume": r.randint(0, 1000000),
                                                   "exchange": "XNYS"}} for _ in range(100)]
        path = os.path.join(work, "events.jsonl")
        with open(path, "w") as f:
            f.writelines(json.dumps(e) + "\n" for e in events)
        truths = ground_truth_soon(SCHEMA, path, filters)
        publish(testbed, hosts[0], path, rate=200)
        truths = truths.result()
        for sub, want in zip(subs, truths):
            try:
                poll(lambda: len(sub.deliveries()) >= len(want), 30, f"deliveries to {sub.host}")
            finally:
                got = {d["sequence"] - 1 for d in sub.deliveries()}
            assert got == want, f"{sub.host} {sub.filter!r}: {sorted(got ^ want)[:5]}"
            assert want, "the filter matches some events"
        stop_all(subs)
        assert metric(controller, "nps_openflow_disconnects_total", "tls_failed") == 0
    finally:
        if testbed is not None:
            testbed.down()
        controller.terminate()


@needs_root
def test_a_switch_certificate_from_another_ca_is_refused():
    build()
    work = tempfile.mkdtemp(prefix="nps-of-tls-")
    pki = openflow_tls.pki()
    foreign = openflow_tls.make_pki()  # its own switchca, which the controller does not trust
    controller = Controller(None, tls=pki, log_path=os.path.join(work, "controller.log"))
    up = None
    try:
        # The bridges present the foreign switch certificate (and still trust our controller).
        openflow_tls.configure_ovs(pki, foreign["switch_key"], foreign["switch_cert"])
        up = subprocess.Popen([os.path.join(ROOT, "testbed", "nps-testbed"), "up", "--topo",
                               "linear:2", "--controller",
                               f"ssl:127.0.0.1:{controller.openflow_port}", "--api", "none"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        poll(lambda: metric(controller, "nps_openflow_disconnects_total", "tls_failed") >= 2, 90,
             "both switches' TLS handshakes refused")
        assert controller.get("/v1/topology")["switches"] == []
        assert all(c is not True for _, c in ovs_controllers())
    finally:
        if up is not None:
            subprocess.run([os.path.join(ROOT, "testbed", "nps-testbed"), "down"],
                           capture_output=True, timeout=120)
            try:
                up.wait(timeout=60)
            except subprocess.TimeoutExpired:
                up.kill()
            subprocess.run([os.path.join(ROOT, "testbed", "nps-testbed"), "clean"],
                           capture_output=True, timeout=120)
        openflow_tls.clear_ovs()
        controller.terminate()
