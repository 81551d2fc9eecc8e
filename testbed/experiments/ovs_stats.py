"""What ovs-vswitchd did during a measurement: its threads' CPU time and its coverage counters,
as differences between two snapshots (issue 22, the OVS side of the response-time tail).

Thread CPU is read from /proc (no message to ovs-vswitchd, so reading it does not wake the main
loop); the coverage counters need one `ovs-appctl coverage/show` per snapshot, which does.
"""

from __future__ import annotations

import os
import re
import subprocess

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
COVERAGE_LINE = re.compile(r"^(\S+)\s+.*total:\s*(\d+)\s*$")


def vswitchd_pid() -> int | None:
    pids = subprocess.run(["pidof", "ovs-vswitchd"], capture_output=True, text=True).stdout.split()
    return int(pids[0]) if pids else None


def threads(pid: int) -> dict[str, dict[str, int]]:
    """Per thread (by name; same-named threads summed): CPU ms and context switches."""
    out: dict[str, dict[str, int]] = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:  # the thread ended between listdir and open
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        name = re.sub(r"\d+$", "", name) or name  # handler12, revalidator13 → handler, revalidator
        fields = stat[stat.rindex(")") + 2:].split()
        row = out.setdefault(name, {"cpu_ms": 0, "voluntary": 0, "involuntary": 0, "threads": 0})
        row["cpu_ms"] += (int(fields[11]) + int(fields[12])) * 1000 // CLOCK_TICKS
        row["voluntary"] += int(status["voluntary_ctxt_switches"])
        row["involuntary"] += int(status["nonvoluntary_ctxt_switches"])
        row["threads"] += 1
    return out


def coverage() -> dict[str, int]:
    r = subprocess.run(["ovs-appctl", "coverage/show"], capture_output=True, text=True, timeout=10)
    counts = {}
    for line in r.stdout.splitlines():
        m = COVERAGE_LINE.match(line.strip())
        if m:
            counts[m.group(1)] = int(m.group(2))
    return counts


def snapshot() -> dict:
    pid = vswitchd_pid()
    return {"threads": threads(pid) if pid else {}, "coverage": coverage()}


def difference(before: dict, after: dict) -> dict:
    """after − before, leaving out what did not change."""
    th = {}
    for name, row in after["threads"].items():
        old = before["threads"].get(name, {})
        d = {k: v - old.get(k, 0) for k, v in row.items() if k != "threads"}
        d["threads"] = row["threads"]
        if d["cpu_ms"] or d["voluntary"] or d["involuntary"]:
            th[name] = d
    cov = {k: v - before["coverage"].get(k, 0) for k, v in after["coverage"].items()
           if v != before["coverage"].get(k, 0)}
    return {"threads": th, "coverage": dict(sorted(cov.items(), key=lambda kv: -kv[1]))}


def main() -> int:
    """Samples every --every seconds until killed, one JSON line per sample (time, load,
    difference to the previous sample): beside a goal run, what OVS did while it ran."""
    import argparse
    import json
    import time
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--every", type=float, default=2.0)
    args = ap.parse_args()
    prev = snapshot()
    while True:
        time.sleep(args.every)
        now = snapshot()
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
        print(json.dumps({"utc": time.strftime("%H:%M:%S", time.gmtime()), "load": load,
                          **difference(prev, now)}), flush=True)
        prev = now


if __name__ == "__main__":
    raise SystemExit(main())
