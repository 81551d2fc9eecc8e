"""How long 20 Open vSwitch bridges take to connect again to a controller that gets little CPU
(issue 27 part 7; docs/testing-load-failures.md, "Load failures traced (stop 41)").

A k=4 fat tree (20 bridges) and `nps controller` as test_controller_fattree.py runs them
(OpenFlow over TLS unless NPS_TESTBED_OPENFLOW_TLS=0); once every switch is connected,
ovs-vswitchd restarts as that test restarts it (every bridge reconnects in the same millisecond),
or with `--restart-controller` the controller restarts on the same ports. `--quota N` moves the
controller JVM's threads into a cgroup-v1 CPU quota of N % of one core first: the share of a core
a process gets on a heavily loaded machine, the same in every run. Prints one JSON line: the
seconds after the restart at which each switch was seen connected (polled every 0.2 s), the
controller's CPU seconds meanwhile, its disconnects by reason, the load average.

  NPS_JAR=<jar> flock /tmp/nps-ovs.lock testbed/.venv/bin/python \
      testbed/experiments/ovs_reconnect.py --quota 4 --wait 70

Needs root, Open vSwitch, Mininet and /sys/fs/cgroup/cpu (cgroup v1) for --quota.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), os.path.join(os.path.dirname(HERE), "tests")]

from controller_process import Controller, free_port, network_up  # noqa: E402
from live import poll  # noqa: E402

OVS_CTL = "/usr/share/openvswitch/scripts/ovs-ctl"
CGROUP = "/sys/fs/cgroup/cpu/nps-ovs-reconnect"


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load() -> list[str]:
    return open("/proc/loadavg").read().split()[:3]


def limit_cpu(pid: int, percent: int) -> None:
    """Every thread of `pid` into a CFS quota of `percent` % of one core."""
    os.makedirs(CGROUP, exist_ok=True)
    with open(f"{CGROUP}/cpu.cfs_period_us", "w") as f:
        f.write("100000")
    with open(f"{CGROUP}/cpu.cfs_quota_us", "w") as f:
        f.write(str(percent * 1000))
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"{CGROUP}/tasks", "w") as f:
                f.write(tid)
        except OSError:
            pass  # a thread that ended meanwhile


def restart_vswitchd(c: Controller) -> None:
    with open("/run/openvswitch/ovs-vswitchd.pid") as f:
        old = f.read().strip()
    subprocess.run(["ovs-appctl", "-t", "ovs-vswitchd", "exit"], check=True, timeout=30)
    poll(lambda: not any(s["connected"] for s in c.get("/v1/topology")["switches"]), 20,
         "every switch seen disconnected")
    poll(lambda: not os.path.exists(f"/proc/{old}"), 30, "the old ovs-vswitchd gone")


def disconnects(c: Controller) -> list[str]:
    req = urllib.request.Request(c.api + "/metrics", headers=c.headers)
    text = urllib.request.urlopen(req, timeout=10).read().decode()
    return [line for line in text.splitlines()
            if "disconnects_total{" in line and not line.endswith(" 0.0")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quota", type=int, default=0, help="controller CPU, %% of one core (0: none)")
    ap.add_argument("--wait", type=float, default=90, help="seconds to wait for 20 switches")
    ap.add_argument("--restart-controller", action="store_true")
    a = ap.parse_args()
    c = Controller(free_port(), free_port())
    up = network_up(c, "fattree:4", 20)
    res: dict = {"load_before": load()}
    try:
        next(up)
        poll(lambda: all(s["connected"] for s in c.get("/v1/topology")["switches"]), 60,
             "20 switches connected")
        if a.restart_controller:
            ports = int(c.started["openflow"].rsplit(":", 1)[1]), int(c.api.rsplit(":", 1)[1])
            c.stop()
            t0 = time.monotonic()
            c = Controller(*ports)
            if a.quota:
                limit_cpu(c.proc.pid, a.quota)
        else:
            if a.quota:
                limit_cpu(c.proc.pid, a.quota)
            restart_vswitchd(c)
            t0 = time.monotonic()
            subprocess.run([OVS_CTL, "--no-ovsdb-server", "start"], check=True, timeout=120,
                           capture_output=True)
        cpu0 = cpu_seconds(c.proc.pid)
        seen: dict = {}
        while time.monotonic() - t0 < a.wait and len(seen) < 20:
            for s in c.get("/v1/topology")["switches"]:
                if s["connected"] and s["dpid"] not in seen:
                    seen[s["dpid"]] = round(time.monotonic() - t0, 2)
            time.sleep(0.2)
        res.update(connected=len(seen), times=sorted(seen.values()),
                   controller_cpu_s=round(cpu_seconds(c.proc.pid) - cpu0, 2),
                   disconnects=disconnects(c), load_after=load())
    finally:
        if a.quota and os.path.exists(CGROUP):
            with open(f"{CGROUP}/cpu.cfs_quota_us", "w") as f:
                f.write("-1")
        try:
            next(up)
        except StopIteration:
            pass
        c.stop()
    print(json.dumps(res))


if __name__ == "__main__":
    main()
