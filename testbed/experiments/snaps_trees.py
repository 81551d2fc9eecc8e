"""SNAPS multicast trees: BSIDs per group with and without sharing (issue 8; SNAPS Figs. 5-7).

  fig5     average BSIDs per group as groups are added, up to 5000 groups of 40 members on TataNld
           (143 nodes, the largest Zoo network topohub ships with 50+ nodes: the paper's 197-node
           Cogentco is not there), random vs locality members, direct vs RP trees, sharing vs not
  fig6     the same against the group size, at 2000 groups
  fig7     the no-sharing/sharing ratio on every Zoo network of 50+ nodes, 3000 groups of 20
  border   fig5's last point with every node a border node instead of the periphery (degree <= 2)
  seeds    fig5's last point under two more seeds (how much the ratios move)

Runs `nps trees --json` (pure simulation, no root) and writes docs/results/snaps-trees.{json,md,png}.
  testbed/.venv/bin/python testbed/experiments/snaps_trees.py [--quick] [--only PART]...
(--only reruns the named parts and keeps the others from the existing JSON.)
"""

from __future__ import annotations

import argparse
import os

import results
from results import pick, table

BIG = "TataNld"
ZOO = ["Bellsouth", "Surfnet", "Iris", "Dfn", "HiberniaGlobal", "Forthnet", "Uninett2011",
       "Latnet", "Uninett2010", "Ulaknet", "VtlWavenet2008", "VtlWavenet2011", "TataNld"]
CASES = [(m, s) for m in ("random", "locality") for s in ("direct", "rp")]
SIZES = [5, 10, 20, 30, 40, 60, 80]


def trees(**opts) -> dict:
    return results.nps(["trees"], **opts)


def cases(**opts) -> list[dict]:
    return [trees(members=m, strategy=s, **opts) for m, s in CASES]


