"""The northbound bus under cbench-like load (issue 7 measurements; EMD paper Figures 7 and 11).

  fig7   latency and throughput by app combination (simple, simple+red, simple+3red) and number of
         emulated switches (1, 4, 16, 64), broadcast (every app gets every packet-in, as Ryu and
         ONOS do) against classified (EMD); redundant apps as in the paper (ten increments) and
         Ryu-like (plus 20 µs of CPU per event, about what Ryu spends dispatching one)
  fig11  the same against the subscription rate: simple plus nine Ryu-like redundant apps of
         which 0-9 also subscribe to the traffic, 16 switches
  topics (after Fig. 10) the apps' topics as OpenFlow match fields against the same tests as
         byte windows (protocol-independent, §4.2), simple+3red, classified; on cbench's
         emulated switches, not on a chain of Open vSwitch bridges as in the paper

Runs `nps bench nbi --json` (controller and load generator on loopback, no root) and writes
docs/results/emd-nbi.{json,md,png}.
  testbed/.venv/bin/python testbed/experiments/emd_nbi.py [--quick] [--only PART]...
(--only reruns the named parts and keeps the others from the existing JSON.)
"""

from __future__ import annotations

import argparse

import results
from results import pick, table

COMBOS = ["simple", "simple+red", "simple+3red"]
RYU_LIKE_US = 20


def bench(**opts) -> dict:
    return results.bench("nbi", **opts)


def parts(rounds: int) -> dict:
    """Each part of the experiment: its name in the results and how to run it."""
    return {
        "fig7": lambda: bench(switches="1,4,16,64", apps=",".join(COMBOS),
                              red_work_us=f"0,{RYU_LIKE_US}", rounds=rounds),
        "fig11": lambda: bench(switches=16, apps="simple+9red", subscribed="0,2,4,6,8,9",
                               red_work_us=RYU_LIKE_US, rounds=rounds),
        "topics": lambda: bench(switches="1,4,16,64", apps="simple+3red", mode="classified",
                                topics="fields,bytes", rounds=rounds),
    }


def one(rows, **eq):
    found = pick(rows, **eq)
    if len(found) != 1:
        raise ValueError(f"expected one row for {eq}, found {len(found)}")
    return found[0]


