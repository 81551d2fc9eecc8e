#!/usr/bin/env python3
"""docs/results/rest-tls.png from rest-tls.json: the equal-load p99 of every run, per round, of the
last N measurements that have an equal-load phase (scripts/bench-rest --phases equal), one panel
each, titled with its time and load average (a 1-min load above 4 on this 2-CPU machine is marked
loaded: other sessions' work, not the benchmark's own processes).

Usage: testbed/.venv/bin/python scripts/plot_rest_tls.py [JSON] [PNG] [N]
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

src = sys.argv[1] if len(sys.argv) > 1 else "docs/results/rest-tls.json"
out = sys.argv[2] if len(sys.argv) > 2 else "docs/results/rest-tls.png"
last = int(sys.argv[3]) if len(sys.argv) > 3 else 2
shown = [m for m in json.load(open(src))["measurements"]
         if any(k.endswith("@rate") for k in m["runs"])][-last:]
fig, axes = plt.subplots(1, len(shown), figsize=(6.5 * len(shown), 4.2), squeeze=False)
for ax, m in zip(axes[0], shown):
    series = [k for k in m["runs"] if k.endswith("@rate")]
    loads = [float(r["load_avg_before"][0]) for k in series for r in m["runs"][k]]
    loaded = max(loads) > 4
    rounds = max(len(m["runs"][k]) for k in series)
    width = 0.8 / len(series)
    for i, k in enumerate(series):
        p99 = [r["p99_ms"] for r in m["runs"][k]]
        ax.bar([j + i * width for j in range(len(p99))], p99, width, label=k.replace("@rate", ""))
    ax.set_xticks([j + 0.4 - width / 2 for j in range(rounds)])
    ax.set_xticklabels([f"round {j + 1}" for j in range(rounds)])
    ax.set_yscale("log")
    ax.set_ylabel("p99 ms (log)")
    rate = m["runs"][series[0]][0].get("offered_requests_per_s")
    ax.set_title(f"{m['utc'][:16]}Z, {rate} req/s on 200 conns\n"
                 f"{'LOADED' if loaded else 'quiet'}: 1-min load {min(loads):.1f}-{max(loads):.1f}",
                 fontsize=10)
    ax.legend(fontsize=8)
fig.suptitle("GET /v1/topology at equal load: plain HTTP against HTTPS (rest-tls-equal-load.md)")
fig.tight_layout()
fig.savefig(out, dpi=90)
print(out)
