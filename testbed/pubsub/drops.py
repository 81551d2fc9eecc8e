"""Where datagrams die on the test bed, counted by the kernel: the receive buffers of the packet
sockets through which ovs-vswitchd's userspace datapath reads each port (a switch port's input
queue: full when ovs-vswitchd is starved of CPU), and the UDP counters of a host's network
namespace (a subscriber's socket buffer full, a publisher's send refused).

Snapshots are dicts of counters; `delta` subtracts two of them, keeping the non-zero ones."""

from __future__ import annotations

import re
import subprocess

_SS_LINE = re.compile(r"\*:(\S+)\s.*users:\(\(\"ovs-vswitchd\".*skmem:\([^)]*\bd(\d+)\)")
UDP_KEYS = ("Udp6RcvbufErrors", "Udp6SndbufErrors", "Udp6InErrors")


def parse_packet_sockets(ss_text: str) -> dict[str, int]:
    """`ss -0 -m -p` → interface → drops of ovs-vswitchd's packet socket on it."""
    drops = {}
    for line in ss_text.splitlines():
        m = _SS_LINE.search(line)
        if m:
            drops[m.group(1)] = drops.get(m.group(1), 0) + int(m.group(2))
    return drops


def parse_snmp6(text: str) -> dict[str, int]:
    """/proc/PID/net/snmp6 → the UDP error counters of that process's network namespace."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in UDP_KEYS:
            out[parts[0]] = int(parts[1])
    return out


def switch_ports() -> dict[str, int]:
    r = subprocess.run(["ss", "-0", "-m", "-p"], capture_output=True, text=True, timeout=30)
    return parse_packet_sockets(r.stdout)


def host_udp(pids: dict[str, int]) -> dict[str, int]:
    """host → its namespace's UDP error counters (by the pid of a process in it), flattened
    as `host:Counter`; a process already gone counts nothing."""
    out = {}
    for host, pid in pids.items():
        try:
            with open(f"/proc/{pid}/net/snmp6") as f:
                counters = parse_snmp6(f.read())
        except OSError:
            continue
        out.update({f"{host}:{k}": v for k, v in counters.items()})
    return out


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: after[k] - before.get(k, 0) for k in sorted(after) if after[k] != before.get(k, 0)}
