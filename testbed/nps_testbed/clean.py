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
from .system import alive, cmdline, holds_host_address, ip_batch, link_names, log, netns_inode, pids


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
    """Our node shells, and every process in a host namespace. This process's own namespace (the
    root namespace: the CLI refuses to clean from inside a host) is never a host's."""
    protected = {netns_inode(os.getpid()), None}
    shells, host_namespaces, by_ns = set(), set(), {}
    for pid in pids():
        if pid == os.getpid():
            continue
        ns = netns_inode(pid)
        by_ns.setdefault(ns, []).append(pid)
        args = cmdline(pid)
        if any(a.startswith(f"mininet:{naming.PREFIX}") for a in args):
            shells.add(pid)  # switch shells live in the root namespace: killed, namespace spared
            if any(a.startswith(f"mininet:{naming.mininet_name('h')}") for a in args):
                host_namespaces.add(ns)
    for ns, members in by_ns.items():
        if ns not in protected and holds_host_address(members[0]):
            host_namespaces.add(ns)
    return shells | {p for ns in host_namespaces - protected for p in by_ns[ns]}


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