def plot(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(4, 2, figsize=(14, 17))
    rows = r["fig7"]["results"]
    switches = sorted({x["switches"] for x in rows})
    width = 0.8 / (2 * len(COMBOS))
    metrics = [("latency", "rtt_mean_us", "mean RTT (µs)"),
               ("throughput", "responses_per_s", "responses/s")]
    for row, work in enumerate([0, RYU_LIKE_US]):
        who = "the paper's redundant app" if work == 0 else f"Ryu-like redundant app (+{work} µs)"
        for col, (load, key, label) in enumerate(metrics):
            a = ax[row][col]
            k = 0
            for combo in COMBOS:
                for mode, hatch in [("broadcast", "//"), ("classified", "")]:
                    ys = [one(rows, load=load, apps=combo, mode=mode, switches=n,
                              red_work_us=work)[key] for n in switches]
                    xs = [i + (k - len(COMBOS) + 0.5) * width for i in range(len(switches))]
                    a.bar(xs, ys, width, label=f"{combo} {mode}", hatch=hatch,
                          color=f"C{COMBOS.index(combo)}", alpha=0.55 if mode == "broadcast" else 1)
                    k += 1
            a.set_xticks(range(len(switches)), [str(n) for n in switches])
            a.set(xlabel="emulated switches", ylabel=label, title=f"Fig. 7 ({load}): {who}")
            a.legend(fontsize=7, ncol=2)
            a.grid(alpha=0.3, axis="y")
    rows = r["fig11"]["results"]
    for col, (load, key, label) in enumerate(metrics):
        a = ax[2][col]
        for mode, st in [("broadcast", "s--"), ("classified", "o-")]:
            g = sorted(pick(rows, load=load, mode=mode), key=lambda x: x["subscription_rate"])
            a.plot([100 * x["subscription_rate"] for x in g], [x[key] for x in g], st, label=mode)
        a.set(xlabel="subscription rate (%)", ylabel=label,
              title=f"Fig. 11 ({load}): simple + 9 Ryu-like redundant apps, 16 switches")
        a.legend(fontsize=8)
        a.grid(alpha=0.3)
    if "topics" in r:
        rows = r["topics"]["results"]
        for col, (load, key, label) in enumerate(metrics):
            a = ax[3][col]
            for kind, st in [("fields", "o-"), ("bytes", "s--")]:
                g = sorted(pick(rows, load=load, topics=kind), key=lambda x: x["switches"])
                a.plot([x["switches"] for x in g], [x[key] for x in g], st, label=kind)
            a.set(xscale="log", xlabel="emulated switches", ylabel=label,
                  title=f"topics ({load}): match fields vs byte windows, simple+3red classified")
            a.legend(fontsize=8)
            a.grid(alpha=0.3)
    fig.suptitle("EMD northbound bus under cbench-like load (controller and load on one 2-core VM)")
    fig.tight_layout()
    fig.savefig(png, dpi=100)


COLS = [("load", lambda x: x["load"]), ("apps", lambda x: x["apps"]),
        ("redundant work", lambda x: f"{x['red_work_us']} µs"),
        ("subscription rate", lambda x: f"{100 * x['subscription_rate']:.0f} %"),
        ("mode", lambda x: x["mode"]), ("switches", lambda x: str(x["switches"])),
        ("responses/s", lambda x: f"{x['responses_per_s']:,.0f}"),
        ("mean RTT", lambda x: f"{x['rtt_mean_us']:.0f} µs" if "rtt_mean_us" in x else "-"),
        ("p99 RTT", lambda x: f"{x['rtt_p99_us']:.0f} µs" if "rtt_p99_us" in x else "-"),
        ("deliveries / packet-in", lambda x: f"{x['deliveries'] / max(1, x['packet_ins']):.2f}")]


def goals(rows) -> list[str]:
    """The issue's goals, per redundant-app cost and switch count: classified simple+3red latency
    against simple alone, and classified against broadcast throughput with three redundant apps."""
    out = ["| redundant work | switches | simple alone, mean RTT | simple+3red classified | "
           "difference | simple+3red broadcast | simple+3red throughput classified / broadcast |",
           "|---|---|---|---|---|---|---|"]
    for work in sorted({x["red_work_us"] for x in rows}):
        for n in sorted({x["switches"] for x in rows}):
            q = dict(switches=n, red_work_us=work)
            alone = one(rows, load="latency", apps="simple", mode="classified", **q)["rtt_mean_us"]
            emd = one(rows, load="latency", apps="simple+3red", mode="classified", **q)["rtt_mean_us"]
            bc = one(rows, load="latency", apps="simple+3red", mode="broadcast", **q)["rtt_mean_us"]
            c = one(rows, load="throughput", apps="simple+3red", mode="classified", **q)
            b = one(rows, load="throughput", apps="simple+3red", mode="broadcast", **q)
            out.append(f"| {work} µs | {n} | {alone:.0f} µs | {emd:.0f} µs | "
                       f"{100 * (emd / alone - 1):+.1f} % | {bc:.0f} µs | "
                       f"{c['responses_per_s'] / b['responses_per_s']:.2f}× |")
    return out


def markdown(r: dict) -> str:
    f7 = r["fig7"]
    m = f7["machine"]
    lines = ["# Northbound bus under load (EMD Fig. 7 and 11)", "",
             "`testbed/.venv/bin/python testbed/experiments/emd_nbi.py` → `nps bench nbi`. "
             f"Machine: {m['cpu']}, {m['nproc']} cores; the controller and the load generator "
             "share them.", "",
             "Emulated switches (`Cbench`: real OpenFlow 1.3 over loopback TCP) send IPv6/UDP "
             "packet-ins from a pool of hosts; *latency* keeps one packet-in outstanding per switch, "
             "*throughput* a window of 64. The controller runs the northbound bus with the "
             "forwarding app (*simple*: a learning switch that answers every packet-in with a "
             "packet-out, plus a flow-mod once the destination is known) and redundant apps (ten "
             f"increments per event, subscribed to LLDP; *Ryu-like* adds {RYU_LIKE_US} µs of CPU per "
             "event, since the same handler costs Ryu tens of µs and a JVM nothing). Each app has "
             "its own thread and bounded "
             "queue. *broadcast* gives every app every packet-in, as Ryu and ONOS do; *classified* "
             "only the apps whose topics match. A response is the packet-out; RTT is from sending "
             f"a packet-in to its packet-out. {f7['rounds']} measured rounds of {f7['round_ms']} ms "
             "after a warm-up round, and a process-wide warm-up first.", "",
             "![plot](emd-nbi.png)", "",
             "## Goals (three redundant apps beside the forwarding app)", ""]
    lines += goals(f7["results"])
    lines += ["", "Reading: with the paper's redundant app (ten increments) broadcast costs this "
              "runtime almost nothing: every app has its own thread, and handing it a packet-in is "
              "one queue put, so classified and broadcast differ by no more than run-to-run noise "
              "(about ±20 % here) and the 2× throughput goal is not met in that setting. Once a "
              "redundant app costs what a Ryu handler does, broadcast spends the two cores on apps "
              "that ignore the packet: classified throughput is about twice broadcast or more, and "
              "classified latency stays near the forwarding app's alone. Fig. 11 follows the "
              "paper: the gain shrinks as more apps subscribe to the traffic and is gone at "
              "90–100 %, where classifying only adds its own small cost."]
    lines += ["", "## Fig. 7: app combinations and switch counts", ""]
    lines += table(sorted(f7["results"], key=lambda x: (x["red_work_us"], x["load"], x["apps"],
                                                         x["switches"], x["mode"])), COLS)
    lines += ["", "## Fig. 11: subscription rate (simple + 9 Ryu-like redundant apps, 16 switches)", ""]
    lines += table(sorted(r["fig11"]["results"], key=lambda x: (x["load"], x["subscribed"],
                                                                 x["mode"])), COLS)
    if "topics" in r:
        lines += ["", "## Topics as match fields or byte windows (after Fig. 10)", "",
                  "The paper measures its protocol-independent mode on a chain of Open vSwitch "
                  "bridges (up to 5.9 % less delay at 16 hops). Here both kinds run through the same "
                  "index, on cbench's emulated switches: simple+3red, classified.", ""]
        lines += table(sorted(r["topics"]["results"], key=lambda x: (x["load"], x["switches"],
                                                                     x["topics"])),
                       [("topics", lambda x: x["topics"])] + COLS)
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--quick", action="store_true", help="fewer rounds (a smoke run)")
    p.add_argument("--only", choices=sorted(parts(1)), action="append",
                   help="run only these parts and keep the others from the existing results")
    a = p.parse_args()
    todo = parts(2 if a.quick else 3)
    results.measure("emd-nbi", todo, a.only, plot, markdown)


if __name__ == "__main__":
    main()
