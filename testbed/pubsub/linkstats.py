"""Bytes per link of the test bed, from Open vSwitch port counters (`ovs-ofctl dump-ports`): a
link's traffic is what both of its ends transmitted; a host link's is what the switch port sent
to the host plus what it received from it."""

from __future__ import annotations

import re
import subprocess

_PORT = re.compile(r"port\s+(\d+):\s*rx pkts=(\d+|\?), bytes=(\d+|\?).*?\n\s*tx pkts=(\d+|\?), bytes=(\d+|\?)",
                   re.S)


def port_counters(bridge: str) -> dict[int, tuple[int, int, int, int]]:
    """port → (rx bytes, tx bytes, rx packets, tx packets) of one bridge."""
    out = subprocess.run(["ovs-ofctl", "-O", "OpenFlow13", "dump-ports", bridge],
                         capture_output=True, text=True, check=True, timeout=30).stdout
    counters = {}
    for m in _PORT.finditer(out):
        rx, tx, rxp, txp = (int(m.group(i)) if m.group(i) != "?" else 0 for i in (3, 5, 2, 4))
        counters[int(m.group(1))] = (rx, tx, rxp, txp)
    return counters


def snapshot(state: dict) -> dict[str, tuple[int, int, int, int]]:
    """Per switch port `sN:P` → (rx bytes, tx bytes, rx packets, tx packets)."""
    snap = {}
    for s in state["switches"]:
        for port, counters in port_counters(s["bridge"]).items():
            snap[f"{s['name']}:{port}"] = counters
    return snap


def link_bytes(state: dict, before: dict, after: dict, packets: bool = False) -> dict[str, int]:
    """Bytes (or packets) that crossed each link between two snapshots, both directions."""
    rx, tx = (2, 3) if packets else (0, 1)

    def delta(key: str, i: int) -> int:
        return after.get(key, (0,) * 4)[i] - before.get(key, (0,) * 4)[i]

    out = {}
    for link in state["links"]:
        a = f"{link['a']}:{link['a_port']}"
        if link["kind"] == "switch":
            b = f"{link['b']}:{link['b_port']}"
            out[f"{link['a']}-{link['b']}"] = delta(a, tx) + delta(b, tx)
        else:
            out[f"{link['a']}-{link['b']}"] = delta(a, rx) + delta(a, tx)
    return out
