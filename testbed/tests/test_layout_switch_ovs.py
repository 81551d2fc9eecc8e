"""The online layout switch through real Open vSwitch (root; issue 21): on PLEROMA's test bed, 60
standing subscriptions (bare UDP receivers) and one `nps pub` at 200 events/s; in the middle the
layout is switched (`PUT /v1/pubsub/layout`). Make-before-break: no matching event is lost, none
arrives twice, the flows afterwards match the new event port only, and the controller's tables
equal the switches'."""

from __future__ import annotations

import tempfile

from live import needs_root
from pubsub.layout_switch import run
from pubsub.session import build


@needs_root
def test_a_layout_switch_under_steady_publishing_loses_and_duplicates_nothing():
    build()
    r = run(tempfile.mkdtemp(prefix="nps-layout-switch-"), subscriptions=60, rate=200,
            seconds=12, switch_after=3, grace_ms=2500)
    assert r["wanted"] > 100, r
    assert r["lost"] == 0, r
    assert r["duplicated"] == 0, r
    assert r["switch"]["version"] == 2 and r["event_port_after"] == 7074, r
    assert r["switch"]["flows_installed"] > 0 and r["switch"]["flows_removed"] > 0, r
    assert r["published"] == r["events"], r
    assert r["tables_match_switches"], r
