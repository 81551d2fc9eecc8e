"""What the userspace datapath's megaflow cache did during a run (issue 26, part 3): which
megaflows a run's measured part had to add after its warm-up, whether any were deleted (the
revalidator, idle timeouts, flow-mods), from `ovs-appctl dpctl/dump-flows` and the coverage
counters. Parsing apart from the commands, so it is tested without OVS."""

from __future__ import annotations

import re
import subprocess

# Coverage counters that say why a megaflow left the cache or why a packet missed it.
WATCHED = ("upcall_ukey_replace", "upcall_flow_limit_hit", "upcall_ukey_contention",
           "revalidate_missed_dp_flow", "ukey_dp_change", "ukey_invalid_stat_reset",
           "dpif_flow_del", "dpif_flow_put", "dpif_flow_put_error", "rev_flow_table",
           "rev_reconfigure", "rev_port_toggled", "rev_mac_learning", "rev_rstp", "rev_stp",
           "rev_bond", "rev_mcast_snooping", "handler_duplicate_upcall", "dumped_new_flow",
           "dumped_duplicate_flow", "xlate_actions", "datapath_drop_upcall_error",
           "datapath_drop_lock_error", "datapath_drop_invalid_port", "upcall_flow_del_idle_or_limit",
           "upcall_flow_del_rev", "upcall_flow_del_reason_too_expensive")

_COVERAGE = re.compile(r"^(\w+)\s+.*total:\s*(\d+)\s*$")
_STATS = re.compile(r",?\s*packets:")
_MASKED_DST = re.compile(r"ipv6\([^)]*?dst=([0-9a-f:]+)(?:/([0-9a-f:]+))?")


def parse_flows(text: str) -> dict[str, int]:
    """Each datapath flow's match (up to its statistics) -> its packet count."""
    flows = {}
    for line in text.splitlines():
        line = line.strip()
        m = _STATS.search(line)
        if not m or line.startswith("flow-dump"):
            continue
        match = line[:m.start()]
        if match.startswith("ufid:"):  # dump-flows -m: the ufid is the flow's, not its match
            match = match.split(" ", 1)[-1]
        rest = line[m.end():]
        try:
            flows[match] = int(rest.split(",", 1)[0].strip())
        except ValueError:
            flows[match] = 0
    return flows


def parse_coverage(text: str) -> dict[str, int]:
    """`coverage/show`: counter -> its total since ovs-vswitchd started."""
    out = {}
    for line in text.splitlines():
        m = _COVERAGE.match(line.strip())
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def content_dst(match: str) -> str | None:
    """The IPv6 destination of a multicast content megaflow (`ff0e:…[/mask]`), else None."""
    m = _MASKED_DST.search(match)
    if not m or not m.group(1).startswith("ff0e"):
        return None
    return m.group(1) + ("/" + m.group(2) if m.group(2) else "")


def compare(warm: dict[str, int], end: dict[str, int], cov0: dict[str, int],
            cov1: dict[str, int]) -> dict:
    """The measured part's megaflows: added after the warm-up (content ones among them), gone
    since it (deleted or replaced), and the watched coverage counters that moved."""
    added = [m for m in end if m not in warm]
    gone = [m for m in warm if m not in end]
    moved = {k: cov1.get(k, 0) - cov0.get(k, 0) for k in WATCHED
             if cov1.get(k, 0) != cov0.get(k, 0)}
    return {"after_warmup": len(warm), "at_end": len(end), "added": len(added),
            "added_content": sum(1 for m in added if content_dst(m)),
            "gone": len(gone), "added_examples": added[:8], "gone_examples": gone[:4],
            "coverage": moved}


def _appctl(*args: str) -> str:
    r = subprocess.run(["ovs-appctl", *args], capture_output=True, text=True, timeout=30)
    return r.stdout if r.returncode == 0 else ""


def snapshot(save: str | None = None) -> tuple[dict[str, int], dict[str, int]]:
    """(datapath flows, coverage counters) now; `save`: the raw dumps also written there."""
    flows, coverage = _appctl("dpctl/dump-flows"), _appctl("coverage/show")
    if save:
        with open(save, "w") as f:
            f.write(flows + "\n" + _appctl("upcall/show") + "\n" + coverage)
    return parse_flows(flows), parse_coverage(coverage)
