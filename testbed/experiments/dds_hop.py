"""The overhead of one overlay hop for DDS, measured by unmodified `ddsperf` (issue 25,
docs/overlay-dds.md "DDS latency"): `ddsperf ping` at site A answered, ping by ping, by a `ddsperf
pong` at A (the pair inside one site) and by one at B (the pair across two sites), in the same run.
Two sites in network namespaces (pubsub/dds_sites.py, DDS domain 9 in each), `nps overlay
zookeeper` and one routing broker in the root namespace, an edge broker per site whose DDS child
announces ddsperf's user data (`dds:9?interface=site&user_data=DDSPerf:0:0:overlay`), so that
ddsperf takes it for a peer: at A it stands for B's ponger (ddsperf prints its pongs as
`overlay:0`), at B for A's pinger. A ping across goes A's pinger -> A's DDS child -> A's edge ->
the routing broker -> B's edge -> B's DDS child -> B's ponger, and the pong back the same way.

ddsperf sends the next ping when every ponger answered the last, so each ping measures both pairs:
the two are interleaved ping by ping, and any load hits both. Its latencies are half round trips
(one way), per second and ponger; the hop's overhead is the cross pair's minus the local pair's.
Writes docs/results/dds-hop.{json,md,png}. Root (namespaces); no Open vSwitch.

  testbed/.venv/bin/python testbed/experiments/dds_hop.py [--rounds 3] [--seconds 10]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)

from pubsub.datagram_key import key_args  # noqa: E402
from pubsub.dds_sites import Site, dds_env  # noqa: E402
from pubsub.ddsperf_lines import median, parse  # noqa: E402
from pubsub.session import NPS, JsonLines, build, free_port  # noqa: E402
from results import table, write  # noqa: E402

DOMAIN = 9
OVERLAY_PEER = "overlay:0"  # how ddsperf at A names the pongs that crossed (the child's user data)
USER_DATA = "DDSPerf:0:0:overlay"
TIMED_OUT = re.compile(r"ping timed out \(total (\d+) times\)")


def loadavg() -> list[str]:
    return open("/proc/loadavg").read().split()[:3]


def overlay(work: str, procs: list, sites: list) -> tuple[Site, Site]:
    """ZooKeeper, one routing broker and an edge per site, all started and ready."""
    tag = os.getpid() % 100000
    for i, name in enumerate(("a", "b")):
        sites.append(Site(f"{tag}h{name}", 100 + (os.getpid() + i) % 150))
    a, b = sites
    zk = f"{a.outer_ip}:{free_port()}"
    procs.append(JsonLines([NPS, "overlay", "zookeeper", "--listen", zk, "--data",
                            os.path.join(work, "zk"), "--tick", "200", "--json"]))
    procs[-1].wait_for(lambda o: o.get("kind") == "zookeeper", 60, "ZooKeeper")
    procs.append(JsonLines([NPS, "overlay", "routing-broker", "--zookeeper", zk, "--listen",
                            f"{a.outer_ip}:{free_port()}", "--name", "rb1", *key_args(work),
                            "--json"], env=dds_env()))
    procs[-1].wait_for(lambda o: o.get("kind") == "routing-broker", 120, "the routing broker")
    for site in sites:
        procs.append(site.run(NPS, "overlay", "edge-broker", "--zookeeper", zk, "--local",
                              f"dds:{DOMAIN}?interface=site&user_data={USER_DATA}",
                              "--site", site.ns[-1:], "--listen", f"{site.inner_ip}:7200",
                              *key_args(work), "--json", env=dds_env()))
        procs[-1].wait_for(lambda o: o.get("kind") == "edge-broker", 120, "an edge")
    return a, b


def ping(a: Site, seconds: int) -> tuple[list[dict], int]:
    """One `ddsperf ping` run at A: its per-second lines for both pongers, and how many pings
    timed out (ddsperf sends a new ping after 1 s without every pong; it prints the total)."""
    p = a.run("ddsperf", "-i", str(DOMAIN), "-D", str(seconds), "ping")
    try:
        p.proc.wait(timeout=seconds + 30)
    finally:
        p.terminate(timeout=10)
    texts = [o.get("text", "") for o in list(p.all)]
    timeouts = [int(m[1]) for m in (TIMED_OUT.search(t) for t in texts) if m]
    return [x for x in map(parse, texts) if x], max(timeouts, default=0)


def measure(rounds: int, seconds: int, machine: str) -> dict:
    build()
    work = tempfile.mkdtemp(prefix="nps-dds-hop-")
    procs: list[JsonLines] = []
    sites: list[Site] = []
    load_before = loadavg()
    runs = []
    try:
        a, b = overlay(work, procs, sites)
        for site in (a, b):
            procs.append(site.run("ddsperf", "-i", str(DOMAIN), "pong"))
        # warm-up: until pongs cross (discovery of the pongers, the overlay's topic entries)
        for _ in range(10):
            if any(x["peer"] == OVERLAY_PEER for x in ping(a, 3)[0]):
                break
        else:
            raise SystemExit("no pong crossed the overlay in 10 warm-up runs")
        for r in range(rounds):
            lines, timeouts = ping(a, seconds)
            runs.append({"round": r, "lines": lines, "ping_timeouts": timeouts,
                         "load": loadavg()})
    finally:
        for p in reversed(procs):
            p.terminate(timeout=10)
        for s in sites:
            s.delete()
    return {"runs": runs, "rows": rows(runs), "seconds": seconds, "load_before": load_before,
            "load_after": loadavg(), "machine": machine,
            "sites": f"network namespaces, DDS domain {DOMAIN} in each; one routing broker"}


def rows(runs: list[dict]) -> list[dict]:
    """Per pair, over every full second of every round: the medians of ddsperf's per-second
    p50 and p99, their ranges, and the pongs counted."""
    out = []
    for pair in ("local", "cross"):
        xs = [x for r in runs for x in r["lines"]
              if (x["peer"] == OVERLAY_PEER) == (pair == "cross") and x["t"] >= 2]
        if not xs:
            out.append({"pair": pair, "seconds": 0, "pongs": 0})
            continue
        out.append({"pair": pair, "seconds": len(xs), "pongs": sum(x["count"] for x in xs),
                    "p50_us": median([x["p50_us"] for x in xs]),
                    "p99_us": median([x["p99_us"] for x in xs]),
                    "p50_range_us": [min(x["p50_us"] for x in xs), max(x["p50_us"] for x in xs)],
                    "p99_range_us": [min(x["p99_us"] for x in xs), max(x["p99_us"] for x in xs)]})
    return out


def markdown(r: dict) -> str:
    by = {x["pair"]: x for x in r["rows"]}
    local, cross = by["local"], by["cross"]
    hop50 = cross["p50_us"] - local["p50_us"]
    hop99 = cross["p99_us"] - local["p99_us"]
    f = lambda v: f"{v:.0f}"  # noqa: E731
    return "\n".join([
        "# One overlay hop for DDS: `ddsperf` ping-pong within one site and across two",
        "",
        f"Sites: {r['sites']}. `ddsperf ping` at A, `ddsperf pong` at A and at B, each ping "
        "answered by both (the two pairs interleaved ping by ping, in the same run): "
        f"{len(r['runs'])} rounds of `ddsperf -i 9 -D {r['seconds']} ping` after a warm-up; "
        "pings timed out (no pong within 1 s) per round: "
        f"{', '.join(str(x.get('ping_timeouts', '?')) for x in r['runs'])}.",
        "",
        "`testbed/.venv/bin/python testbed/experiments/dds_hop.py` (root: network namespaces).",
        "",
        "Latencies are ddsperf's: one way (half the round trip), per second and ponger; the table "
        "gives the median over the seconds (each round's first second left out) of the per-second "
        "p50 and p99, and their ranges.",
        "",
        *table(r["rows"], [("pair", lambda x: x["pair"]), ("seconds", lambda x: str(x["seconds"])),
                           ("pongs", lambda x: str(x["pongs"])),
                           ("p50 µs", lambda x: f(x["p50_us"])),
                           ("p50 range µs", lambda x: "–".join(f(v) for v in x["p50_range_us"])),
                           ("p99 µs", lambda x: f(x["p99_us"])),
                           ("p99 range µs", lambda x: "–".join(f(v) for v in x["p99_range_us"]))]),
        "",
        f"One overlay hop (cross minus local, one way): p50 {hop50:.0f} µs, p99 {hop99:.0f} µs; "
        f"{hop50 / 40:.0f}x RTI Routing Service's published 40 µs p50 per hop on 10 GbE. The hop "
        "here is two pipes to Python children (the `cyclonedds` binding), two JVM edges and a JVM "
        "routing broker on loopback UDP; RTI's is one C process between two networks.",
        "",
        f"**{r['machine']}**: load average {' '.join(r['load_before'])} before, "
        f"{' '.join(r['load_after'])} after.",
        "",
    ])


def plot(r: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    for pair, colour in (("local", "tab:blue"), ("cross", "tab:red")):
        t0, xs50, xs99, ts = 0.0, [], [], []
        for run in r["runs"]:
            lines = [x for x in run["lines"] if (x["peer"] == OVERLAY_PEER) == (pair == "cross")]
            for x in lines:
                ts.append(t0 + x["t"])
                xs50.append(x["p50_us"])
                xs99.append(x["p99_us"])
            t0 += r["seconds"] + 1
        ax.plot(ts, xs50, "o-", color=colour, label=f"{pair} p50", markersize=3)
        ax.plot(ts, xs99, "x--", color=colour, label=f"{pair} p99", markersize=3)
    ax.set_yscale("log")
    ax.set_xlabel("second of the run (rounds back to back)")
    ax.set_ylabel("one-way latency, µs (ddsperf, per second)")
    ax.set_title("ddsperf ping-pong: within site A vs across the overlay (A to B)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=10, help="seconds per ddsperf ping run")
    ap.add_argument("--machine", default="2-core KVM",
                    help="what the run had to itself, written beside the figures (e.g. 'quiet')")
    args = ap.parse_args()
    r = measure(args.rounds, args.seconds, args.machine)
    print(r["rows"], file=sys.stderr)
    write("dds-hop", r, plot, markdown)


if __name__ == "__main__":
    main()
