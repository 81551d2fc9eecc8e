"""Figure 7's DDS series (issue 25): `nps overlay bench-multipath`'s experiment (PubSubCoord §III-D,
Table 1) with DDS sites instead of Mosquitto ones, run by `overlay.py --only multipath-dds`. No
root, no test-bed lock: two sites that are DDS domains of their own (31, 32) on this machine, an
`nps overlay edge-broker --local dds:DOMAIN` each, `nps overlay zookeeper` and one routing broker
(overlay_dds.on_fresh_overlay, a fresh overlay per case). Table 1's links are set as in the MQTT
bench (MultipathExperiment): the writing site's edge sends to the routing broker over L1
(`--emulate-link RB=L1`) and to every other destination, the reading site's edge, over L3
(`--emulate-wan L3`: the direct path); the routing broker sends over L2; the reading site's edge
sends unemulated (its NACKs). An unmodified Cyclone writer at A (tests/dds_app.py stamp-pub,
reliable, offering no deadline) writes two topics in the same rounds; at B one reader reads the
first without a DEADLINE (single path), another the second requesting one: B's edge writes it into
its subscriber entry (`deadline_ms`) and A's edge sends that topic on the direct path too
(RemoteDeadlines, docs/overlay-dds.md "DEADLINE"); B's edge keeps the first copy. So both paths see
the same links, seeds and load. Latency is write to take, one clock (CLOCK_MONOTONIC)."""

from __future__ import annotations

import os
import sys
import time

from dds_latency import APP
from overlay_dds import go, latencies, on_fresh_overlay, stop, summary, warmed_up
from pubsub.session import JsonLines, SessionError, build, poll

PROFILES = {"A": "delay=30ms", "B": "delay=250ms,loss=1%"}  # Table 1, as bench-multipath's
WRITER, READER = 0, 1  # site indexes
STATUS = "200ms"  # the edges' counters, often enough to see the direct path admitted


def case_links(case: int) -> str:
    """Table 1: case 1..8's classes of L1, L2, L3 (L1 the most significant bit of case - 1)."""
    return "".join("B" if (case - 1) & bit else "A" for bit in (4, 2, 1))


def case_wan(links: str, seed: int):
    """overlay_dds.on_fresh_overlay's `wan` for one case: the arguments of each broker."""
    l1, l2, l3 = (PROFILES[x] for x in links)

    def wan(role: str, i: int, brokers: list[str]) -> list[str]:
        if role == "rb":
            return ["--emulate-wan", l2, "--emulation-seed", str(seed + i)]
        if i == WRITER:
            to_brokers = [a for rb in brokers for a in ("--emulate-link", f"{rb}={l1}")]
            return ["--emulate-wan", l3, *to_brokers, "--emulation-seed", str(seed + 10),
                    "--status-interval", STATUS]
        return ["--status-interval", STATUS]
    return wan


def figure7(cases: list[int], messages: int = 150, interval: float = 0.02,
            deadline_ms: int = 100) -> list[dict]:
    """Two rows per case (path single and multi), each printed to stderr as it is measured."""
    build()
    rows = []
    for case in cases:
        links = case_links(case)
        rows += on_fresh_overlay(2, 1, lambda domains, edges: one_case(
            domains, edges, case, links, messages, interval, deadline_ms,
            f"fig7_{os.getpid()}_c{case}"), wan=case_wan(links, 100 * case), first_domain=31)
        for r in rows[-2:]:
            print(f"  DDS case {case} {links} {r['path']}: {r['delivered']}/{r['sent']}, "
                  f"avg {r['avg_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms", file=sys.stderr,
                  flush=True)
    return rows


def counters(edge: JsonLines, since: int = 0) -> dict:
    """The edge's last counters printed at or after output line `since` ({} if none)."""
    for o in reversed(edge.all[since:]):
        if o.get("kind") == "stats":
            return o["counters"]
    return {}


def fresh_counters(edge: JsonLines) -> dict:
    since = len(edge.all)
    return poll(lambda: counters(edge, since), 10, "the edge's next counters")


