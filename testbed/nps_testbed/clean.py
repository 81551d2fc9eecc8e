"""Removes everything the test bed ever created, whether `up` stopped cleanly or was killed -9.

What is ours: OVS bridges and root-namespace links named npt*, Mininet node shells whose command
line carries 'mininet:npt', and every process in a network namespace that is a host's (its shell
is ours, or it holds an address of our ULA range on eth0/mgmt0 — that catches namespaces whose
shell died while a process started with `exec` still holds them). The same sweep is `up`'s
normal teardown, so the crash path is the path every run takes.
"""

from __future__ import annotations

import os
import signal
import time

from . import naming, ovs, state
from .system import alive, cmdline, ip_batch, link_names, log, netns_inode, pids


def sweep(stop_up: bool = True) -> dict:
    """Removes our processes, bridges, links and files; returns what it removed. Idempotent."""
    summary = {"up_stopped": stop_up and _stop_up(), "processes": 0, "bridges": 0, "links": 0}
    bridges = ovs.our_bridges() if ovs.running() else []
    ovs.delete_bridges(bridges)
    summary["bridges"] = len(bridges)
    summary["processes"] = _kill_namespace_processes()
    summary["links"] = _delete_links()
    summary["files"] = state.remove_files()
    return summary


def leftovers() -> dict:
    """What of ours still exists (for tests and for `clean --check`)."""
    return {
        "bridges": ovs.our_bridges() if ovs.running() else [],
        "links": [n for n in link_names() if naming.is_ours(n)],
        "processes": sorted(_our_processes()),
        "files": [p for p in (state.STATE_FILE, state.PID_FILE) if os.path.exists(p)],
    }


def _stop_up() -> bool:
    """Stops a running `up` process: SIGTERM (it tears down itself), SIGKILL after 20 s."""
    pid = state.read_pid()
    if not pid or pid == os.getpid() or not alive(pid) or not _is_up_process(pid):
        return False
    os.kill(pid, signal.SIGTERM)
    if not _wait_gone([pid], 20):
        os.kill(pid, signal.SIGKILL)
        _wait_gone([pid], 5)
    return True


def _is_up_process(pid: int) -> bool:
    args = cmdline(pid)
    return any("nps-testbed" in a or "nps_testbed" in a for a in args) and "up" in args


def _our_processes() -> set[int]:
    root = netns_inode(os.getpid())
    me = os.getpid()
    shells, by_ns = set(), {}
    for pid in pids():
        if pid == me:
            continue
        ns = netns_inode(pid)
        if ns is None:
            continue
        by_ns.setdefault(ns, []).append(pid)
        if any(a.startswith(f"mininet:{naming.PREFIX}") for a in cmdline(pid)):
            shells.add(pid)
    ours = {netns_inode(p) for p in shells}
    for ns, members in by_ns.items():
        if ns != root and ns not in ours and _has_our_address(members[0]):
            ours.add(ns)
    ours.discard(root)
    ours.discard(None)
    return shells | {p for ns in ours for p in by_ns.get(ns, [])}


def _has_our_address(pid: int) -> bool:
    """Does the process's network namespace hold one of our ULA addresses on eth0 or mgmt0?"""
    try:
        with open(f"/proc/{pid}/net/if_inet6") as f:
            for line in f:
                fields = line.split()
                if len(fields) == 6 and fields[0].startswith(naming.ADDRESS_HEX_PREFIXES) and fields[5] in (
                        naming.DATA_IF, naming.MGMT_IF):
                    return True
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return False


def _kill_namespace_processes() -> int:
    victims = _our_processes()
    for pid in victims:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if not _wait_gone(list(victims), 10):
        log("some test-bed processes did not die: " + " ".join(str(p) for p in victims if alive(p)))
    return len(victims)


def _delete_links() -> int:
    """Deletes our root-namespace links; veth ends whose namespace just died vanish by themselves,
    asynchronously, so retry until none is left."""
    deleted = set()
    deadline = time.monotonic() + 10
    while True:
        names = [n for n in link_names() if naming.is_ours(n)]
        if not names:
            return len(deleted)
        if time.monotonic() > deadline:
            log("links left behind: " + " ".join(names))
            return len(deleted)
        ip_batch([f"link del dev {n}" for n in names], force=True)
        deleted.update(names)
        time.sleep(0.1)


def _wait_gone(victims: list[int], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while any(alive(p) for p in victims):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
