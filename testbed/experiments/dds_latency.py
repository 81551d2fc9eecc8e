"""The overhead of one overlay hop for DDS (issue 25, docs/overlay-dds.md): round trips of
an unmodified Cyclone DDS ping-pong (tests/dds_app.py `ping`/`pong`) within one site against the
same pair across two sites, in the same run, the two pairs alternating ping by ping. Two sites
in network namespaces (pubsub/dds_sites.py), `nps overlay zookeeper` and one routing broker in
the root namespace, an edge broker per site; the pinger and the local ponger at A, the remote
ponger at B. A cross-site ping goes A's application -> A's DDS child -> A's edge -> the routing
broker -> B's edge -> B's DDS child -> B's ponger, and the pong back the same way: two overlay
hops per round trip. Writes docs/results/dds-latency.{json,md}.

This was written when ddsperf's pongs could not cross (partitions, participant user data and
source timestamps were not bridged); they can now, and experiments/dds_hop.py measures the same
hop with unmodified `ddsperf ping`/`pong` (docs/overlay-dds.md, "DDS latency").

  sudo flock /tmp/nps-ovs.lock testbed/.venv/bin/python testbed/experiments/dds_latency.py \
      [--pings N]
  testbed/.venv/bin/python testbed/experiments/dds_latency.py --domains [--pings N]

--domains: no namespaces (no root): the two sites are DDS domains 21 and 22 on this machine's
default interface, everything on 127.0.0.1 (issue 25 allows distinct domain ids where namespaces
cannot be used); the results then go to docs/results/dds-latency-domains.{json,md}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)

from pubsub.auth import zookeeper_args  # noqa: E402
from pubsub.datagram_key import key_args  # noqa: E402
from pubsub.dds_sites import Site, dds_env  # noqa: E402
from pubsub.session import NPS, JsonLines, build, free_port  # noqa: E402
from results import table, write  # noqa: E402

APP = os.path.join(TESTBED_DIR, "tests", "dds_app.py")
DOMAIN = 9


def percentile(xs: list[int], q: float) -> int:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


class DomainSite:
    """A site that is a DDS domain of its own in the root namespace (--domains)."""

    def __init__(self, name: str, domain: int):
        self.ns, self.domain = f"nps-dds-{name}", domain
        self.inner_ip = self.outer_ip = "127.0.0.1"

    def run(self, *argv: str, env: dict | None = None) -> JsonLines:
        return JsonLines(list(argv), env=env)

    def delete(self) -> None:
        pass


def measure(pings: int, domains: bool) -> dict:
    build()
    work = tempfile.mkdtemp(prefix="nps-dds-latency-")
    procs: list[JsonLines] = []
    sites: list[Site] = []
    load_before = open("/proc/loadavg").read().split()[:3]
    try:
        for i, name in enumerate(("a", "b")):
            if domains:
                sites.append(DomainSite(name, 21 + i))
            else:
                sites.append(Site(f"{os.getpid() % 100000}l{name}", 100 + (os.getpid() + i) % 150))
                sites[-1].domain = DOMAIN
        a, b = sites
        zk = f"{a.outer_ip}:{free_port()}"
        procs.append(JsonLines([NPS, "overlay", "zookeeper", "--listen", zk, "--data",
                                os.path.join(work, "zk"), "--tick", "200", "--json"]))
        procs[-1].wait_for(lambda o: o.get("kind") == "zookeeper", 60, "ZooKeeper")
        procs.append(JsonLines([NPS, "overlay", "routing-broker", "--zookeeper", zk, "--listen",
                                f"{a.outer_ip}:{free_port()}", "--name", "rb1",
                                *key_args(work), *zookeeper_args(), "--json"], env=dds_env()))
        procs[-1].wait_for(lambda o: o.get("kind") == "routing-broker", 120, "the routing broker")
        for site in sites:
            local = f"dds:{site.domain}" + ("" if domains else "?interface=site")
            procs.append(site.run(NPS, "overlay", "edge-broker", "--zookeeper", zk, "--local",
                                  local, "--site", site.ns[-1:], "--listen",
                                  f"{site.inner_ip}:{free_port() if domains else 7200}",
                                  *key_args(work), *zookeeper_args(), "--json", env=dds_env()))
            procs[-1].wait_for(lambda o: o.get("kind") == "edge-broker", 120, "an edge")
        for site, pair in ((a, "local"), (b, "cross")):
            procs.append(site.run(sys.executable, APP, "pong", str(site.domain), pair))
            procs[-1].wait_for(lambda o: o.get("kind") == "started", 30, f"the {pair} ponger")
        pinger = a.run(sys.executable, APP, "ping", str(a.domain), str(pings), "local", "cross")
        procs.append(pinger)
        out = pinger.wait_for(lambda o: o.get("kind") == "rtts", 120 + pings * 0.05, "the pings")
    finally:
        for p in reversed(procs):
            p.terminate(timeout=10)
        for s in sites:
            s.delete()
    rows = []
    for pair, rtts in out["rtt_us"].items():
        rows.append({"pair": pair, "pings": len(rtts), "timeouts": out["timeouts"][pair],
                     "p50_us": percentile(rtts, 0.5), "p99_us": percentile(rtts, 0.99)})
    return {"rows": rows, "sites": "DDS domains 21 and 22, one namespace" if domains
            else "network namespaces, DDS domain 9 in each", "load_before": load_before,
            "load_after": open("/proc/loadavg").read().split()[:3]}


def markdown(r: dict) -> str:
    local, cross = (next(x for x in r["rows"] if x["pair"] == p) for p in ("local", "cross"))
    hop50 = (cross["p50_us"] - local["p50_us"]) / 2
    hop99 = (cross["p99_us"] - local["p99_us"]) / 2
    return "\n".join([
        "# DDS ping-pong within one site and across two (one overlay hop each way)",
        "",
        f"Sites: {r['sites']}.",
        "",
        "`testbed/.venv/bin/python testbed/experiments/dds_latency.py [--domains]` (under the"
        " test-bed lock and root without --domains; the script says what runs where).",
        "",
        *table(r["rows"], [("pair", lambda x: x["pair"]), ("pings", lambda x: str(x["pings"])),
                           ("timeouts", lambda x: str(x["timeouts"])),
                           ("RTT p50 µs", lambda x: str(x["p50_us"])),
                           ("RTT p99 µs", lambda x: str(x["p99_us"]))]),
        "",
        f"One overlay hop (half the difference of the round trips): p50 {hop50:.0f} µs, "
        f"p99 {hop99:.0f} µs. RTI Routing Service publishes 40 µs p50 per hop on 10 GbE.",
        "",
        f"**Loaded machine**: load average {' '.join(r['load_before'])} before, "
        f"{' '.join(r['load_after'])} after (2 shared cores, other helpers' builds and tests "
        "running); the absolute figures are not valid, rerun on a quiet machine.",
        "",
    ])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pings", type=int, default=2000, help="pings per pair")
    ap.add_argument("--domains", action="store_true",
                    help="sites as DDS domains 21 and 22 in one namespace (no root)")
    args = ap.parse_args()
    r = measure(args.pings, args.domains)
    print(json.dumps(r["rows"]), file=sys.stderr)
    write("dds-latency-domains" if args.domains else "dds-latency", r, lambda r, path: None,
          markdown)


if __name__ == "__main__":
    main()
