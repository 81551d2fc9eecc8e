"""Turns a JMH JSON result into a Markdown table (with the machine it ran on) and a PNG chart.

usage: jmh_report.py RESULT.json OUT_PREFIX TITLE   → OUT_PREFIX.md, OUT_PREFIX.png
"""
import json
import os
import platform
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def machine():
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    return f"{cpu}, {os.cpu_count()} cores, {mem_gib:.0f} GiB, {platform.system()} {platform.release()}, {java[0] if java else 'java ?'}"


def label(run):
    name = run["benchmark"].rsplit(".", 2)
    params = ",".join(f"{k}={v}" for k, v in sorted(run.get("params", {}).items()))
    return f"{name[-2]}.{name[-1]}" + (f" [{params}]" if params else "")


def main(result_path, prefix, title):
    runs = json.load(open(result_path))
    rows = []
    for r in runs:
        m = r["primaryMetric"]
        rows.append((label(r), m["score"], m["scoreError"], m["scoreUnit"]))
    with open(prefix + ".md", "w") as f:
        f.write(f"# {title} (JMH)\n\n")
        f.write(f"Machine: {machine()}; load average when the report was written: "
                f"{open('/proc/loadavg').read().split()[0]} (other work on the 2 cores widens the errors).\n\n")
        f.write("Produced by `make bench` (`scripts/bench`): one fork, 3 warm-up and 5 measured "
                "iterations of 1 s. Errors are JMH's 99.9 % confidence half-widths.\n\n")
        f.write("| benchmark | score | ± | unit |\n| --- | ---: | ---: | --- |\n")
        for name, score, err, unit in rows:
            f.write(f"| {name} | {score:,.3f} | {err:,.3f} | {unit} |\n")
        f.write(f"\n![chart]({os.path.basename(prefix)}.png)\n")
    fig, ax = plt.subplots(figsize=(10, 0.4 * len(rows) + 1.5))
    names = [r[0] for r in rows]
    scores = [r[1] for r in rows]
    errs = [r[2] if r[2] == r[2] else 0 for r in rows]  # NaN when too few iterations
    ax.barh(names, scores, xerr=errs, color="#3b7dd8")
    ax.set_xscale("log")
    units = sorted({r[3] for r in rows})
    ax.set_xlabel(" / ".join(units) + " (log scale)")
    ax.invert_yaxis()
    ax.set_title(f"netpubsub: {title} — JMH")
    fig.tight_layout()
    fig.savefig(prefix + ".png", dpi=110)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
