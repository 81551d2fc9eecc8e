"""Open vSwitch: start it when needed, list/delete our bridges, wait for RSTP or controllers."""

from __future__ import annotations

import subprocess
import time

from . import naming
from .system import CommandError, log, run

OVS_CTL = "/usr/share/openvswitch/scripts/ovs-ctl"

# OVS's classifier tracks address prefixes only on the fields a table's Flow_Table row names, by
# default ip_dst,ip_src (IPv4). Without tracking on ipv6_dst, a megaflow of the userspace datapath
# matches the whole destination address, so every new content address (each event's own, in
# ff0e::/16) misses the cache and costs an upcall to ovs-vswitchd's slow path (docs/results/
# peers-upcalls.md: 7 319 → 16–210 upcalls in 2 000 events). Every table the controller may
# write (0–254, docs/architecture.md "Switch layout") gets it.
FLOW_TABLE_PREFIXES = "prefixes=ipv6_dst,ipv6_src"
FLOW_TABLES = range(255)


def prefix_tracking_args(bridge: str) -> list[str]:
    """ovs-vsctl arguments giving every table of `bridge` prefix tracking on the IPv6 addresses."""
    ft = f"@{bridge}ft"
    return ["--", f"--id={ft}", "create", "Flow_Table", FLOW_TABLE_PREFIXES,
            "--", "set", "Bridge", bridge, *[f"flow_tables:{t}={ft}" for t in FLOW_TABLES]]


def running() -> bool:
    try:
        run(["ovs-vsctl", "-t", "2", "show"], timeout=5)
        return True
    except (CommandError, OSError, subprocess.TimeoutExpired):
        return False


def ensure_running() -> None:
    """Starts ovsdb-server and ovs-vswitchd (userspace datapath: no kernel module is needed)."""
    if running():
        return
    log("starting Open vSwitch")
    run([OVS_CTL, "start", "--system-id=random"], check=False, timeout=120)
    deadline = time.monotonic() + 30
    while not running():
        if time.monotonic() > deadline:
            raise CommandError("Open vSwitch did not start (see /var/log/openvswitch/)")
        time.sleep(0.2)


def our_bridges() -> list[str]:
    out = run(["ovs-vsctl", "-t", "10", "list-br"], timeout=15)
    return [b for b in out.split() if b.startswith(naming.PREFIX)]


def delete_bridges(bridges: list[str]) -> None:
    """Deletes bridges in one OVSDB transaction."""
    if bridges:
        args = ["ovs-vsctl", "-t", "30"]
        for b in bridges:
            args += ["--", "--if-exists", "del-br", b]
        run(args, timeout=40)


def _rows(table: str, columns: str) -> list[dict[str, str]]:
    """`ovs-vsctl list` as dicts of raw column text."""
    out = run(["ovs-vsctl", "-t", "10", f"--columns={columns}", "list", table], timeout=15)
    rows, row = [], {}
    for line in out.splitlines():
        if not line.strip():
            if row:
                rows.append(row)
            row = {}
            continue
        key, _, value = line.partition(":")
        row[key.strip()] = value.strip()
    if row:
        rows.append(row)
    return rows


def rstp_settled(port_names: set[str]) -> bool:
    """True when every given port has an RSTP role and a stable state (forwarding, or discarding as
    alternate/backup): the spanning tree has converged."""
    seen = set()
    for row in _rows("Port", "name,rstp_status"):
        name = row.get("name", "").strip('"')
        if name not in port_names:
            continue
        status = row.get("rstp_status", "")
        seen.add(name)
        if "rstp_port_role=" not in status:
            return False
        role = status.split("rstp_port_role=")[1].split(",")[0].strip(' "}')
        state = status.split("rstp_port_state=")[1].split(",")[0].strip(' "}') if "rstp_port_state=" in status else ""
        stable = (role in ("Root", "Designated") and state == "Forwarding") or (
            role in ("Alternate", "Backup") and state == "Discarding") or role == "Disabled"
        if not stable:
            return False
    return seen == port_names


def connected_count(bridges: list[str]) -> int:
    """How many of the bridges are connected to (one of) their controllers."""
    connected = {r["_uuid"]: r.get("is_connected") == "true" for r in _rows("Controller", "_uuid,is_connected")}
    count = 0
    for row in _rows("Bridge", "name,controller"):
        if row.get("name", "").strip('"') in bridges:
            uuids = [u.strip() for u in row.get("controller", "").strip("[]").split(",") if u.strip()]
            count += any(connected.get(u) for u in uuids)
    return count


def wait(condition, timeout: float, what: str) -> bool:
    """Polls condition() every 0.2 s until true or timeout; logs and returns False on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() > deadline:
            log(f"gave up waiting for {what} after {timeout:.0f}s")
            return False
        time.sleep(0.2)
