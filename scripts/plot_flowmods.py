"""Plots `nps bench flowmods --json` output: acknowledged flow-mods/s by batch size and target.

usage: plot_flowmods.py RESULT.json OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(result_path, out_path):
    data = json.load(open(result_path))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for target, colour in (("ovs", "#3b7dd8"), ("sim", "#d8813b")):
        rows = sorted((r for r in data["results"] if r["target"] == target), key=lambda r: r["batch"])
        if not rows:
            continue
        batches = [r["batch"] for r in rows]
        ax.plot(batches, [r["adds_per_second"] for r in rows], "o-", color=colour, label=f"{target} adds")
        ax.plot(batches, [r["deletes_per_second"] for r in rows], "s--", color=colour, label=f"{target} deletes")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("flow-mods per barrier (batch size)")
    ax.set_ylabel("acknowledged flow-mods / s")
    m = data["machine"]
    ax.set_title(f"Acknowledged flow-mods, {data['count']} flows\n{m['ovs']}, {m['nproc']} cores", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out_path, dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