def parts(scale: float) -> dict:
    """Each part of the experiment: its name in the results and how to run it."""
    n5, n6, n7 = int(5000 * scale), int(2000 * scale), int(3000 * scale)
    return {
        "fig5": lambda: cases(topology=f"zoo:{BIG}", groups=n5, group_size=40,
                              checkpoint_every=max(1, n5 // 20)),
        "fig6": lambda: [r for size in SIZES
                         for r in cases(topology=f"zoo:{BIG}", groups=n6, group_size=size)],
        "fig7": lambda: [r for net in ZOO
                         for r in cases(topology=f"zoo:{net}", groups=n7, group_size=20)],
        "border": lambda: cases(topology=f"zoo:{BIG}", groups=n5, group_size=40, border="all"),
        "seeds": lambda: [r for seed in (2, 3)
                          for r in cases(topology=f"zoo:{BIG}", groups=n5, group_size=40,
                                         seed=seed)],
    }


def machine() -> dict:
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(x.split(":", 1)[1].strip() for x in f if x.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": cpu, "nproc": os.cpu_count()}


def one(rows, **eq):
    found = pick(rows, **eq)
    if len(found) != 1:
        raise ValueError(f"expected one row for {eq}, found {len(found)}")
    return found[0]


def label(m: str, s: str) -> str:
    return f"{m}, {'RP' if s == 'rp' else 'direct'}"


def plot(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(16, 13))
    grid = fig.add_gridspec(3, 3)
    colours = {"direct": "C0", "rp": "C3"}
    for col, m in enumerate(("random", "locality")):
        a = fig.add_subplot(grid[0, col])
        for s in ("direct", "rp"):
            cps = one(r["fig5"], members=m, strategy=s)["checkpoints"]
            xs = [c["groups"] for c in cps]
            a.plot(xs, [c["independent_per_group"] for c in cps], "--", color=colours[s],
                   label=f"{label(m, s)}, no sharing")
            a.plot(xs, [c["sharing_per_group"] for c in cps], "-", color=colours[s],
                   label=f"{label(m, s)}, sharing")
        a.set(xlabel="groups", ylabel="BSIDs per group", ylim=(0, None),
              title=f"Fig. 5({'ab'[col]}): {m} members, {BIG}, 40 per group")
        a.legend(fontsize=8)
        a.grid(alpha=0.3)
    a = fig.add_subplot(grid[0, 2])
    for m, s in CASES:
        cps = one(r["fig5"], members=m, strategy=s)["checkpoints"]
        a.plot([c["groups"] for c in cps], [c["ratio"] for c in cps],
               "-" if m == "locality" else "--", color=colours[s], label=label(m, s))
    a.set(xlabel="groups", ylabel="no sharing / sharing", title="Fig. 5(c): ratio")
    a.legend(fontsize=8)
    a.grid(alpha=0.3)
    for col, m in enumerate(("random", "locality")):
        a = fig.add_subplot(grid[1, col])
        for s in ("direct", "rp"):
            g = sorted(pick(r["fig6"], members=m, strategy=s), key=lambda x: x["group_size"])
            xs = [x["group_size"] for x in g]
            a.plot(xs, [x["independent_per_group"] for x in g], "s--", color=colours[s],
                   label=f"{label(m, s)}, no sharing")
            a.plot(xs, [x["sharing_per_group"] for x in g], "o-", color=colours[s],
                   label=f"{label(m, s)}, sharing")
        a.set(xlabel="group size", ylabel="BSIDs per group",
              title=f"Fig. 6: {m} members, {BIG}, {r['fig6'][0]['groups']} groups")
        a.legend(fontsize=8)
        a.grid(alpha=0.3)
    a = fig.add_subplot(grid[1, 2])
    for m, s in CASES:
        g = sorted(pick(r["fig6"], members=m, strategy=s), key=lambda x: x["group_size"])
        a.plot([x["group_size"] for x in g], [x["ratio"] for x in g],
               "o-" if m == "locality" else "s--", color=colours[s], label=label(m, s))
    a.set(xlabel="group size", ylabel="no sharing / sharing", title="Fig. 6: ratio")
    a.legend(fontsize=8)
    a.grid(alpha=0.3)
    a = fig.add_subplot(grid[2, :])
    nets = sorted({x["topology"] for x in r["fig7"]}, key=lambda t: one(
        r["fig7"], topology=t, members="random", strategy="direct")["nodes"])
    width = 0.8 / len(CASES)
    for k, (m, s) in enumerate(CASES):
        ys = [one(r["fig7"], topology=t, members=m, strategy=s)["ratio"] for t in nets]
        a.bar([i + (k - 1.5) * width for i in range(len(nets))], ys, width, label=label(m, s),
              color=colours[s], alpha=1 if m == "locality" else 0.5)
    a.set_xticks(range(len(nets)), [f"{t[4:]}\n{one(r['fig7'], topology=t, members='random', strategy='direct')['nodes']}"
                                    for t in nets], fontsize=8)
    a.axhspan(1.2, 2.2, color="grey", alpha=0.15, label="paper's 1.2-2.2×")
    a.set(ylabel="no sharing / sharing",
          title=f"Fig. 7: {r['fig7'][0]['groups']} groups of {r['fig7'][0]['group_size']}, "
                "Zoo networks of 50+ nodes (name, nodes)")
    a.legend(fontsize=8, ncol=5)
    a.grid(alpha=0.3, axis="y")
    fig.suptitle("SNAPS: BSIDs per group with and without sharing "
                 f"({r['machine']['nproc']}-core VM; periphery = degree ≤ 2 border nodes)")
    fig.tight_layout()
    fig.savefig(png, dpi=90)


def ratio_cols() -> list:
    return [(label(m, s), (lambda m, s: lambda x: f"{x[(m, s)]:.2f}×")(m, s)) for m, s in CASES]


def by_case(rows: list[dict], key: str) -> list[dict]:
    """Rows of `rows` grouped by `key`, each with the four cases' ratios under (members, strategy)."""
    out = {}
    for x in rows:
        row = out.setdefault(x[key], {key: x[key], "nodes": x["nodes"],
                                      "border_nodes": x["border_nodes"]})
        row[(x["members"], x["strategy"])] = x["ratio"]
    return list(out.values())


def markdown(r: dict) -> str:
    m = r["machine"]
    f5 = r["fig5"]
    lines = ["# SNAPS multicast trees: BSIDs with and without sharing (Figs. 5–7)", "",
             "`testbed/.venv/bin/python testbed/experiments/snaps_trees.py` → `nps trees` "
             f"(docs/multicast.md). Machine: {m['cpu']}, {m['nproc']} cores (a 2-core VM shared "
             "with other work); the simulation is single-threaded and pure, so the numbers do not "
             "depend on it, only the run time does.", "",
             "Each group is a root drawn uniformly from the border nodes and members among the "
             "other border nodes; its shortest-path tree (direct, or through the rendezvous point "
             "closest on average to the border nodes) is added to a registry that shares "
             "segments by Algorithm 1 (same node, same descendant-leaf set) and to one that does "
             "not. *BSIDs per group* = installed segments / groups added. Border nodes are the "
             "periphery (degree ≤ 2), since Zoo graphs carry no router roles; locality draws each "
             "next member with weight e^(-2d) (the paper's e^(2d) has the wrong sign). The "
             "paper's 197-node Cogentco is not among topohub's networks; TataNld (143 nodes, 90 "
             "on the periphery) is the largest there is and stands in for it. Seed 1 throughout.",
             "", "![plot](snaps-trees.png)", "",
             f"## Fig. 5: {f5[0]['groups']} groups of 40 on {BIG}", ""]
    lines += table(f5, [("members", lambda x: x["members"]),
                        ("strategy", lambda x: x["strategy"]),
                        ("RP", lambda x: x["rp"] or "-"),
                        ("tree nodes", lambda x: f"{x['avg_tree_nodes']:.1f}"),
                        ("BSIDs/group, no sharing", lambda x: f"{x['independent_per_group']:.2f}"),
                        ("BSIDs/group, sharing", lambda x: f"{x['sharing_per_group']:.2f}"),
                        ("after 1/20 of the groups", lambda x: f"{x['checkpoints'][0]['sharing_per_group']:.2f}"),
                        ("ratio", lambda x: f"{x['ratio']:.2f}×")])
    lines += ["", f"## Fig. 6: group size at {r['fig6'][0]['groups']} groups on {BIG}", ""]
    lines += table(by_case(r["fig6"], "group_size"),
                   [("group size", lambda x: str(x["group_size"]))] + ratio_cols())
    lines += ["", f"## Fig. 7: {r['fig7'][0]['groups']} groups of {r['fig7'][0]['group_size']} "
              "on the Zoo networks of 50+ nodes", ""]
    rows = sorted(by_case(r["fig7"], "topology"), key=lambda x: x["nodes"])
    lines += table(rows, [("network", lambda x: x["topology"][4:]),
                          ("nodes", lambda x: str(x["nodes"])),
                          ("periphery", lambda x: str(x["border_nodes"]))] + ratio_cols())
    if "border" in r:
        lines += ["", f"## Border nodes: every node instead of the periphery ({BIG}, as Fig. 5)",
                  ""]
        lines += table(by_case(r["border"], "topology"),
                       [("border nodes", lambda x: str(x["border_nodes"]))] + ratio_cols())
    if "seeds" in r:
        lines += ["", f"## Seeds ({BIG}, as Fig. 5)", ""]
        rows = by_case(f5 + r["seeds"], "seed")
        lines += table(rows, [("seed", lambda x: str(x["seed"]))] + ratio_cols())
    lo = min(x["ratio"] for x in r["fig7"] + f5)
    hi = max(x["ratio"] for x in r["fig7"] + f5)
    rd = one(f5, members="random", strategy="direct")
    lines += ["", "## Reading", "",
              f"**Goal.** Sharing saves {lo:.2f}–{hi:.2f}× the BSIDs over Figs. 5 and 7 "
              f"({min(x['ratio'] for x in f5):.2f}–{max(x['ratio'] for x in f5):.2f}× in Fig. 5's "
              f"setting), against the paper's 1.2–2.2×: at least the paper's savings in every case "
              "measured.", "",
              "**Trends** are the paper's. Without sharing the BSIDs per group stay flat as groups "
              f"are added ({rd['independent_per_group']:.1f} for random members on direct trees); "
              "with sharing they keep falling (from "
              f"{rd['checkpoints'][0]['sharing_per_group']:.1f} after "
              f"{rd['checkpoints'][0]['groups']} groups to {rd['sharing_per_group']:.1f} after "
              f"{rd['groups']}). Locality saves more than random members and RP more than direct "
              "trees (trees from different roots take the RP's shortest paths from where they meet "
              "them, so their subtrees coincide more often). "
              "Larger groups save more (Fig. 6), except that locality groups of 5 save a little "
              "more than groups of 10: a handful of neighbours repeats exactly.", "",
              "**Why more than the paper.** Members are drawn from the periphery, and 40 members "
              f"of {BIG}'s 89 candidates is almost half of them, so leaf sets below a node repeat "
              "often. With every node a border node the savings drop towards the paper's range "
              "(table above). The same effect dominates Fig. 7: HiberniaGlobal has only 23 "
              "periphery nodes, so groups of 20 take nearly all of them and almost every subtree "
              "repeats (about 17.5 BSIDs per group without sharing, 0.8–2.0 with). The paper sees "
              "smaller networks save more; so do we among the meshes (50–74 nodes against "
              f"{BIG}), but the hub-and-spoke networks save least: Ulaknet (one hub of degree 54) "
              "and Forthnet (hubs of degree 19 and 12) need only 2–6 BSIDs per group to begin "
              "with, mostly at the hubs, where the leaf set is the whole group and rarely repeats; "
              "there the RP is the hub every path crosses anyway, so RP and direct (nearly) coincide.", "",
              "Run time: each 5000-group run of Fig. 5 (both registries) took 2–7 s of one core; "
              "the whole experiment about 4 minutes, mostly JVM start-ups (96 runs)."]
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--quick", action="store_true", help="a tenth of the groups (a smoke run)")
    p.add_argument("--only", choices=sorted(parts(1)), action="append",
                   help="run only these parts and keep the others from the existing results")
    a = p.parse_args()
    todo = parts(0.1 if a.quick else 1)
    todo["machine"] = machine
    only = a.only + ["machine"] if a.only else None
    results.measure("snaps-trees", todo, only, plot, markdown)


if __name__ == "__main__":
    main()
