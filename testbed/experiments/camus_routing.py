"""Camus routing on subscriptions in the k=4 fat tree (paper §7.5, Figure 13).

For ITCH workloads of 1 000 … 100 000 filters spread over the 16 hosts, under both routing
policies (MR, TR) and several discretization units α, runs

  nps compile --spec itch --policy P --topology fattree:4 --rules W --alpha A
              --stats --eval W --churn 10 --warmup --json

(a pure computation: no root, no Open vSwitch) and records per layer the switch memory (table
entries, TCAM entries once ranges are prefix-expanded), the traffic each layer sends against what
was needed (500 events, publisher round-robin over the hosts), the compile time of the whole
fabric and the time to recompile after one subscription change. Writes
docs/results/camus-routing.{json,md,png}.

  testbed/.venv/bin/python testbed/experiments/camus_routing.py run [--sizes 1000,10000] [--cache D]
  testbed/.venv/bin/python testbed/experiments/camus_routing.py redraw
(/usr/bin/python3 works too: it needs only matplotlib.)

Workloads (nps workload gen itch --hosts 16): "simple" is Camus's ITCH filter set
(stock == S && price > P, 100 symbols, P in (0, 1000) dollars); "rich" constrains up to three
variables (stock by Zipf over 1000 symbols; price <, > or a range within ±10 % of the stock's
average; shares in 35 % of the filters). ITCH prices carry 4 implied decimals and the constants are
whole cents, so α is chosen in dollars: 1 price unit (exact), $1 = 10 000, $10 = 100 000,
$100 = 1 000 000 units; an α below a cent (the paper's 1, 10, 100 read as price units) would change
nothing. One α applies to every int field, so α ≥ $1 also erases most share thresholds (round lots
of 100 … 10 000). A small ssbg run (3 attributes) shows why ssbg is not used for the curves.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile

from results import redraw, write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NPS = os.path.join(ROOT, "nps")
NAME = "camus-routing"
SIZES = [1000, 3000, 10000, 30000, 100000]
ITCH_ALPHAS = [1, 10_000, 100_000, 1_000_000]
SSBG_ALPHAS = [1, 10, 100]
SSBG_SIZES = [1000, 10000]
EVENTS = 500
CHURN = 10
POLICIES = ["mr", "tr"]
HEAP = "-Xmx12g"


def alpha_label(workload: str, alpha: int) -> str:
    if workload.startswith("itch"):
        return "exact" if alpha == 1 else f"${alpha // 10_000}"
    return str(alpha)


def machine() -> dict:
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "nproc": os.cpu_count()}


def generate(tmp: str, model: str, n: int) -> tuple[str, str]:
    """A workload file (filters, then events) and the --spec to compile it with."""
    out = os.path.join(tmp, f"{model}-{n}.jsonl")
    if model == "ssbg":
        schema = os.path.join(tmp, "ssbg3.yaml")
        subprocess.run([NPS, "workload", "gen", "ssbg", "--attributes", "3", "--hosts", "16",
                        "--subscriptions", str(n), "--events", str(EVENTS), "--seed", "1",
                        "--out", out, "--schema-out", schema], check=True,
                       stdout=subprocess.DEVNULL)
        return out, schema
    subprocess.run([NPS, "workload", "gen", "itch", "--itch-model", model, "--hosts", "16",
                    "--subscriptions", str(n), "--events", str(EVENTS), "--seed", "1",
                    "--out", out], check=True, stdout=subprocess.DEVNULL)
    return out, "itch"


def loadavg() -> float:
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except OSError:
        return -1.0


def compile_run(spec: str, rules: str, policy: str, alpha: int) -> dict:
    env = dict(os.environ, NPS_JAVA_OPTS=HEAP)
    r = subprocess.run([NPS, "compile", "--spec", spec, "--policy", policy, "--topology",
                        "fattree:4", "--rules", rules, "--alpha", str(alpha), "--stats",
                        "--eval", rules, "--churn", str(CHURN), "--warmup", "--json"],
                       stdout=subprocess.PIPE, text=True, check=True, env=env)
    m = json.loads(r.stdout)
    m["loadavg"] = loadavg()
    return m


def cached_run(cache: str, model: str, n: int, spec: str, rules: str, policy: str,
               alpha: int) -> dict:
    """One run, kept in CACHE so that an interrupted experiment resumes; one retry on failure
    (a shared machine may stop a JVM)."""
    path = os.path.join(cache, f"{model}-{n}-{policy}-{alpha}.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    try:
        m = compile_run(spec, rules, policy, alpha)
    except subprocess.CalledProcessError as e:
        print(f"retrying after exit {e.returncode}: {model} {n} {policy} {alpha}", file=sys.stderr)
        m = compile_run(spec, rules, policy, alpha)
    with open(path, "w") as f:
        json.dump(m, f)
    return m


def run(sizes: list[int], cache: str) -> dict:
    runs = []
    os.makedirs(cache, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="camus-routing-") as tmp:
        plan = [("simple", n, ITCH_ALPHAS) for n in sizes] + \
               [("rich", n, ITCH_ALPHAS) for n in sizes] + \
               [("ssbg", n, SSBG_ALPHAS) for n in SSBG_SIZES]
        for model, n, alphas in plan:
            rules, spec = generate(tmp, model, n)
            for policy in POLICIES:
                for alpha in alphas:
                    m = cached_run(cache, model, n, spec, rules, policy, alpha)
                    m["workload"] = model if model == "ssbg" else f"itch-{model}"
                    m["filters"] = n
                    t = m["traffic"]
                    print(f"{m['workload']:11} {n:>6} {policy} α={alpha:<8} "
                          f"compile {m['compile_ms']:9.1f} ms ({m['compile_cpu_ms']:.1f} CPU), "
                          f"recompile {m['recompile']['median_cpu_ms']:7.2f} ms CPU, core extra "
                          f"{t['layers'][2]['extra_pct']:5.1f} %, missed {t['missed']}, "
                          f"unwanted {t['unwanted']}", file=sys.stderr, flush=True)
                    runs.append(m)
    return {"machine": machine() | {"jvm": runs[0]["jvm"], "max_heap_mb": runs[0]["max_heap_mb"]},
            "topology": "fattree:4", "events": EVENTS, "churn": CHURN, "runs": runs}


# ---- plot and tables (from the JSON alone) ----

def pick(r: dict, workload: str, policy: str, alpha: int) -> list[dict]:
    rows = [x for x in r["runs"] if x["workload"] == workload and x["policy"] == policy
            and x["alpha"] == alpha]
    return sorted(rows, key=lambda x: x["filters"])


def per_switch(run: dict, layer: int, key: str) -> float:
    l = run["layers"][layer]
    return l[key] / l["switches"]


LAYER_COLORS = ["tab:green", "tab:orange", "tab:red"]


def plot(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(2, 3, figsize=(17, 10))
    names = ["edge", "aggregation", "core"]

    for col, wl in enumerate(["itch-simple", "itch-rich"]):
        a = ax[0][col]
        for policy, style in [("mr", "o-"), ("tr", "s--")]:
            rows = pick(r, wl, policy, 1)
            for layer in range(3):
                a.plot([x["filters"] for x in rows], [per_switch(x, layer, "ternary") for x in rows],
                       style, color=LAYER_COLORS[layer], label=f"{policy.upper()} {names[layer]}")
        a.set(xscale="log", yscale="log", xlabel="filters (whole network)",
              ylabel="TCAM entries per switch",
              title=f"({'ab'[col]}) {wl}, exact: memory per layer, MR vs TR (cores alike)")
        a.grid(alpha=0.3, which="both")
        a.legend(fontsize=7, ncol=2)

    a = ax[0][2]
    rows = pick(r, "itch-rich", "mr", 1)
    a.plot([x["filters"] for x in rows], [per_switch(x, 0, "ternary") for x in rows], "o-",
           color=LAYER_COLORS[0], label="edge (always exact)")
    for alpha, style in [(1, "o-"), (10_000, "^--"), (100_000, "s:"), (1_000_000, "x-.")]:
        rows = pick(r, "itch-rich", "mr", alpha)
        for layer in (1, 2):
            a.plot([x["filters"] for x in rows], [per_switch(x, layer, "ternary") for x in rows],
                   style, color=LAYER_COLORS[layer],
                   label=f"{names[layer]} α={alpha_label('itch', alpha)}")
    a.set(xscale="log", yscale="log", xlabel="filters (whole network)",
          ylabel="TCAM entries per switch", title="(c) itch-rich, MR: discretization α above the edge")
    a.grid(alpha=0.3, which="both")
    a.legend(fontsize=6, ncol=2)

    a = ax[1][0]
    sizes = sorted({x["filters"] for x in r["runs"] if x["workload"] != "ssbg"})
    for wl, marker in [("itch-simple", "o"), ("itch-rich", "s")]:
        for policy, ls in [("mr", "-"), ("tr", "--")]:
            for n in sizes[:2]:
                rows = [x for x in r["runs"] if x["workload"] == wl and x["policy"] == policy
                        and x["filters"] == n]
                rows.sort(key=lambda x: x["alpha"])
                if rows:
                    a.plot([alpha_label("itch", x["alpha"]) for x in rows],
                           [x["traffic"]["layers"][2]["extra_pct"] for x in rows], marker + ls,
                           label=f"{wl} {policy.upper()} {n} filters")
    a.set(xlabel="α (edge always exact)", ylabel="extra traffic sent by the cores (% of needed)",
          title="(d) extra traffic at the core vs α")
    a.grid(alpha=0.3)
    a.legend(fontsize=7)

    a = ax[1][1]
    for wl, ls in [("itch-rich", "-"), ("itch-simple", ":")]:
        for policy, marker in [("mr", "o"), ("tr", "s")]:
            for alpha in [1, 100_000]:
                rows = pick(r, wl, policy, alpha)
                a.plot([x["filters"] for x in rows], [x["compile_cpu_ms"] / 1000 for x in rows],
                       marker + ls, label=f"{wl} {policy.upper()} α={alpha_label('itch', alpha)}")
    a.set(xscale="log", yscale="log", xlabel="filters (whole network)",
          ylabel="CPU seconds (20 switches, one thread)",
          title="(e) compile time of the whole fabric")
    a.grid(alpha=0.3, which="both")
    a.legend(fontsize=7)

    a = ax[1][2]
    for policy, marker in [("mr", "o"), ("tr", "s")]:
        for alpha, ls in [(1, "-"), (100_000, "--")]:
            rows = pick(r, "itch-rich", policy, alpha)
            a.plot([x["filters"] for x in rows], [x["recompile"]["median_cpu_ms"] for x in rows],
                   marker + ls, label=f"{policy.upper()} α={alpha_label('itch', alpha)} (all)")
            a.plot([x["filters"] for x in rows],
                   [x["recompile"]["layers"][0]["median_cpu_ms"] for x in rows], marker + ":",
                   alpha=0.5, label=f"{policy.upper()} α={alpha_label('itch', alpha)} (edge only)")
    a.set(xscale="log", yscale="log", xlabel="filters (whole network)",
          ylabel="CPU ms per update (median)",
          title="(f) itch-rich: recompile after one subscription change")
    a.grid(alpha=0.3, which="both")
    a.legend(fontsize=6, ncol=2)

    fig.suptitle(f"Camus routing on the k=4 fat tree (20 switches, 16 hosts): "
                 f"{r['machine']['cpu']}, {r['machine']['nproc']} cores")
    fig.tight_layout()
    fig.savefig(png, dpi=105)


def markdown(r: dict) -> str:
    m = r["machine"]
    lines = [
        "# Camus routing on subscriptions in a fat tree (Figure 13)", "",
        f"`testbed/.venv/bin/python testbed/experiments/camus_routing.py run` → `nps compile "
        f"--policy mr|tr --topology fattree:4 --stats --eval --churn {r['churn']} --warmup`. "
        f"Machine: {m['cpu']}, {m['nproc']} cores; JVM {m['jvm']}, heap ≤ {m['max_heap_mb']} MB; "
        "one thread; every fabric compiled once untimed first (JIT warm-up). Times are the "
        "compiling thread's CPU time (wall time in parentheses): the machine is shared, and the "
        f"1-minute load average during the runs was {min(x.get('loadavg', 0) for x in r['runs']):.1f}"
        f"–{max(x.get('loadavg', 0) for x in r['runs']):.1f} on {m['nproc']} cores, which "
        "inflates wall times but not CPU times (garbage collection runs in other threads and is "
        "not in the CPU times).", "",
        "The k=4 fat tree of the test bed: 8 edge, 8 aggregation, 4 core switches, 16 hosts. "
        "Filters are spread over the hosts at random (`nps workload gen itch --hosts 16`). The edge "
        "layer always compiles the exact filters; α discretizes aggregation and core. α is in "
        "ITCH price units (4 implied decimals): $1 = 10 000. Memory is per switch, averaged over "
        "the layer: table entries (every field table and the leaf table) and TCAM entries (range "
        "entries expanded to prefixes). Traffic: "
        f"{r['events']} events, event i published by host h(i mod 16 + 1); a transmission is "
        "needed when some host behind its port (below a down port, beyond the switch for an up "
        "port) has a matching filter, by direct evaluation. Recompile: median of "
        f"{2 * r['churn']} updates (a random filter moves: its host withdraws it, then another "
        "random host subscribes it), all recompiled switches together and the edge layer alone.",
        "",
        "![Figure 13 on netpubsub](camus-routing.png)", ""]
    missed = sum(x["traffic"]["missed"] for x in r["runs"])
    dup = sum(x["traffic"]["duplicates"] for x in r["runs"])
    itch_unwanted = sum(x["traffic"]["unwanted"] for x in r["runs"] if x["workload"] != "ssbg")
    ssbg_unwanted = sum(x["traffic"]["unwanted"] for x in r["runs"] if x["workload"] == "ssbg")
    total = sum(x["traffic"]["expected_deliveries"] for x in r["runs"])
    lines += [f"Deliveries, checked against direct evaluation in all {len(r['runs'])} runs "
              f"({total} expected deliveries): {missed} missed, {dup} duplicated; the ITCH runs "
              f"delivered {itch_unwanted} unwanted copies (the edge's filters are exact, whatever "
              f"α does above it). The ssbg runs delivered {ssbg_unwanted} unwanted copies: string "
              "suffix and substring constraints have no table form, so the compiler widens them "
              "(a superset) even at the edge, and the receiving host filters them out.", ""]
    for wl in ["itch-simple", "itch-rich"]:
        lines += [f"## {wl}: memory per switch", "",
                  "| policy | α | filters | edge entries | agg entries | core entries | edge TCAM | "
                  "agg TCAM | core TCAM |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
        for policy in POLICIES:
            for alpha in ITCH_ALPHAS:
                for x in pick(r, wl, policy, alpha):
                    e = [f"{per_switch(x, l, 'entries'):,.0f}" for l in range(3)]
                    t = [f"{per_switch(x, l, 'ternary'):,.0f}" for l in range(3)]
                    lines.append(f"| {policy.upper()} | {alpha_label('itch', alpha)} | "
                                 f"{x['filters']:,} | " + " | ".join(e + t) + " |")
        lines.append("")
    lines += ["## Extra traffic sent by each layer (% of the needed transmissions)", "",
              "| workload | policy | α | filters | edge | aggregation | core | core sent |",
              "|---|---|---|---:|---:|---:|---:|---:|"]
    for wl in ["itch-simple", "itch-rich"]:
        for policy in POLICIES:
            for alpha in ITCH_ALPHAS:
                for x in pick(r, wl, policy, alpha):
                    ls = x["traffic"]["layers"]
                    lines.append(f"| {wl} | {policy.upper()} | {alpha_label('itch', alpha)} | "
                                 f"{x['filters']:,} | " +
                                 " | ".join(f"{l['extra_pct']:.1f}" for l in ls) +
                                 f" | {ls[2]['sent']} |")
    lines += ["", "## Compile and recompile times", "",
              "| workload | policy | α | filters | fabric compile, CPU (wall; GC) s | edge / agg / "
              "core, CPU s | recompile median, CPU (wall) ms | edge part, CPU ms | switches per "
              "update | table writes per update |",
              "|---|---|---|---:|---:|---|---:|---:|---:|---:|"]
    for wl in ["itch-simple", "itch-rich"]:
        for policy in POLICIES:
            for alpha in ITCH_ALPHAS:
                for x in pick(r, wl, policy, alpha):
                    per = " / ".join(f"{l['compile_cpu_ms'] / 1000:.2f}" for l in x["layers"])
                    c = x["recompile"]
                    lines.append(f"| {wl} | {policy.upper()} | {alpha_label('itch', alpha)} | "
                                 f"{x['filters']:,} | {x['compile_cpu_ms'] / 1000:.2f} "
                                 f"({x['compile_ms'] / 1000:.2f}; "
                                 f"{x.get('compile_gc_ms', 0) / 1000:.2f}) | {per} | "
                                 f"{c['median_cpu_ms']:.2f} ({c['median_ms']:.2f}) | "
                                 f"{c['layers'][0]['median_cpu_ms']:.2f} | "
                                 f"{c['switches_per_update']:.0f} | "
                                 f"{c['operations_per_update']:.1f} |")
    lines += ["", "## ssbg (3 attributes) saturates", "",
              "| policy | α | filters | entries per edge switch | per core switch | "
              "interested hosts per event | unwanted copies |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for policy in POLICIES:
        for alpha in SSBG_ALPHAS:
            for x in pick(r, "ssbg", policy, alpha):
                t = x["traffic"]
                lines.append(f"| {policy.upper()} | {alpha} | {x['filters']:,} | "
                             f"{per_switch(x, 0, 'entries'):,.1f} | "
                             f"{per_switch(x, 2, 'entries'):,.1f} | "
                             f"{t['expected_deliveries'] / t['events']:.1f} | {t['unwanted']} |")
    lines += ["", "ssbg filters include broad constraints (`!=`, one-constraint filters); a host "
              "with dozens of them subscribes, in union, to nearly everything, and the compiler's "
              "canonical BDD collapses the union to a handful of entries. Memory curves of ssbg "
              "filters per host therefore say little, so the figure uses ITCH.", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["run", "redraw"])
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)),
                    help="total filters per run, comma separated")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "camus-routing-cache"),
                    help="where finished runs are kept so that a rerun resumes (delete it to "
                         "measure afresh)")
    args = ap.parse_args()
    if args.what == "run":
        write(NAME, run([int(s) for s in args.sizes.split(",")], args.cache), plot, markdown)
    else:
        redraw(NAME, plot, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
