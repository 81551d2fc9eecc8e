"""What a subscription-response run records beside its response times (issue 22; docs/results/
ovs-max-idle42.md): OVS's datapath flows when the measured requests begin, ovs-vswitchd's work
during them, and the controller's own split of their time by stage. Used by pleroma_ovs.py scale;
the splitting is pure, reading is one ovs-appctl or one /metrics request."""

from __future__ import annotations

import re
import subprocess
import urllib.request


def datapath_flows() -> int | None:
    """Megaflows in OVS's datapath now (`upcall/show`), None if unreadable. Each flow-table change
    (every subscription's batch) makes ovs-vswitchd's revalidator re-translate all of them, and
    the warm-up publish leaves about one per content address and edge switch: the last hop's
    rewrite to the subscriber's unicast address (set_field ipv6_dst) makes each megaflow match
    the whole ipv6_dst, so neither prefix tracking nor the content flows' prefixes merge them
    (ovs-max-idle42.md). NPS_PLEROMA_OVS_FLUSH=1 purges them and the revalidator's records of them
    before the measured requests, a diagnostic that isolates their cost (a live network's
    traffic keeps them)."""
    try:
        out = subprocess.run(["ovs-appctl", "--timeout=10", "upcall/show"], capture_output=True,
                             text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    counts = re.findall(r"flows\s*:\s*\(current (\d+)\)", out)
    return sum(int(n) for n in counts) if counts else None


def vswitchd_work(d: dict) -> dict:
    """What ovs-vswitchd did during the measured requests (ovs_stats' difference): its main
    thread's and revalidator's CPU, the translations the revalidator and upcalls made, the
    flow-table changes that asked for a revalidation, the datapath flows changed."""
    th = d["threads"]
    return {"main_cpu_ms": th.get("ovs-vswitchd", {}).get("cpu_ms", 0),
            "revalidator_cpu_ms": th.get("revalidator", {}).get("cpu_ms", 0),
            **{k: d["coverage"].get(k, 0) for k in ("xlate_actions", "rev_flow_table",
                                                     "dpif_flow_put", "dpif_flow_del")}}


STAGE_BUCKET = re.compile(r'^nps_pubsub_request_stage_seconds_bucket\{(?=[^}]*stage="(\w+)")'
                          r'(?=[^}]*le="([^"]+)")[^}]*\}\s+(\S+)', re.M)


def stage_buckets(c) -> dict[str, list[tuple[float, float]]] | None:
    """The controller's per-stage histograms (docs/operations.md), cumulative bucket counts;
    read before and after the measured requests, outside them. None if /metrics is not served."""
    try:
        req = urllib.request.Request(c.api + "/metrics", headers=c.headers)
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode()
    except (OSError, ValueError):
        return None
    out: dict[str, list[tuple[float, float]]] = {}
    for stage, le, count in STAGE_BUCKET.findall(text):
        out.setdefault(stage, []).append((float(le), float(count)))
    return {k: sorted(v) for k, v in out.items()}


def stage_split(before, after) -> dict | None:
    """Each stage's p50/p90/p99 (ms) over the requests between two readings, as the upper bound
    of the histogram bucket holding it (Micrometer's buckets: within about 10 %)."""
    if not before or not after:
        return None
    out = {}
    for stage, buckets in after.items():
        prior = dict(before.get(stage, []))
        diff = [(le, n - prior.get(le, 0.0)) for le, n in buckets]
        total = diff[-1][1] if diff else 0
        if total <= 0:
            continue
        row = {"count": int(total)}
        for q in (50, 90, 99):
            le = next(le for le, n in diff if n >= total * q / 100)
            row[f"p{q}"] = round(le * 1000, 2) if le != float("inf") else None
        out[stage] = row
    return out
