"""OVS's own floor for a subscription's flow changes (issue 22): flow-mods + barrier, no controller.

A raw OpenFlow 1.3 client (this file; no Java, no Netty) stands in for the controller: it takes
`--switches` userspace-datapath bridges (as the test bed makes them: netdev, secure, OVS's
default classifier; `--prefixes` adds the peers experiment's prefix tracking) and sends
`--requests` requests one after another, each `--mods` flow-mods spread over `--touch` random
bridges, each bridge's share followed by a barrier, written in one send per bridge. A request's
time is its first send → its last barrier reply, as the controller's `switches` stage measures
it. The flows stay (the tables grow as in pleroma_ovs.py's 1 000 subscriptions). What the
controller's `switches` stage adds above this floor is the controller's. `--nice -20` runs
ovs-vswitchd's threads and the client ahead of other processes for the measurement (OVS's own
time on a machine loaded by others; set back to 0 after).

  PYTHONPATH=testbed testbed/.venv/bin/python testbed/experiments/ovs_floor.py --out ovs-floor

Takes /tmp/nps-ovs.lock for the run. Needs root. With --out, writes docs/results/OUT.json.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import random
import socket
import struct
import subprocess
import sys
import time

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)

from nps_testbed import ovs  # noqa: E402

ROOT = os.path.dirname(TESTBED_DIR)
LOCK = "/tmp/nps-ovs.lock"
OFP13 = 4
HELLO, ECHO_REQ, ECHO_REP, FEATURES_REQ, FEATURES_REP = 0, 2, 3, 5, 6
FLOW_MOD, BARRIER_REQ, BARRIER_REP, ERROR = 14, 20, 21, 1


def header(kind: int, length: int, xid: int) -> bytes:
    return struct.pack("!BBHI", OFP13, kind, length, xid)


def flow_mod(xid: int, dst: bytes, port: int) -> bytes:
    """ADD in table 0: eth_type=0x86dd, ipv6_dst=dst/64 bits, apply-actions output:port."""
    oxm = struct.pack("!IH", 0x80000A02, 0x86DD)  # OXM_OF_ETH_TYPE
    oxm += struct.pack("!I", 0x80003720) + dst + bytes(8) + b"\xff" * 8 + bytes(8)  # IPV6_DST/64
    match = struct.pack("!HH", 1, 4 + len(oxm)) + oxm
    match += b"\x00" * ((8 - len(match) % 8) % 8)
    action = struct.pack("!HHIH6x", 0, 16, port, 0xFFFF)
    instr = struct.pack("!HH4x", 4, 8 + len(action)) + action
    body = struct.pack("!QQBBHHHIIIH2x", 0x22, 0, 0, 0, 0, 0, 1000, 0xFFFFFFFF, 0xFFFFFFFF,
                       0xFFFFFFFF, 0) + match + instr
    return header(FLOW_MOD, 8 + len(body), xid) + body


class Switch:
    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buf = b""
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(header(HELLO, 8, 1))
        self.read_until(HELLO)
        sock.sendall(header(FEATURES_REQ, 8, 2))
        body = self.read_until(FEATURES_REP)
        self.dpid = struct.unpack("!Q", body[:8])[0]

    def read_message(self) -> tuple[int, int, bytes]:
        while True:
            if len(self.buf) >= 8:
                _, kind, length, xid = struct.unpack("!BBHI", self.buf[:8])
                if len(self.buf) >= length:
                    body, self.buf = self.buf[8:length], self.buf[length:]
                    if kind == ECHO_REQ:
                        self.sock.sendall(header(ECHO_REP, 8 + len(body), xid) + body)
                        continue
                    if kind == ERROR:
                        raise RuntimeError(f"switch error {body[:4].hex()} for xid {xid}")
                    return kind, xid, body
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("switch closed the connection")
            self.buf += chunk

    def read_until(self, kind: int, xid: int | None = None) -> bytes:
        while True:
            k, x, body = self.read_message()
            if k == kind and (xid is None or x == xid):
                return body


def connect_all(listener: socket.socket, n: int) -> list[Switch]:
    """One handshaken connection per bridge; ovs-vswitchd drops and retries the first attempts
    while it is still configuring the bridges (`rconn: connection timed out`)."""
    by_dpid: dict[int, Switch] = {}
    while len(by_dpid) < n:
        sock = listener.accept()[0]
        sock.settimeout(10)
        try:
            sw = Switch(sock)
        except (OSError, RuntimeError):
            sock.close()
            continue
        sock.settimeout(None)
        old = by_dpid.pop(sw.dpid, None)
        if old:
            old.sock.close()
        by_dpid[sw.dpid] = sw
    return list(by_dpid.values())


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))]


def renice(nice: int) -> None:
    """Every thread of ovs-vswitchd and this process at `nice` (Linux: per thread)."""
    pids = subprocess.run(["pidof", "ovs-vswitchd"], capture_output=True, text=True).stdout.split()
    for pid in pids + [str(os.getpid())]:
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                os.setpriority(os.PRIO_PROCESS, int(tid), nice)
            except OSError:
                pass


def measure(args) -> dict:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    bridges = [f"nptfl{i}" for i in range(args.switches)]
    vsctl = ["ovs-vsctl", "-t", "30"]
    for b in bridges:
        vsctl += ["--", "--if-exists", "del-br", b, "--", "add-br", b, "--", "set", "Bridge", b,
                  "datapath_type=netdev", "fail_mode=secure", "protocols=OpenFlow13",
                  "other_config:disable-in-band=true",
                  *(ovs.prefix_tracking_args(b) if args.prefixes else []),
                  "--", "set-controller", b, f"tcp:127.0.0.1:{port}"]
    subprocess.run(vsctl, check=True, capture_output=True, timeout=60)
    try:
        listener.settimeout(30)
        switches = connect_all(listener, len(bridges))
        # ovs-vswitchd logs and applies the new bridges' table settings for a while after they
        # connect; the measured requests start once that is done (barrier round trips only)
        time.sleep(args.settle)
        rng = random.Random(1)
        xid = 100
        times, per_barrier = [], []
        load_before = open("/proc/loadavg").read().split()[:3]
        started = time.strftime("%H:%M:%S", time.gmtime())
        for i in range(args.requests + args.warm):
            touched = rng.sample(switches, min(args.touch, len(switches)))
            share = [args.mods // len(touched) + (1 if k < args.mods % len(touched) else 0)
                     for k in range(len(touched))]
            pending = []
            t0 = time.perf_counter()
            for sw, n in zip(touched, share):
                msg = b""
                for _ in range(n):
                    xid += 1
                    dst = b"\xff\x0e" + rng.randbytes(6)
                    msg += flow_mod(xid, dst, rng.randrange(1, 5))
                xid += 1
                msg += header(BARRIER_REQ, 8, xid)
                ts = time.perf_counter()
                sw.sock.sendall(msg)
                pending.append((sw, xid, ts))
            for sw, bx, ts in pending:
                sw.read_until(BARRIER_REP, bx)
                if i >= args.warm:
                    per_barrier.append((time.perf_counter() - ts) * 1000)
            if i >= args.warm:
                times.append((time.perf_counter() - t0) * 1000)
            if args.gap_ms:
                time.sleep(args.gap_ms / 1000)
        load_after = open("/proc/loadavg").read().split()[:3]
        q = {f"p{p}": round(percentile(times, p), 3) for p in (50, 90, 99)}
        q["max"] = round(max(times), 3)
        b = {f"p{p}": round(percentile(per_barrier, p), 3) for p in (50, 90, 99)}
        slow = sorted(range(len(times)), key=lambda k: -times[k])[: max(1, len(times) // 100)]
        return {"started_utc": started, "load_before": load_before, "load_after": load_after,
                "switches": args.switches, "touch": args.touch, "mods": args.mods,
                "requests": args.requests, "nice": args.nice, "prefixes": args.prefixes,
                "warm": args.warm, "gap_ms": args.gap_ms,
                "request_ms": q, "barrier_ms": b, "slowest_indices": sorted(slow),
                "flows_at_end": args.mods * (args.requests + args.warm)}
    finally:
        subprocess.run(["ovs-vsctl", "-t", "30", *sum((["--", "--if-exists", "del-br", b]
                                                        for b in bridges), [])],
                       capture_output=True, timeout=60)
        listener.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--switches", type=int, default=10)
    ap.add_argument("--touch", type=int, default=3, help="bridges a request touches")
    ap.add_argument("--mods", type=int, default=5, help="flow-mods per request (5.3 in the goal)")
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--warm", type=int, default=0, help="requests before the measured ones")
    ap.add_argument("--gap-ms", type=float, default=0.0, help="pause between requests")
    ap.add_argument("--prefixes", action="store_true",
                    help="prefix tracking on ipv6_dst/src in all 255 tables (the peers "
                         "experiment's; the test bed and pleroma_ovs.py run without)")
    ap.add_argument("--settle", type=float, default=3.0, help="seconds between connect and start")
    ap.add_argument("--nice", type=int, default=0,
                    help="run ovs-vswitchd and this client at this nice value (e.g. -20) for the "
                         "measurement, on a machine loaded by others; back to 0 after")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--out", help="docs/results/OUT.json")
    args = ap.parse_args()
    runs = []
    for r in range(args.rounds):
        with open(LOCK, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            ovs.ensure_running()
            if args.nice:
                renice(args.nice)  # OVS's own time, not the other processes' share of the CPU
            try:
                runs.append(measure(args))
            finally:
                if args.nice:
                    renice(0)
        print(json.dumps(runs[-1]), flush=True)
    if args.out:
        with open(os.path.join(ROOT, "docs", "results", args.out + ".json"), "w") as f:
            json.dump({"command": " ".join(sys.argv), "runs": runs}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
