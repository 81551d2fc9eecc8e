"""PubSubCoord's measurements on this machine (docs/overlay.md): the overlay benches of `nps overlay`,
run in-process against an embedded ZooKeeper and real Mosquitto processes (no Mininet, so no
test-bed lock), written to docs/results/overlay-PART.{json,md,png}:

  join       coordination under joining subscribers (Figures 6c, 6f): bench-join, bursts with
             20 and 2 edges, without fsync, on tmpfs, paced at a sustained rate, and the same
             bursts through the edges' group-commit writers (--model batched, edge)
  locality   latency vs data locality (Figure 5): bench-locality
  locality-dds  the same with DDS sites (overlay_dds.py), kept in overlay-locality.json as its
             `dds` series beside the MQTT one: [--dds-topics 20] [--dds-locality 0,0.25,...]
  brokers    latency and relay CPU vs routing brokers (Figures 6b, 6e): bench-locality --locality 0
  multipath  single vs multi-path under Table 1's link cases (Figure 7): bench-multipath
  multipath-dds  the same with DDS sites (overlay_dds_multipath.py), kept in
             overlay-multipath.json as its `dds` series beside the MQTT one: [--dds-cases 1,...,8]
  topics     latency and edge CPU vs topics per site (Figures 6a, 6d): bench-locality --locality 0

  testbed/.venv/bin/python testbed/experiments/overlay.py [--only join,locality,...] [--redraw]
      [--subscribers 2000,4000,6000,8000,10000]

Every bench prints one JSON line per point; progress goes to stderr as they arrive.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)

from results import NPS, pick, redraw, table, write  # noqa: E402

PARTS = ["join", "locality", "locality-dds", "brokers", "multipath", "multipath-dds", "topics"]


def machine() -> str:
    return (f"{platform.node()}: {os.cpu_count()} shared cores ({platform.processor() or 'x86_64'}),"
            f" Linux {platform.release()}; load average at start "
            f"{os.getloadavg()[0]:.1f} (other engineers' jobs share the cores)")


def lines(args: list[str]) -> list[dict]:
    """`nps ARGS --json`: every JSON line it prints, each echoed to stderr as it arrives."""
    cmd = [NPS, *args, "--json"]
    print("+ nps " + " ".join(args), file=sys.stderr, flush=True)
    start = time.time()
    out = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as p:
        for line in p.stdout:
            if line.startswith("{"):
                o = json.loads(line)
                out.append(o)
                brief = {k: v for k, v in o.items() if k in (
                    "subscribers", "rate", "locality", "routing_brokers", "topics_per_site",
                    "case", "path", "p99_ms", "server_update_p99_ms", "avg_ms", "delivered")}
                print(f"  [{time.time() - start:5.0f} s] {brief}", file=sys.stderr, flush=True)
        if p.wait() != 0:
            raise RuntimeError(f"nps {' '.join(args)} exited {p.returncode}")
    return out


# ---- join (Figures 6c, 6f) ----

JOIN_SERIES = {
    # name: (label, extra arguments)
    "burst-20": ("all at once, 20 edges", ["--edges", "20"]),
    "burst-20-batched": ("all at once, 20 edges, group commit",
                         ["--edges", "20", "--model", "batched"]),
    "burst-20-edge": ("all at once, 20 edges, edge-broker entries (group commit)",
                      ["--edges", "20", "--model", "edge"]),
    "burst-2": ("all at once, 2 edges", ["--edges", "2"]),
    "burst-20-nofsync": ("all at once, 20 edges, no fsync", ["--edges", "20", "--no-fsync"]),
    "burst-20-tmpfs": ("all at once, 20 edges, log on tmpfs", ["--edges", "20", "--data", "TMPFS"]),
    "rate-1000": ("1 000 joins/s, 20 edges", ["--edges", "20", "--rate", "1000"]),
    "rate-200": ("200 joins/s, 20 edges", ["--edges", "20", "--rate", "200"]),
    "rate-200-nofsync": ("200 joins/s, 20 edges, no fsync",
                         ["--edges", "20", "--rate", "200", "--no-fsync"]),
    "rate-1000-batched": ("1 000 joins/s, 20 edges, group commit",
                          ["--edges", "20", "--rate", "1000", "--model", "batched"]),
    "rate-1000-edge": ("1 000 joins/s, 20 edges, edge-broker entries",
                       ["--edges", "20", "--rate", "1000", "--model", "edge"]),
    "rate-2000-edge": ("2 000 joins/s, 20 edges, edge-broker entries",
                       ["--edges", "20", "--rate", "2000", "--model", "edge"]),
    "rate-5000-edge": ("5 000 joins/s, 20 edges, edge-broker entries",
                       ["--edges", "20", "--rate", "5000", "--model", "edge"]),
}


def join(subscribers: str, only: list[str] | None) -> dict:
    """Runs every series, or with `only` just those, keeping the others from the last JSON."""
    started = machine()
    series = {}
    if only:
        with open(os.path.join(os.path.dirname(TESTBED_DIR), "docs", "results",
                               "overlay-join.json")) as f:
            series = json.load(f)["series"]
    for name, (label, extra) in JOIN_SERIES.items():
        if only and name not in only:
            continue
        args = ["overlay", "bench-join", "--subscribers", subscribers, *extra]
        shm = None
        if "TMPFS" in args:
            shm = f"/dev/shm/nps-zk-bench-{os.getpid()}"
            args[args.index("TMPFS")] = shm
        try:
            load = os.getloadavg()[0]
            series[name] = {"label": label, "command": "nps " + " ".join(args) + " --json",
                            "rows": lines(args), "load": load, "when": time.strftime("%H:%M")}
        finally:
            if shm:
                subprocess.run(["rm", "-rf", shm], check=False)
    return {"experiment": "overlay-join (PubSubCoord Figures 6c, 6f)", "machine": started,
            "series": series}


def plot_join(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 4, figsize=(19, 5.2))
    colors = plt.cm.tab20.colors  # more series than the default cycle's 10 colours
    for i, (name, s) in enumerate(r["series"].items()):
        rows = sorted(s["rows"], key=lambda x: x["subscribers"])
        n = [x["subscribers"] for x in rows]
        style = dict(marker="o", color=colors[(2 * i) % 20 + (2 * i) // 20],
                     ls="--" if s["rows"][0].get("model", "subscriber") != "subscriber" else "-")
        ax[0].plot(n, [x["p99_ms"] for x in rows], label=s["label"], **style)
        ax[1].plot(n, [x["server_update_p99_ms"] for x in rows], **style)
        ax[2].plot(n, [x["server_avg_ms"] for x in rows], **style)
        if name == "burst-20":
            ax[3].plot(n, [x["znodes"] for x in rows], marker="o", label="znodes added")
            ax[3].plot(n, [x["watches"] for x in rows], marker="s", label="watches (20 edges)")
        if name == "burst-2":
            ax[3].plot(n, [x["watches"] for x in rows], marker="^", label="watches (2 edges)")
        if name == "burst-20-edge":
            ax[3].plot(n, [x["znodes"] for x in rows], marker="v", label="znodes added (edge entries)")
    for a in ax[:3]:
        a.axhline(20, color="red", lw=0.8, ls="--")
        a.set_yscale("log")
    ax[0].set_ylabel("per-join p99: join to entry committed (ms)")
    ax[1].set_ylabel("ZooKeeper p99 update latency (ms)")
    ax[2].set_ylabel("ZooKeeper average latency (ms)")
    ax[3].set_ylabel("count")
    for a in ax:
        a.set_xlabel("joining subscribers")
    handles, labels = ax[0].get_legend_handles_labels()
    fig.legend(handles + [plt.Line2D([], [], color="red", lw=0.8, ls="--")],
               labels + ["goal: 20 ms"], loc="lower center", ncol=4, fontsize=8)
    ax[3].legend(fontsize=8)
    fig.suptitle("Overlay coordination under joining subscribers (PubSubCoord Fig. 6c, 6f)")
    fig.tight_layout(rect=(0, 0.2, 1, 1))
    fig.savefig(png, dpi=110)


def sources(part: str) -> str:
    return (f"Raw: `overlay-{part}.json`; driver: `testbed/experiments/overlay.py --only "
            f"{part}`.")


def plot_and_reading(r: dict, part: str) -> list[str]:
    return [f"![{part}](overlay-{part}.png)", "", "## Reading", "", r.get("reading", ""), ""]


def md_join(r: dict) -> str:
    out = ["# Overlay coordination under joining subscribers (PubSubCoord Figures 6c, 6f)", "",
           f"Machine: {r['machine']}. Driver: `testbed/.venv/bin/python "
           "testbed/experiments/overlay.py --only join`; raw: `overlay-join.json`.", "",
           JOIN_SETUP, ""]
    for name, s in r["series"].items():
        rows = sorted(s["rows"], key=lambda x: x["subscribers"])
        out += [f"## {s['label']}", "", f"`{s['command']}`"
                + (f" (at {s['when']}, load average {s['load']:.1f})" if "load" in s else ""), ""]
        out += table(rows, [
            ("subscribers", lambda x: str(x["subscribers"])),
            ("join p50 ms", lambda x: f"{x['p50_ms']:.0f}"),
            ("join p99 ms", lambda x: f"{x['p99_ms']:.0f}"),
            ("requests", lambda x: str(x.get("requests", x["subscribers"]))),
            ("request p50 / p99 ms", lambda x: f"{x.get('request_p50_ms', x['p50_ms']):.0f} / "
                                               f"{x.get('request_p99_ms', x['p99_ms']):.0f}"),
            ("server avg ms", lambda x: f"{x['server_avg_ms']:.1f}"),
            ("server update p50 / p99 ms",
             lambda x: f"{x['server_update_p50_ms']:.0f} / {x['server_update_p99_ms']:.0f}"),
            ("server read p99 ms", lambda x: f"{x['server_read_p99_ms']:.0f}"),
            ("reads per join", lambda x: f"{x['server_reads'] / x['subscribers']:.1f}"),
            ("updates per join", lambda x: f"{x['server_updates'] / x['subscribers']:.2f}"),
            ("znodes", lambda x: str(x["znodes"])),
            ("watches", lambda x: str(x["watches"])),
            ("joins s", lambda x: f"{x['seconds']:.1f}"),
            ("seen by RBs s", lambda x: f"{x['visible_seconds']:.1f}"),
        ])
        out.append("")
    out += plot_and_reading(r, "join")
    return "\n".join(out)


JOIN_SETUP = (
    "`nps overlay bench-join`: two real routing brokers (topic index, leader, caches of their "
    "assigned topics) and E edge clients that each cache the 100 topics (of 1 000) their "
    "subscribers use, as edge brokers do since the per-topic caches (docs/overlay.md, *What each "
    "role watches*). The topics exist beforehand (a publisher entry each, assigned): N "
    "subscribers then join a running system, each one ephemeral entry "
    "`/topics/<t>/sub/<edge>-<i>` (the paper's load: a znode per endpoint), in one of three load "
    "models (`--model`): *subscriber* (the paper's: each join its own create; the series without "
    "a model in their name), *batched* (the same znodes through one group-commit `EntryWriter` per "
    "edge: at most one `multi` in flight per edge, creates of the `sub` containers it has not seen "
    "sent just ahead of it) and *edge* (the shipped edge broker's: one entry "
    "`/topics/<t>/sub/<edge>` per topic and edge, through its writer; a join whose entry is there costs nothing). *join* latency is from "
    "a subscriber's join to its entry committed as the joining client sees it (queueing behind the "
    "other joins included); *requests* are the ZooKeeper requests the joins' clients sent (multi, "
    "container and single creates; in the subscriber model Curator's hidden parent creation is "
    "not counted), with their latency as the client sees it; "
    "*server* latencies are ZooKeeper's own (`mntr` after `srst`: the time from a request's "
    "arrival to its answer, the paper's definition); *seen by RBs* is the time from the first "
    "join until the routing brokers' caches hold every new entry; *znodes* are those the joins "
    "added below the round's namespace. Each series starts with one unmeasured all-at-once round "
    "at its first size (`--warmup`, so that the first measured round does not measure the JIT), "
    "and each round's namespace is deleted after it. Embedded standalone ZooKeeper 3.9.3, tick "
    "200 ms, in the same JVM as all clients.")


# ---- locality (Figure 5), brokers (6b, 6e), topics (6a, 6d) ----

def locality() -> dict:
    rows = []
    for topics in (20, 60):
        rows += lines(["overlay", "bench-locality", "--topics", str(topics)])
    return {"experiment": "overlay-locality (PubSubCoord Figure 5)",
            "command": "nps overlay bench-locality --topics T --json (3 sites, 2 routing brokers, "
                       "every overlay link delay=40ms, 20 rounds every 50 ms)",
            "machine": machine(), "rows": rows}


def locality_dds(topics: str, localities: str) -> dict:
    """The DDS series, added to the last MQTT one (overlay-locality.json) under `dds`."""
    import overlay_dds
    r = previous("overlay-locality")
    started = machine()
    rows = []
    for t in topics.split(","):
        rows += overlay_dds.locality(int(t), [float(x) for x in localities.split(",")])
    r["dds"] = {"command": "testbed/.venv/bin/python testbed/experiments/overlay.py --only "
                           f"locality-dds --dds-topics {topics} --dds-locality {localities}",
                "machine": started, "rows": rows}
    return r


def previous(name: str) -> dict:
    """docs/results/NAME.json as last written."""
    with open(os.path.join(os.path.dirname(TESTBED_DIR), "docs", "results", name + ".json")) as f:
        return json.load(f)


def plot_locality(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for t in sorted({x["topics_per_site"] for x in r["rows"]}):
        rows = sorted(pick(r["rows"], topics_per_site=t), key=lambda x: x["locality"])
        loc = [x["locality"] for x in rows]
        ax.plot(loc, [x["avg_ms"] for x in rows], marker="o",
                label=f"MQTT sites, {t} topics/site, avg")
        ax.plot(loc, [x["p99_ms"] for x in rows], marker="x", ls=":",
                label=f"MQTT sites, {t} topics/site, p99")
    for t in sorted({x["topics_per_site"] for x in r.get("dds", {}).get("rows", [])}):
        rows = sorted(pick(r["dds"]["rows"], topics_per_site=t), key=lambda x: x["locality"])
        loc = [x["locality"] for x in rows]
        ax.plot(loc, [x["avg_ms"] for x in rows], marker="s", ls="--",
                label=f"DDS sites, {t} topics/site, avg")
        ax.plot(loc, [x["p99_ms"] for x in rows], marker="+", ls="-.",
                label=f"DDS sites, {t} topics/site, p99")
    ax.set_xlabel("data locality (fraction of topics subscribed in the publishing site)")
    ax.set_ylabel("publish → delivery latency (ms)")
    ax.legend(fontsize=8)
    ax.set_title("Latency vs data locality (PubSubCoord Fig. 5), 40 ms WAN hops")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


LOCALITY_COLUMNS = [("topics per site", lambda x: str(x["topics_per_site"])),
                    ("locality", lambda x: f"{x['locality']:.2f}"),
                    ("delivered", lambda x: f"{x['delivered']}/{x['expected']}"),
                    ("avg ms", lambda x: f"{x['avg_ms']:.1f}"),
                    ("p99 ms", lambda x: f"{x['p99_ms']:.1f}")]


def md_locality(r: dict) -> str:
    rows = sorted(r["rows"], key=lambda x: (x["topics_per_site"], x["locality"]))
    out = ["# Latency vs data locality (PubSubCoord Figure 5)", "", LOCALITY_SETUP, "",
           f"Command: `{r['command']}`. Machine: {r['machine']}. {sources('locality')}", ""]
    out += table(rows, LOCALITY_COLUMNS)
    if "dds" in r:
        d = r["dds"]
        out += ["", "## DDS sites", "", LOCALITY_DDS_SETUP, "",
                f"Command: `{d['command']}`. Machine: {d['machine']}.", ""]
        out += table(sorted(d["rows"], key=lambda x: (x["topics_per_site"], x["locality"])),
                     LOCALITY_COLUMNS + [("load average after", lambda x: " ".join(x["load"]))])
    out += ["", *plot_and_reading(r, "locality")]
    return "\n".join(out)


LOCALITY_DDS_SETUP = (
    "The same experiment with DDS sites (`testbed/experiments/overlay_dds.py`): each site a DDS "
    "domain of its own (21, 22, 23) on this machine, with `nps overlay edge-broker --local "
    "dds:DOMAIN` (its Cyclone DDS child); `nps overlay zookeeper` and two `nps overlay "
    "routing-broker` processes; every edge and routing broker sends each overlay datagram with "
    "`--emulate-wan delay=40ms`. Each site's T topics are written by one unmodified Cyclone "
    "application (`testbed/tests/dds_app.py stamp-pub`, reliable, 20 rounds every 50 ms), a "
    "fraction *locality* of them read in the same site (DDS delivers those inside the domain), the "
    "rest in the next site (`stamp-sub`). Latency is write to take, one clock (each sample carries "
    "its CLOCK_MONOTONIC write time), over every delivery. Every topic carries warm-up samples "
    "until each reader has one, before the timed rounds, as the MQTT bench waits for the "
    "subscribing edges' entries; each locality runs on a fresh overlay. Separate processes and "
    "Python applications, where the MQTT bench runs in one JVM: compare the shape (the fall with locality, the two WAN hops), not the last milliseconds.")


LOCALITY_SETUP = (
    "`nps overlay bench-locality --topics T`: three sites (a Mosquitto 2.0 process and an overlay "
    "edge broker each), two routing brokers, the embedded ZooKeeper; every overlay datagram "
    "crosses an emulated WAN link of 40 ms one way (docs/overlay.md), local deliveries stay inside "
    "the site's Mosquitto. Each site publishes T topics (QoS 1, 20 rounds, one round every 50 ms); "
    "a fraction *locality* of them is subscribed in the same site, the rest in the next site. "
    "Latency is MQTT publish to delivery (one clock), over every delivery.")


def brokers() -> dict:
    rows = lines(["overlay", "bench-locality", "--locality", "0", "--routing-brokers", "1,2,4,8",
                  "--topics", "60"])
    return {"experiment": "overlay-brokers (PubSubCoord Figures 6b, 6e)",
            "command": "nps overlay bench-locality --locality 0 --routing-brokers 1,2,4,8 "
                       "--topics 60 --json (3 sites, every overlay link delay=40ms, 20 rounds "
                       "every 50 ms: 3 600 messages per run)",
            "machine": machine(), "rows": rows}


def plot_brokers(r: dict, png: str) -> None:
    plot_latency_and_cpu(r["rows"], png, "routing_brokers", "routing brokers",
                         "relay_cpu_ms_per_broker", "relay CPU per routing broker (ms)",
                         "Latency and relay CPU vs routing brokers (PubSubCoord Fig. 6b, 6e)",
                         log2=True)


def plot_latency_and_cpu(rows: list[dict], png: str, x: str, x_label: str, cpu: str,
                         cpu_label: str, title: str, log2: bool = False) -> None:
    """Latency (avg and p99) and CPU against one parameter, side by side (Figs. 6a/6d, 6b/6e)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = sorted(rows, key=lambda row: row[x])
    n = [row[x] for row in rows]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    ax[0].plot(n, [row["avg_ms"] for row in rows], marker="o", label="avg")
    ax[0].plot(n, [row["p99_ms"] for row in rows], marker="x", ls=":", label="p99")
    ax[0].set_ylabel("publish → delivery latency (ms)")
    ax[0].legend()
    ax[1].plot(n, [row[cpu] for row in rows], marker="o")
    ax[1].set_ylabel(cpu_label)
    for a in ax:
        a.set_xlabel(x_label)
        if log2:
            a.set_xscale("log", base=2)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def md_brokers(r: dict) -> str:
    rows = sorted(r["rows"], key=lambda x: x["routing_brokers"])
    out = ["# Latency and routing-broker load vs number of routing brokers "
           "(PubSubCoord Figures 6b, 6e)", "",
           f"`{r['command']}`: three sites, 60 topics each, all global (subscribed in the next "
           "site), every overlay link 40 ms one way (emulated); every message goes through a "
           "routing broker. Relay CPU is the CPU time of the brokers' relay threads during the "
           "run (`RoutingBroker.relayCpuNanos`), divided by their number. Machine: "
           f"{r['machine']}. {sources('brokers')}", ""]
    out += table(rows, [("routing brokers", lambda x: str(x["routing_brokers"])),
                        ("delivered", lambda x: f"{x['delivered']}/{x['expected']}"),
                        ("avg ms", lambda x: f"{x['avg_ms']:.1f}"),
                        ("p99 ms", lambda x: f"{x['p99_ms']:.1f}"),
                        ("relay CPU per broker, ms",
                         lambda x: f"{x['relay_cpu_ms_per_broker']:.1f}")])
    out += ["", *plot_and_reading(r, "brokers")]
    return "\n".join(out)


