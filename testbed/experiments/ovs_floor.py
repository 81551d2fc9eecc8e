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

`--links N` cables the bridges with veth pairs and probes each cabled port as the controller's
discovery does (`--probe-hz`); `--dp-flows N` sends N events over them after the warm requests,
leaving datapath flows for the revalidator; `--stats` records ovs-vswitchd's thread CPU and
coverage counters over the measured requests; `--variant NAME=ITEM;...` (parse_variant) compares
OVS settings, bundles instead of barriers, or probe patterns, alternating A B, B A per round.

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
import statistics
import struct
import subprocess
import sys
import time

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)

from nps_testbed import ovs  # noqa: E402
import ovs_stats  # noqa: E402

ROOT = os.path.dirname(TESTBED_DIR)
LOCK = "/tmp/nps-ovs.lock"
OFP13 = 4
HELLO, ECHO_REQ, ECHO_REP, FEATURES_REQ, FEATURES_REP = 0, 2, 3, 5, 6
FLOW_MOD, BARRIER_REQ, BARRIER_REP, ERROR, EXPERIMENTER = 14, 20, 21, 1, 4
PACKET_OUT, OFPP_CONTROLLER = 13, 0xFFFFFFFD
# An LLDP-like probe as the controller sends one per cabled port per probe interval: the
# nearest-bridge address and EtherType, padded to the minimum frame.
LLDP_FRAME = bytes.fromhex("0180c200000e" "020000000001" "88cc") + bytes(46)
# OpenFlow 1.3's bundles are ONF extension 230 (the OF 1.4 bundle messages as experimenter
# messages), which ovs-vswitchd implements: adds to an unknown bundle id open it.
ONF_EXPERIMENTER, BUNDLE_CONTROL, BUNDLE_ADD = 0x4F4E4600, 2300, 2301
BUNDLE_COMMIT_REQUEST, BUNDLE_COMMIT_REPLY, BUNDLE_ATOMIC_ORDERED = 4, 5, 3


def header(kind: int, length: int, xid: int) -> bytes:
    return struct.pack("!BBHI", OFP13, kind, length, xid)


def flow_mod(xid: int, dst: bytes, port: int) -> bytes:
    """ADD in table 0: eth_type=0x86dd, ipv6_dst=dst/64 bits, apply-actions output:port."""
    oxm = struct.pack("!IH", 0x80000A02, 0x86DD)  # OXM_OF_ETH_TYPE
    oxm += struct.pack("!I", 0x80003720) + dst + bytes(8) + b"\xff" * 8 + bytes(8)  # IPV6_DST/64
    return _add_output(xid, oxm, port, cookie=0x22, priority=1000)


def _add_output(xid: int, oxm: bytes, port: int, cookie: int, priority: int) -> bytes:
    """An ADD in table 0 matching `oxm` (OXM TLVs), apply-actions output:port."""
    match = struct.pack("!HH", 1, 4 + len(oxm)) + oxm
    match += b"\x00" * ((8 - len(match) % 8) % 8)
    action = struct.pack("!HHIH6x", 0, 16, port, 0xFFFF)
    instr = struct.pack("!HH4x", 4, 8 + len(action)) + action
    body = struct.pack("!QQBBHHHIIIH2x", cookie, 0, 0, 0, 0, 0, priority, 0xFFFFFFFF, 0xFFFFFFFF,
                       0xFFFFFFFF, 0) + match + instr
    return header(FLOW_MOD, 8 + len(body), xid) + body


def bundle(xid: int, bundle_id: int, messages: list[bytes]) -> bytes:
    """The messages added to bundle `bundle_id` and the bundle committed (atomic, ordered): one
    new flow-table version for all of them, where separate flow-mods make one each."""
    out = b""
    for m in messages:  # an add's xid must be its message's (OFPBFC_MSG_BAD_XID otherwise)
        body = struct.pack("!IIIHH", ONF_EXPERIMENTER, BUNDLE_ADD, bundle_id, 0,
                           BUNDLE_ATOMIC_ORDERED) + m
        out += header(EXPERIMENTER, 8 + len(body), struct.unpack("!I", m[4:8])[0]) + body
    body = struct.pack("!IIIHH", ONF_EXPERIMENTER, BUNDLE_CONTROL, bundle_id,
                       BUNDLE_COMMIT_REQUEST, BUNDLE_ATOMIC_ORDERED)
    return out + header(EXPERIMENTER, 8 + len(body), xid) + body


def _offsets(msgs: bytes):
    """Start of each OpenFlow message in a concatenation of them."""
    k = 0
    while k < len(msgs):
        yield k
        k += struct.unpack("!H", msgs[k + 2:k + 4])[0]


