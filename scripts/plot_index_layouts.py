"""Plots docs/results/index-layouts.json (`nps bench fpr --layout round-robin,learned` runs):
false-positive rate and edge flows against the dz length, per workload and cell budget, and for
runs with `--max-flows` the false-positive rate against the flows per edge switch (at the longest L).

usage: plot_index_layouts.py RESULTS.json OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(result_path, out_path):
    runs = json.load(open(result_path))["runs"]
    fig, (fp, flows, trade) = plt.subplots(1, 3, figsize=(16, 4.5))
    colours = ["#3b7dd8", "#d8813b", "#3bb26b", "#b23b8f", "#777777"]
    for i, run in enumerate(runs):
        colour = colours[i % len(colours)]
        for layout, style in (("round-robin", "s--"), ("learned", "o-")):
            label = f"{run['label']}, {layout}"
            mine = [r for r in run["results"] if r["layout"] == layout]
            longest = max((r["length"] for r in mine), default=0)
            curve = sorted((r for r in mine if r["length"] == longest),
                           key=lambda r: r["edge_flows_max"])
            if any(r.get("max_flows", 0) for r in curve):
                trade.plot([r["edge_flows_max"] for r in curve], [r["fpr"] for r in curve], style,
                           color=colour, label=f"{label}, L={longest}")
            rows = sorted((r for r in run["results"]
                           if r["layout"] == layout and r.get("max_flows", 0) == 0),
                          key=lambda r: r["length"])
            if not rows:
                continue
            x = [r["length"] for r in rows]
            fp.plot(x, [r["fpr"] for r in rows], style, color=colour, label=label)
            flows.plot(x, [r["edge_flows_max"] for r in rows], style, color=colour, label=label)
    fp.set_yscale("log")
    fp.set_xlabel("dz length L (bits)")
    fp.set_ylabel("false-positive rate (share of deliveries)")
    flows.set_yscale("log")
    flows.set_xlabel("dz length L (bits)")
    flows.set_ylabel("flows on a subscriber's edge switch (max over hosts)")
    trade.set_xscale("log")
    trade.set_yscale("log")
    trade.set_xlabel("flows per edge switch (max over hosts; --max-flows)")
    trade.set_ylabel("false-positive rate")
    trade.legend(fontsize=7)
    for ax in (fp, flows, trade):
        ax.grid(True, which="both", alpha=0.3)
    fp.legend(fontsize=7)
    fig.suptitle("Index layouts: round-robin (PLEROMA) vs learned (nps index design)", fontsize=10)
    fig.tight_layout()
    fig.savefig(out_path, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