def multipath() -> dict:
    return {"experiment": "overlay-multipath (PubSubCoord Table 1, Figure 7)",
            "command": "nps overlay bench-multipath --json (A = delay=30ms, B = delay=250ms,"
                       "loss=1%; 150 QoS 1 messages every 20 ms)",
            "machine": machine(), "rows": lines(["overlay", "bench-multipath"])}


def multipath_dds(cases: str) -> dict:
    """The DDS series, added to the last MQTT one (overlay-multipath.json) under `dds`."""
    import overlay_dds_multipath
    r = previous("overlay-multipath")
    old = r.get("dds", {})
    started = machine()
    rows = overlay_dds_multipath.figure7([int(c) for c in cases.split(",")])
    r["dds"] = {"command": "testbed/.venv/bin/python testbed/experiments/overlay.py --only "
                           f"multipath-dds --dds-cases {cases}", "machine": started, "rows": rows,
                "load_after": open("/proc/loadavg").read().split()[:3]}
    if "reading" in old:  # the hand-written reading of the last run, to be revised
        r["dds"]["reading"] = old["reading"]
    return r


def plot_multipath(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    series = [("MQTT sites (Mosquitto)", r["rows"])]
    if "dds" in r:
        series.append(("DDS sites (Cyclone DDS)", r["dds"]["rows"]))
    fig, axes = plt.subplots(1, len(series), figsize=(9 * len(series), 4.4), sharey=True,
                             squeeze=False)
    for ax, (title, rows) in zip(axes[0], series):
        multipath_bars(ax, rows, title)
    axes[0][0].set_ylabel("publish → delivery latency (ms)")
    fig.suptitle("Single vs deadline-aware multi-path (PubSubCoord Table 1, Fig. 7)")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def multipath_bars(ax, all_rows: list[dict], title: str) -> None:
    cases = sorted({x["case"] for x in all_rows})
    links = {x["case"]: x["links"] for x in all_rows}

    def value(case, path, key):
        # single-path ignores L3: MQTT's cases 2, 4, 6, 8 equal 1, 3, 5, 7 (DDS measures them)
        rows = pick(all_rows, case=case, path=path) or (
            pick(all_rows, case=case - 1, path=path) if path == "single" else [])
        return rows[0][key] if rows else 0

    w = 0.38
    for i, path in enumerate(("single", "multi")):
        xs = [c + (i - 0.5) * w for c in cases]
        ax.bar(xs, [value(c, path, "avg_ms") for c in cases], w, label=f"{path}-path avg")
        ax.errorbar(xs, [value(c, path, "avg_ms") for c in cases],
                    yerr=[[0] * len(cases),
                          [max(0, value(c, path, "p99_ms") - value(c, path, "avg_ms"))
                           for c in cases]],
                    fmt="none", ecolor="black", capsize=3, lw=0.8)
        if all("p50_ms" in x for x in all_rows):  # the DDS series: p50, which stalls move less
            ax.plot(xs, [value(c, path, "p50_ms") for c in cases], "k_", ms=12,
                    label="p50" if i else None)
    lost = [x for x in all_rows if x.get("lost")]
    for x in lost:  # a lost sample is shown, not averaged away
        ax.annotate(f"{x['lost']} lost", (x["case"] + (0.5 if x["path"] == "multi" else -0.5) * w,
                                          x["p99_ms"]), ha="center", va="bottom", color="red",
                    fontsize=7)
    ax.set_xticks(cases)
    ax.set_xticklabels([f"{c}\n{links[c]}" for c in cases])
    ax.set_xlabel("Table 1 case (L1 L2 L3; A = 30 ms, B = 250 ms + 1 % loss); whisker: p99")
    ax.legend()
    ax.set_title(title)


def md_multipath(r: dict) -> str:
    rows = sorted(r["rows"], key=lambda x: (x["case"], x["path"] != "single"))
    out = ["# Deadline-aware multi-path (PubSubCoord Table 1, Figure 7)", "", MULTIPATH_SETUP, "",
           f"Command: `{r['command']}`. Machine: {r['machine']}. {sources('multipath')}", ""]
    out += table(rows, [("case", lambda x: str(x["case"])),
                        ("L1 L2 L3", lambda x: " ".join(x["links"])),
                        ("path", lambda x: x["path"]),
                        ("delivered", lambda x: f"{x['delivered']}/{x['sent']}"),
                        ("avg ms", lambda x: f"{x['avg_ms']:.1f}"),
                        ("p99 ms", lambda x: f"{x['p99_ms']:.1f}"),
                        ("max ms", lambda x: f"{x['max_ms']:.1f}")])
    out += ["", *plot_and_reading(r, "multipath")]
    if "dds" in r:
        import overlay_dds_multipath as dds
        d = r["dds"]
        out += ["", "## DDS sites", "", dds.SETUP, "",
                f"Command: `{d['command']}`. Machine: {d['machine']}; load average after "
                f"{' '.join(d['load_after'])}. **Loaded machine** (other helpers' builds and tests "
                "on the 2 cores): the absolute figures are not valid; rerun the command on a quiet "
                "machine.", ""]
        out += table(sorted(d["rows"], key=lambda x: (x["case"], x["path"] != "single")),
                     dds.COLUMNS)
        if d.get("reading"):
            out += ["", "### Reading (DDS)", "", d["reading"], ""]
    return "\n".join(out)


MULTIPATH_SETUP = (
    "`nps overlay bench-multipath`: two sites (a Mosquitto 2.0 process each, an overlay edge "
    "broker in front of each), one routing broker, the embedded ZooKeeper; the overlay's WAN "
    "emulation sets L1 (publishing edge → routing broker), L2 (routing broker → subscribing edge) "
    "and L3 (edge to edge) to class A (30 ms one way, no loss) or B (250 ms, 1 % loss) as in "
    "Table 1. 150 QoS 1 messages, one every 20 ms; latency is MQTT publish to MQTT delivery, one "
    "clock. *single*: the topic takes L1 + L2 only (L3 irrelevant, so cases 2, 4, 6, 8 equal 1, "
    "3, 5, 7 and are not repeated); *multi*: the topic is declared with a deadline, so it also "
    "takes L3 and the receiver keeps the first copy. Lost messages are recovered by NACK.")


def topics() -> dict:
    rows = []
    for t in (20, 40, 80, 160):
        rows += lines(["overlay", "bench-locality", "--locality", "0", "--routing-brokers", "2",
                       "--topics", str(t)])
    return {"experiment": "overlay-topics (PubSubCoord Figures 6a, 6d)",
            "command": "nps overlay bench-locality --locality 0 --routing-brokers 2 --topics "
                       "20,40,80,160 --json (3 sites, every topic subscribed in the next site, "
                       "every overlay link delay=40ms, 20 rounds every 50 ms)",
            "machine": machine(), "rows": rows}


def plot_topics(r: dict, png: str) -> None:
    plot_latency_and_cpu(r["rows"], png, "topics_per_site", "topics adopted per site (all global)",
                         "edge_cpu_ms_per_edge", "CPU per edge broker during the run (ms)",
                         "Latency and edge-broker CPU vs topics per site (PubSubCoord Fig. 6a, 6d)")


def md_topics(r: dict) -> str:
    rows = sorted(r["rows"], key=lambda x: x["topics_per_site"])
    out = ["# Latency and edge-broker CPU vs topics per site (PubSubCoord Figures 6a, 6d)", "",
           f"`{r['command']}`: each of three sites publishes T topics, every one subscribed in the "
           "next site (so each edge adopts 2T topics: T it sends, T it receives), 20 QoS 1 "
           "messages per topic, one round every 50 ms. Edge CPU is the CPU time of an edge broker's "
           "threads (its local-broker callback, receiver and sync threads) during the run, per "
           f"edge. Machine: {r['machine']}. {sources('topics')}", ""]
    out += table(rows, [("topics per site", lambda x: str(x["topics_per_site"])),
                        ("delivered", lambda x: f"{x['delivered']}/{x['expected']}"),
                        ("avg ms", lambda x: f"{x['avg_ms']:.1f}"),
                        ("p99 ms", lambda x: f"{x['p99_ms']:.1f}"),
                        ("edge CPU ms per edge", lambda x: f"{x['edge_cpu_ms_per_edge']:.0f}")])
    out += ["", *plot_and_reading(r, "topics")]
    return "\n".join(out)


DRAW = {"join": (plot_join, md_join), "locality": (plot_locality, md_locality),
        "locality-dds": (plot_locality, md_locality),
        "brokers": (plot_brokers, md_brokers), "multipath": (plot_multipath, md_multipath),
        "multipath-dds": (plot_multipath, md_multipath),
        "topics": (plot_topics, md_topics)}


def keep_reading(name: str, r: dict) -> dict:
    """A re-measured result keeps the hand-written reading of the previous one (to be revised) and
    the series measured by another part (locality's DDS series)."""
    path = os.path.join(os.path.dirname(TESTBED_DIR), "docs", "results", name + ".json")
    if os.path.exists(path):
        with open(path) as f:
            old = json.load(f)
        for key in ("reading", "dds"):
            if key in old and key not in r:
                r[key] = old[key]
    return r


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(PARTS), help="comma-separated: " + ", ".join(PARTS))
    ap.add_argument("--redraw", action="store_true", help="only redraw .md/.png from the .json")
    ap.add_argument("--subscribers", default="2000,4000,6000,8000,10000")
    ap.add_argument("--series", help="join: only these series (comma-separated), keeping the "
                    "others from overlay-join.json; series: " + ", ".join(JOIN_SERIES))
    ap.add_argument("--dds-topics", default="20", help="locality-dds: topics per site, e.g. 20,60")
    ap.add_argument("--dds-locality", default="0,0.25,0.5,0.75,1", help="locality-dds: fractions")
    ap.add_argument("--dds-cases", default="1,2,3,4,5,6,7,8", help="multipath-dds: Table 1 cases")
    args = ap.parse_args()
    only = args.only.split(",")
    unknown = [p for p in only if p not in PARTS]
    if unknown:
        print(f"unknown part(s) {unknown}; parts: {PARTS}", file=sys.stderr)
        return 2
    series = args.series.split(",") if args.series else None
    run = {"join": lambda: join(args.subscribers, series), "locality": locality,
           "locality-dds": lambda: locality_dds(args.dds_topics, args.dds_locality),
           "brokers": brokers,
           "multipath": multipath, "multipath-dds": lambda: multipath_dds(args.dds_cases),
           "topics": topics}
    for part in only:
        name = "overlay-" + part.removesuffix("-dds")  # the DDS series lives beside the MQTT one
        plot, markdown = DRAW[part]
        if args.redraw:
            redraw(name, plot, markdown)
        else:
            write(name, keep_reading(name, run[part]()), plot, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