def parse_variant(spec: str) -> dict:
    """NAME=ITEM;ITEM... with ITEM one of: global:KEY=VALUE (Open_vSwitch other_config, removed
    after the run), bridge:COLUMN=VALUE or controller:COLUMN=VALUE (ovs-vsctl set arguments for
    every bridge or its Controller row), bundle (a bundle commit per switch, no barrier)."""
    name, _, items = spec.partition("=")
    v = {"name": name, "global": [], "bridge": [], "controller": [], "bundle": False,
         "probe_hz": None, "spread": False, "prefixes": False, "dp_flows": None}
    for item in filter(None, items.split(";")):
        kind, _, rest = item.partition(":")
        if kind == "global":
            v["global"].append(tuple(rest.split("=", 1)))
        elif kind in ("bridge", "controller"):
            v[kind].append(rest)
        elif kind == "bundle":
            v["bundle"] = True
        elif kind == "probe-hz":  # discovery probes per second (0: none), for this variant
            v["probe_hz"] = float(rest)
        elif kind == "dp-flows":  # --dp-flows for this variant
            v["dp_flows"] = int(rest)
        elif kind == "prefixes":  # prefix tracking on ipv6_dst/src, all tables
            v["prefixes"] = True
        elif kind == "spread":  # one port's probe at a time, evenly over the interval
            v["spread"] = True
        else:
            raise SystemExit(f"--variant {spec}: unknown item {item!r}")
    return v


def lldp_to_controller(xid: int) -> bytes:
    """ADD in table 0: eth_type=0x88cc → CONTROLLER, as the controller's discovery flow."""
    oxm = struct.pack("!IH", 0x80000A02, 0x88CC)  # OXM_OF_ETH_TYPE
    return _add_output(xid, oxm, OFPP_CONTROLLER, cookie=0x11, priority=2000)


def packet_out(xid: int, port: int, frame: bytes = LLDP_FRAME) -> bytes:
    action = struct.pack("!HHIH6x", 0, 16, port, 0)
    body = struct.pack("!IIH6x", 0xFFFFFFFF, OFPP_CONTROLLER, len(action)) + action + frame
    return header(PACKET_OUT, 8 + len(body), xid) + body


def event_frame(dst: bytes) -> bytes:
    """An IPv6 packet (no payload) to the content address dst, as a publisher's event."""
    ip = struct.pack("!IHBB", 6 << 28, 0, 59, 64) + bytes.fromhex("fe80" + "00" * 13 + "01") + dst
    return b"\x33\x33" + dst[-4:] + bytes.fromhex("020000000002") + b"\x86\xdd" + ip


def make_dp_flows(switches: list, ofports: dict, n: int, rng: random.Random) -> int:
    """n events to distinct content addresses sent over the links, so that the peers' upcalls
    leave datapath flows (a publish phase's, as before the goal's subscriptions); returns the
    datapath's flow count after."""
    cabled = [(sw, p) for sw in switches for p in ofports.get(sw.dpid - 1, [])]
    for k in range(n):
        sw, p = cabled[k % len(cabled)]
        dst = b"\xff\x0e" + rng.randbytes(14)
        sw.sock.sendall(packet_out(70, p, event_frame(dst)))
    for sw in switches:  # every packet-out handled (and its peer's upcall very likely too)
        sw.sock.sendall(header(BARRIER_REQ, 8, 71))
        sw.read_until(BARRIER_REP, 71)
    count, deadline = -1, time.monotonic() + 5
    while time.monotonic() < deadline:  # the peers read their sockets after the barriers
        out = subprocess.run(["ovs-appctl", "dpctl/dump-flows"], capture_output=True, text=True,
                             timeout=30).stdout
        now = sum(1 for line in out.splitlines() if line.strip())
        if now == count:
            break
        count = now
        time.sleep(0.3)
    return count


def cabling(n_switches: int, n_links: int) -> list[tuple[int, int]]:
    """Bridge pairs joined by a veth link: a ring, then chords (the goal bed has 16 links on 10)."""
    if n_links > n_switches * (n_switches - 1) // 2:
        raise SystemExit(f"--links {n_links}: at most {n_switches * (n_switches - 1) // 2} "
                         f"between {n_switches} bridges")
    pairs: list[tuple[int, int]] = []
    seen: set[frozenset] = set()
    for step in range(1, n_switches):
        for a in range(n_switches):
            b = (a + step) % n_switches
            if len(pairs) < n_links and frozenset((a, b)) not in seen:
                seen.add(frozenset((a, b)))
                pairs.append((a, b))
    return pairs


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