def one_case(domains, edges: list[JsonLines], case: int, links: str, messages: int,
             interval: float, deadline_ms: int, tag: str) -> list[dict]:
    a, b = domains[WRITER], domains[READER]
    topics = {"single": f"{tag}_single", "multi": f"{tag}_multi"}
    apps: list[JsonLines] = []
    try:
        subs = {path: JsonLines([sys.executable, APP, "stamp-sub", str(b.domain), str(messages),
                                 topic, *([f"deadline={deadline_ms}"] if path == "multi" else [])],
                                stdin=True) for path, topic in topics.items()}
        apps += subs.values()
        pub = JsonLines([sys.executable, APP, "stamp-pub", str(a.domain), str(messages),
                         str(interval), *topics.values()], stdin=True)
        apps.append(pub)
        for path, sub in subs.items():
            warmed_up(sub, [topics[path]], f"the {path}-path reader")
        poll(lambda: counters(edges[WRITER]).get("direct_admitted", 0) >= 1, 60,
             "A's edge to send the deadline topic direct (B's reader's deadline in its entry)")
        before = [fresh_counters(e) for e in edges]
        go([pub], messages * interval)
        got = {path: latencies(sub, 5) for path, sub in subs.items()}
        after = [fresh_counters(e) for e in edges]
    finally:
        stop(apps)
    if after[WRITER].get("direct_admitted") != 1:
        raise SessionError(f"case {case}: {after[WRITER].get('direct_admitted')} topics took the "
                           "direct path, not only the deadline topic")

    def delta(site: int, name: str) -> int:
        return after[site].get(name, 0) - before[site].get(name, 0)

    run = {"a_sent_to_broker": delta(WRITER, "sent_to_broker"),
           "a_sent_direct": delta(WRITER, "sent_direct"),
           "b_recovered": delta(READER, "recovered"),
           "b_duplicates_dropped": delta(READER, "dropped.duplicate")}
    load = open("/proc/loadavg").read().split()[:3]
    return [{"kind": "overlay-multipath", "site_kind": "dds", "case": case, "links": links,
             "path": path, "deadline_ms": deadline_ms if path == "multi" else None,
             "sent": messages, "delivered": len(got[path]["us"]),
             "lost": messages - len(got[path]["us"]), "duplicates": got[path]["duplicates"],
             **summary(got[path]["us"]), "edges": run, "when": time.strftime("%H:%M"),
             "load": load} for path in topics]


SETUP = (
    "The same experiment with DDS sites (`testbed/experiments/overlay_dds_multipath.py`, no root): "
    "two sites that are DDS domains of their own (31, 32) on this machine, `nps overlay "
    "edge-broker --local dds:DOMAIN` each (its Cyclone DDS child), one `nps overlay "
    "routing-broker`, `nps overlay zookeeper`; a fresh overlay per case. The links as above, set "
    "on the brokers' command lines: the writing site's edge `--emulate-wan L3 --emulate-link "
    "RB=L1`, the routing broker `--emulate-wan L2`. One unmodified Cyclone writer at site A "
    "(`testbed/tests/dds_app.py stamp-pub`, reliable, offering no deadline) writes two topics, 150 "
    "samples each, one round every 20 ms; at site B a reader without a DEADLINE reads the first "
    "(*single*: A's edge → routing broker → B's edge) and a reader requesting a 100 ms DEADLINE the "
    "second (*multi*: B's edge writes the deadline into its subscriber entry, so A's edge also "
    "sends the topic straight to B's edge, docs/overlay-dds.md *DEADLINE*). Both topics cross in the "
    "same run, so single path is measured in all 8 cases (L3 does not change it). Latency is write "
    "to take, one clock, over every sample (HdrHistogram); *lost* samples never arrived and are "
    "not in the latencies; *dup* is samples the reader got twice. *direct* is the datagrams A's "
    "edge sent on the direct path from just before the timed rounds to their end (their 150 and "
    "the last two or three warm-up samples: the single-path topic sent none), *repaired* the "
    "messages B's edge recovered by NACK in that time (both topics). Separate processes and "
    "Python applications, where the MQTT bench runs in one JVM: compare the shape, not the last "
    "milliseconds.")

COLUMNS = [("case", lambda x: str(x["case"])),
           ("L1 L2 L3", lambda x: " ".join(x["links"])),
           ("path", lambda x: x["path"]),
           ("delivered", lambda x: f"{x['delivered']}/{x['sent']}"),
           ("lost", lambda x: str(x["lost"])),
           ("dup", lambda x: str(x["duplicates"])),
           ("avg ms", lambda x: f"{x['avg_ms']:.1f}"),
           ("p50 ms", lambda x: f"{x['p50_ms']:.1f}"),
           ("p99 ms", lambda x: f"{x['p99_ms']:.1f}"),
           ("max ms", lambda x: f"{x['max_ms']:.1f}"),
           ("direct", lambda x: str(x["edges"]["a_sent_direct"])),
           ("repaired", lambda x: str(x["edges"]["b_recovered"])),
           ("load average after", lambda x: " ".join(x["load"]))]
