"""PLEROMA's false-positive rate (issue 4 measurements; paper Figures 8d, 8e and 8f).

  fpr         false-positive rate vs dz length for 1 000–16 000 subscriptions, uniform and Zipf,
              at the controller's cell budget (64 per subscription) and a generous one (1 024)
  dimensions  false-positive rate vs the number of indexed dimensions chosen by dimension
              selection, on three Zipf workloads with 4, 6 and 8 low-variance attributes of 10

Both run `nps bench fpr|dimensions --json` (pure computation, no root; the counts equal what the
configurator's flows deliver, see FalsePositiveRateTest) and write
docs/results/pleroma-{fpr,dimensions}.{json,md,png}.
  testbed/.venv/bin/python testbed/experiments/pleroma_fpr.py fpr|dimensions|all
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from results import write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NPS = os.path.join(ROOT, "nps")
BUDGETS = {64: "1000,2000,4000,8000,16000", 1024: "1000,4000,16000"}


def nps_json(*args: str) -> dict:
    """Runs an nps command; its progress lines pass through to stderr."""
    r = subprocess.run([NPS, *args, "--json"], stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(r.stdout)


def fpr() -> dict:
    runs = {}
    for cells, subs in BUDGETS.items():
        runs[str(cells)] = nps_json("bench", "fpr", "--max-cells", str(cells), "--subscriptions",
                                    subs)
    return {"machine": runs["64"]["machine"], "budgets": runs}


def plot_fpr(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    budgets = list(r["budgets"])
    fig, ax = plt.subplots(len(budgets), 2, figsize=(12, 4.2 * len(budgets)), squeeze=False)
    for row, cells in enumerate(budgets):
        rows = r["budgets"][cells]["results"]
        for col, model in enumerate(["uniform", "zipf"]):
            a = ax[row][col]
            for n in sorted({x["subscriptions"] for x in rows}):
                pts = [x for x in rows if x["model"] == model and x["subscriptions"] == n]
                a.plot([x["length"] for x in pts], [100 * x["fpr"] for x in pts], "o-",
                       label=f"{n} subscriptions")
            a.set(xlabel="dz length (bits)", ylabel="false-positive rate (%)", ylim=(0, 100),
                  title=f"{model}, at most {cells} cells per subscription")
            a.grid(alpha=0.3)
            a.legend(fontsize=8)
    fig.suptitle("PLEROMA Fig. 8d: false positives vs dz length (8 hosts, 4 attributes)")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def markdown_fpr(r: dict) -> str:
    first = r["budgets"]["64"]
    lines = ["# False-positive rate vs dz length (PLEROMA Fig. 8d)", "",
             "`testbed/.venv/bin/python testbed/experiments/pleroma_fpr.py fpr` → `nps bench fpr`. Machine: "
             f"{first['machine']['cpu']}, {first['machine']['nproc']} cores.", "",
             f"{first['hosts']} subscriber hosts, {first['attributes']} int attributes of domain "
             f"[0, 1023], {first['events']} events, seed {first['seed']}; uniform subscriptions go "
             "round-robin to the hosts, Zipf ones to the host of their hotspot. The rate is the "
             "share of the events the hosts receive that no subscription of the receiving host "
             "matches (one copy per host).", "",
             "![false-positive rate vs dz length](pleroma-fpr.png)", ""]
    for cells, run in r["budgets"].items():
        rows = run["results"]
        lengths = sorted({x["length"] for x in rows})
        lines += [f"## At most {cells} cells per subscription", "",
                  "| model | subscriptions | " + " | ".join(f"L={l}" for l in lengths) + " |",
                  "|---|---:|" + "---:|" * len(lengths)]
        for model in ["uniform", "zipf"]:
            for n in sorted({x["subscriptions"] for x in rows}):
                pts = {x["length"]: x["fpr"] for x in rows
                       if x["model"] == model and x["subscriptions"] == n}
                lines.append(f"| {model} | {n} | " +
                             " | ".join(f"{100 * pts[l]:.1f} %" for l in lengths) + " |")
        lines.append("")
    return "\n".join(lines)


def dimensions() -> dict:
    return nps_json("bench", "dimensions")


def plot_dimensions(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 2, figsize=(12, 4.2))
    for w in r["workloads"]:
        rows = w["results"]
        label = f"{w['restricted']} of {r['attributes']} attributes restricted"
        ax[0].plot([x["k"] for x in rows], [100 * x["fpr"] for x in rows], "o-", label=label)
        ax[1].plot([r["attributes"] - x["k"] for x in rows], [100 * x["benefit"] for x in rows],
                   "o-", label=label)
    ax[0].set(xlabel="indexed dimensions (best k by dimension selection)",
              ylabel="false-positive rate (%)", title="Fig. 8e: false positives vs dimensions")
    ax[1].set(xlabel="dimensions dropped", ylabel="false positives removed (%)",
              title="Fig. 8f: benefit of dimension selection")
    ax[1].axhline(0, color="grey", lw=0.8)
    for a in ax:
        a.grid(alpha=0.3)
        a.legend(fontsize=8)
    fig.suptitle(f"Zipf, 1 hotspot, {r['subscriptions']} subscriptions on {r['hosts']} hosts, "
                 f"dz length {r['length']}")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def markdown_dimensions(r: dict) -> str:
    lines = ["# Dimension selection (PLEROMA Fig. 8e, 8f)", "",
             "`testbed/.venv/bin/python testbed/experiments/pleroma_fpr.py dimensions` → `nps bench dimensions`. "
             f"Machine: {r['machine']['cpu']}, {r['machine']['nproc']} cores.", "",
             f"Zipf workloads with {r['hotspots']} hotspot, {r['attributes']} int attributes of "
             f"domain [0, 1023]; in each, the first r attributes stray at most "
             f"{r['narrow']:.0%} of the domain from the hotspot, so along them events match "
             f"nearly every subscription. {r['subscriptions']} subscriptions, divided equally "
             f"among {r['hosts']} hosts; {r['events']} events; dz length {r['length']}; at most "
             f"{r['max_cells']} cells per subscription. Dimension selection ranks the attributes "
             "by the variance of the per-dimension match counts; the best k are indexed, so "
             "fewer dimensions get more of the bits.", "",
             "![false positives vs indexed dimensions](pleroma-dimensions.png)", "",
             "| restricted | ranking | best k | FPR at best k | FPR with all | removed |",
             "|---:|---|---:|---:|---:|---:|"]
    for w in r["workloads"]:
        best = min(w["results"], key=lambda x: x["fpr"])
        ranking = ", ".join(x["attribute"] for x in w["ranking"])
        lines.append(f"| {w['restricted']} | {ranking} | {best['k']} | {100 * best['fpr']:.1f} % "
                     f"| {100 * w['results'][-1]['fpr']:.1f} % | {100 * best['benefit']:.0f} % |")
    lines += ["", "Dropping a discriminating dimension costs more than the bits it frees: below "
              "the best k the rate rises again (negative benefit).", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["fpr", "dimensions", "all"])
    args = ap.parse_args()
    if args.what in ("fpr", "all"):
        write("pleroma-fpr", fpr(), plot_fpr, markdown_fpr)
    if args.what in ("dimensions", "all"):
        write("pleroma-dimensions", dimensions(), plot_dimensions, markdown_dimensions)
    return 0


if __name__ == "__main__":
    sys.exit(main())