def measure(args, variant: dict) -> dict:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    bridges = [f"nptfl{i}" for i in range(args.switches)]
    vsctl = ["ovs-vsctl", "-t", "30"]
    for b in bridges:
        vsctl += ["--", "--if-exists", "del-br", b,
                  "--", f"--id=@{b}c", "create", "Controller", f'target="tcp:127.0.0.1:{port}"',
                  *variant["controller"],
                  "--", "add-br", b, "--", "set", "Bridge", b,
                  "datapath_type=netdev", "fail_mode=secure", "protocols=OpenFlow13",
                  "other_config:disable-in-band=true", f"controller=@{b}c", *variant["bridge"],
                  *(ovs.prefix_tracking_args(b) if args.prefixes or variant["prefixes"]
                    else [])]
        for k in range(args.ports):  # down: no traffic, but ports to poll and count statistics of
            vsctl += ["--", "add-port", b, f"{b}p{k}", "--", "set", "Interface", f"{b}p{k}",
                      "type=internal"]
    links = cabling(len(bridges), args.links)
    ofports: dict[int, list[int]] = {}  # bridge index → its cabled OpenFlow ports
    for li, (a, b) in enumerate(links):
        for end, (i, peer) in enumerate(((a, b), (b, a))):
            name = f"nptfv{li}{'ab'[end]}"
            ofport = 100 + len(ofports.setdefault(i, []))
            ofports[i].append(ofport)
            vsctl += ["--", "add-port", bridges[i], name, "--", "set", "Interface", name,
                      f"ofport_request={ofport}"]
        subprocess.run(["ip", "link", "del", f"nptfv{li}a"], capture_output=True)
        subprocess.run(["ip", "link", "add", f"nptfv{li}a", "type", "veth", "peer", "name",
                        f"nptfv{li}b"], check=True, capture_output=True)
        for end in "ab":  # switch ports, as the test bed's: no IPv6 of their own, up
            with open(f"/proc/sys/net/ipv6/conf/nptfv{li}{end}/disable_ipv6", "w") as f:
                f.write("1")
            subprocess.run(["ip", "link", "set", f"nptfv{li}{end}", "up"], check=True)
    for i, b in enumerate(bridges):  # the index in the dpid: cabled ports by connection
        vsctl += ["--", "set", "Bridge", b, f"other_config:datapath-id={i + 1:016x}"]
    for key, value in variant["global"]:
        vsctl += ["--", "set", "Open_vSwitch", ".", f"other_config:{key}={value}"]
    subprocess.run(vsctl, check=True, capture_output=True, timeout=60)
    try:
        listener.settimeout(30)
        switches = connect_all(listener, len(bridges))
        # ovs-vswitchd logs and applies the new bridges' table settings for a while after they
        # connect; the measured requests start once that is done (barrier round trips only)
        time.sleep(args.settle)
        if links:
            for sw in switches:
                sw.sock.sendall(lldp_to_controller(50) + header(BARRIER_REQ, 8, 51))
                sw.read_until(BARRIER_REP, 51)
        dp_flows = None
        next_probe = time.perf_counter()
        probes = 0
        hz = args.probe_hz if variant["probe_hz"] is None else variant["probe_hz"]
        # (switch, port) in probing order; a burst sends them all at a tick, spread one per step
        schedule = [(sw, p) for sw in switches for p in ofports.get(sw.dpid - 1, [])]
        step = 1 / (hz * len(schedule)) if hz and schedule and variant["spread"] else None
        rng = random.Random(1)
        xid = 100
        times, per_barrier = [], []
        stats_before = ovs_stats.snapshot() if args.stats else None
        load_before = open("/proc/loadavg").read().split()[:3]
        started = time.strftime("%H:%M:%S", time.gmtime())
        for i in range(args.requests + args.warm):
            n_events = args.dp_flows if variant["dp_flows"] is None else variant["dp_flows"]
            if i == args.warm and links and n_events:
                # after the warm requests: with no IPv6 flows in the table yet, one megaflow
                # per port would cover every event (ipv6_dst wildcarded)
                dp_flows = make_dp_flows(switches, ofports, n_events, random.Random(2))
                if args.stats:
                    stats_before = ovs_stats.snapshot()
            while step and time.perf_counter() >= next_probe:  # spread: the ports due by now
                sw, p = schedule[probes % len(schedule)]
                sw.sock.sendall(packet_out(60, p))
                probes += 1
                next_probe += step
            if schedule and hz and not step and time.perf_counter() >= next_probe:
                # every cabled port probed at one tick, as the controller's discovery does; the
                # packet-ins come back on the peers' connections and are read with the replies
                next_probe += 1 / hz
                for sw in switches:
                    ports = ofports.get(sw.dpid - 1, [])
                    if ports:
                        sw.sock.sendall(b"".join(packet_out(60, p) for p in ports))
                        probes += len(ports)
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
                if variant["bundle"]:  # a commit per switch instead of a barrier
                    msg = bundle(xid, xid, [msg[k:k + struct.unpack("!H", msg[k + 2:k + 4])[0]]
                                            for k in _offsets(msg)])
                else:
                    msg += header(BARRIER_REQ, 8, xid)
                ts = time.perf_counter()
                sw.sock.sendall(msg)
                pending.append((sw, xid, ts))
            for sw, bx, ts in pending:
                sw.read_until(EXPERIMENTER if variant["bundle"] else BARRIER_REP, bx)
                if i >= args.warm:
                    per_barrier.append((time.perf_counter() - ts) * 1000)
            if i >= args.warm:
                times.append((time.perf_counter() - t0) * 1000)
            if args.gap_ms:
                time.sleep(args.gap_ms / 1000)
        load_after = open("/proc/loadavg").read().split()[:3]
        stats = ovs_stats.difference(stats_before, ovs_stats.snapshot()) if args.stats else None
        q = {f"p{p}": round(percentile(times, p), 3) for p in (50, 90, 99)}
        q["max"] = round(max(times), 3)
        b = {f"p{p}": round(percentile(per_barrier, p), 3) for p in (50, 90, 99)}
        slow = sorted(range(len(times)), key=lambda k: -times[k])[: max(1, len(times) // 100)]
        return {"variant": variant["name"], "started_utc": started, "load_before": load_before,
                "load_after": load_after, "switches": args.switches, "ports": args.ports, "touch": args.touch, "mods": args.mods,
                "requests": args.requests, "nice": args.nice, "prefixes": args.prefixes or variant["prefixes"],
                "warm": args.warm, "gap_ms": args.gap_ms,
                "request_ms": q, "barrier_ms": b, "slowest_indices": sorted(slow),
                "flows_at_end": args.mods * (args.requests + args.warm), "ovs": stats,
                "links": len(links), "probe_hz": hz, "spread": variant["spread"],
                "probes_sent": probes, "dp_flows_before": dp_flows}
    finally:
        if variant["global"]:
            subprocess.run(["ovs-vsctl", "-t", "30", "remove", "Open_vSwitch", ".", "other_config",
                            *[k for k, _ in variant["global"]]], capture_output=True, timeout=60)
        subprocess.run(["ovs-vsctl", "-t", "30", *sum((["--", "--if-exists", "del-br", b]
                                                        for b in bridges), [])],
                       capture_output=True, timeout=60)
        listener.close()
        for li in range(len(links)):
            subprocess.run(["ip", "link", "del", f"nptfv{li}a"], capture_output=True)


def summary(runs: list[dict]) -> None:
    """Per variant: the median over its runs of p50/p90/p99, and p99's ratio to the first's."""
    by: dict[str, list[dict]] = {}
    for r in runs:
        by.setdefault(r["variant"], []).append(r["request_ms"])
    med = {n: {p: statistics.median(q[p] for q in qs) for p in ("p50", "p90", "p99")}
           for n, qs in by.items()}
    first = next(iter(med.values()))
    for n, m in med.items():
        print(f"{n}: median of {len(by[n])} runs p50 {m['p50']:.2f} p90 {m['p90']:.2f} "
              f"p99 {m['p99']:.2f} ms (p99 x{m['p99'] / first['p99']:.2f})", flush=True)


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
    ap.add_argument("--ports", type=int, default=0,
                    help="internal ports per bridge, left down (the goal bed has 40 on 10 bridges)")
    ap.add_argument("--links", type=int, default=0,
                    help="veth links between the bridges (the goal bed: 16), each port probed by "
                         "an LLDP packet-out --probe-hz times a second, its peer's packet-in read")
    ap.add_argument("--probe-hz", type=float, default=1.0,
                    help="discovery probes per second (the test bed's controller: 1 s interval)")
    ap.add_argument("--dp-flows", type=int, default=0,
                    help="with --links: events to N distinct content addresses after the warm "
                         "requests, leaving datapath flows for the revalidator to revisit")
    ap.add_argument("--stats", action="store_true",
                    help="record ovs-vswitchd's thread CPU and coverage counters over the requests")
    ap.add_argument("--variant", action="append", default=[],
                    help="NAME=ITEM;... OVS settings to compare, alternating (see parse_variant)")
    ap.add_argument("--out", help="docs/results/OUT.json")
    args = ap.parse_args()
    variants = [parse_variant(v) for v in args.variant] or [parse_variant("default=")]
    runs = []
    for r in range(args.rounds):
        for variant in variants if r % 2 == 0 else variants[::-1]:  # alternating: A B, B A
            with open(LOCK, "a") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                ovs.ensure_running()
                if args.nice:
                    renice(args.nice)  # OVS's own time, not the other processes' share of the CPU
                try:
                    runs.append(measure(args, variant))
                finally:
                    if args.nice:
                        renice(0)
            print(json.dumps(runs[-1]), flush=True)
    summary(runs)
    if args.out:
        with open(os.path.join(ROOT, "docs", "results", args.out + ".json"), "w") as f:
            json.dump({"command": " ".join(sys.argv), "runs": runs}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
