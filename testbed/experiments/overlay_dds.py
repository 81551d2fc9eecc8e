"""Figure 5's DDS series (issue 25): `nps overlay bench-locality`'s experiment with DDS sites
instead of Mosquitto ones, run by `overlay.py --only locality-dds`. No root: each site is a DDS
domain of its own (21, 22, 23...) on this machine (dds_latency.py's --domains), with an
`nps overlay edge-broker --local dds:DOMAIN`; `nps overlay zookeeper` and two routing brokers; every
edge and routing broker delays each overlay datagram it sends by --emulate-wan delay=40ms, as the
MQTT bench's WanEmulation does. Each site publishes T topics through one unmodified Cyclone
application (tests/dds_app.py stamp-pub), a fraction `locality` of them read in the same site, the
rest in the next one (stamp-sub). Latency is write to take, one clock (CLOCK_MONOTONIC)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time

from dds_latency import APP, DomainSite
from hdrh.histogram import HdrHistogram
from pubsub.datagram_key import key_args
from pubsub.dds_sites import dds_env
from pubsub.session import NPS, JsonLines, SessionError, build, free_port

WAN = "delay=40ms"


def locality(topics: int, localities: list[float], sites: int = 3, brokers: int = 2,
             rounds: int = 20, interval: float = 0.05) -> list[dict]:
    """One row per locality, with bench-locality's fields (avg_ms, p99_ms, delivered...). Each
    locality on a fresh overlay: on one kept across runs, the second run's warm-up samples never
    crossed (seen 2026-11-28, not investigated; docs/overlay.md, Left out)."""
    build()
    rows = []
    for run, loc in enumerate(localities):
        rows.append(on_fresh_overlay(sites, brokers, lambda domains: one_locality(
            domains, topics, loc, rounds, interval, f"r{os.getpid()}x{run}"))
            | {"routing_brokers": brokers})
        print(f"  DDS {rows[-1]}", file=sys.stderr, flush=True)
    return rows


def on_fresh_overlay(sites: int, brokers: int, measure):
    """measure(domains) with `nps overlay zookeeper`, the routing brokers and an edge per site."""
    work = tempfile.mkdtemp(prefix="nps-overlay-dds-")
    procs: list[JsonLines] = []
    try:
        zk = f"127.0.0.1:{free_port()}"
        procs.append(JsonLines([NPS, "overlay", "zookeeper", "--listen", zk, "--data",
                                os.path.join(work, "zk"), "--tick", "200", "--json"]))
        procs[-1].wait_for(lambda o: o.get("kind") == "zookeeper", 60, "ZooKeeper")
        for b in range(brokers):
            procs.append(JsonLines([NPS, "overlay", "routing-broker", "--zookeeper", zk, "--listen",
                                    f"127.0.0.1:{free_port()}", "--name", f"rb{b}",
                                    "--emulate-wan", WAN, "--emulation-seed", str(b),
                                    *key_args(work), "--json"], env=dds_env()))
            procs[-1].wait_for(lambda o: o.get("kind") == "routing-broker", 120, "a routing broker")
        domains = [DomainSite(f"s{s}", 21 + s) for s in range(sites)]
        for s, site in enumerate(domains):
            procs.append(site.run(NPS, "overlay", "edge-broker", "--zookeeper", zk, "--local",
                                  f"dds:{site.domain}", "--site", f"site{s}", "--listen",
                                  f"127.0.0.1:{free_port()}", "--emulate-wan", WAN,
                                  "--emulation-seed", str(100 + s), *key_args(work), "--json",
                                  env=dds_env()))
            procs[-1].wait_for(lambda o: o.get("kind") == "edge-broker", 120, "an edge")
        return measure(domains)
    finally:
        for p in procs:  # TERM to all at once: they stop in parallel
            p.send_term()
        for p in reversed(procs):
            p.terminate(timeout=20)
        shutil.rmtree(work, ignore_errors=True)


def one_locality(domains: list[DomainSite], topics: int, loc: float, rounds: int, interval: float,
                 tag: str) -> dict:
    n = len(domains)
    local = round(loc * topics)
    reads: list[list[str]] = [[] for _ in domains]
    writes: list[list[str]] = [[] for _ in domains]
    for s in range(n):
        for t in range(topics):
            topic = f"{tag}_s{s}_t{t}"  # never reused across runs
            writes[s].append(topic)
            reads[s if t < local else (s + 1) % n].append(topic)
    apps: list[JsonLines] = []
    try:
        subs = [JsonLines([sys.executable, APP, "stamp-sub", str(d.domain),
                           str(len(reads[s]) * rounds), *reads[s]], stdin=True)
                for s, d in enumerate(domains)]
        apps += subs
        pubs = [JsonLines([sys.executable, APP, "stamp-pub", str(d.domain), str(rounds),
                           str(interval), *writes[s]], stdin=True) for s, d in enumerate(domains)]
        apps += pubs
        for s, a in enumerate(subs):  # every topic crossed once (warm-up samples): the paths exist
            try:
                a.wait_for(lambda o: o.get("kind") == "ready", 120, "a reader's warm-up samples")
            except SessionError:
                a.proc.stdin.write("report\n")
                a.proc.stdin.flush()
                warm = a.wait_for(lambda o: o.get("kind") == "latencies", 10, "its topics")["warm"]
                raise SessionError(f"site {s}: no warm-up sample on "
                                   f"{sorted(set(reads[s]) - set(warm))}") from None
        for p in pubs:
            p.proc.stdin.write("go\n")
            p.proc.stdin.flush()
        for p in pubs:
            p.wait_for(lambda o: o.get("kind") == "done", 60 + rounds * interval, "a writer")
        us: list[int] = []
        for a in subs:
            try:
                got = a.wait_for(lambda o: o.get("kind") == "latencies", 5, "the latencies")
            except SessionError:  # some never came: what did
                a.proc.stdin.write("report\n")
                a.proc.stdin.flush()
                got = a.wait_for(lambda o: o.get("kind") == "latencies", 10, "the latencies")
            us += got["us"]
    finally:
        for a in apps:
            a.send_term()
        for a in apps:
            a.terminate(timeout=10)
    h = HdrHistogram(1, 600_000_000, 3)  # µs, 3 digits: the MQTT bench's Latencies (nps-bench)
    for u in us:
        h.record_value(max(1, u))
    return {"kind": "overlay-locality", "site_kind": "dds", "locality": loc, "sites": n,
            "topics_per_site": topics, "delivered": len(us),
            "expected": n * topics * rounds,
            "avg_ms": sum(us) / len(us) / 1000 if us else float("nan"),
            "p99_ms": h.get_value_at_percentile(99) / 1000 if us else float("nan"),
            "when": time.strftime("%H:%M"),
            "load": open("/proc/loadavg").read().split()[:3]}
