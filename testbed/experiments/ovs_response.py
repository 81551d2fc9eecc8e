"""Subscription response time on OVS of several builds, alternating (issue 22's goal: uniform,
1 000 subscriptions, p99 < 20 ms, before and after on the same machine, run alternately).

Each run is `pleroma_ovs.py scale` of one build, from that build's own harness (its commit's
testbed/, extracted by `git archive` into a scratch directory, so nothing in a checkout is
written) with a copy of its jar, under the shared OVS lock held for that run only. Rounds
alternate the order (A B, B A, ...). Each run records the load average before and after.

  testbed/.venv/bin/python testbed/experiments/ovs_response.py \\
      --build old=26cb5e4:/tmp/jars/old.jar:NPS_TESTBED_OPENFLOW_TLS=0:NPS_TESTBED_AUTH=0 \\
      --build new=HEAD:nps-cli/target/nps.jar:NPS_TESTBED_OPENFLOW_TLS=0:NPS_TESTBED_AUTH=0 \\
      --rounds 3 --out ovs-response

A build is NAME=COMMIT:JAR[:VAR=VALUE...]; the variables go into the run's environment (a build
older than OpenFlow-TLS or --auth needs NPS_TESTBED_OPENFLOW_TLS=0 and NPS_TESTBED_AUTH=0;
NPS_PLEROMA_WARMUP=N warms the controller with N subscriptions first, a diagnostic: the goal is
measured cold, and each run records the warm-up its harness did).
Writes docs/results/OUT.json and OUT.md. Needs root.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from results import RESULTS  # noqa: E402

LOCK = "/tmp/nps-ovs.lock"


def loadavg() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def parse_build(spec: str) -> dict:
    name, rest = spec.split("=", 1)
    commit, jar, *parts = rest.split(":")
    # A variable starts at an upper-case NAME=; other pieces were colons inside the value
    # (NPS_JAVA_OPTS=-XX:+UseZGC).
    env: list[str] = []
    for p in parts:
        if env and not re.match(r"[A-Z_][A-Z0-9_]*=", p):
            env[-1] += ":" + p
        else:
            env.append(p)
    return {"name": name, "commit": commit, "jar": os.path.abspath(jar),
            "env": dict(e.split("=", 1) for e in env)}


def prepare(b: dict, scratch: str) -> str:
    """The build's harness at its commit, with a copy of its jar (a rebuild cannot change it)."""
    rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", b["commit"]], check=True,
                         capture_output=True, text=True).stdout.strip()
    b["revision"] = rev
    tree = os.path.join(scratch, b["name"])
    os.makedirs(tree)
    archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "nps", "scripts", "testbed"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", tree], input=archive, check=True)
    os.symlink(os.path.realpath(os.path.join(ROOT, "testbed", ".venv")),
               os.path.join(tree, "testbed", ".venv"))
    # where every commit's ./nps looks for it (no sources here: it is never rebuilt)
    os.makedirs(os.path.join(tree, "nps-cli", "target"))
    shutil.copy(b["jar"], os.path.join(tree, "nps-cli", "target", "nps.jar"))
    return tree


def run(b: dict, tree: str, args) -> dict:
    env = {**os.environ, **b["env"]}
    env.pop("NPS_JAR", None)
    argv = [sys.executable, os.path.join(tree, "testbed", "experiments", "pleroma_ovs.py"),
            "scale", "--subscriptions", str(args.subscriptions), "--models", args.model]
    waited = time.monotonic()
    with open(LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the shared OVS: held for this run only
        waited = time.monotonic() - waited
        before = loadavg()
        started = time.strftime("%H:%M:%S", time.gmtime())
        failed = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, timeout=1800,
                                stderr=None if args.verbose else subprocess.DEVNULL).returncode
        after = loadavg()
    if failed:  # e.g. a probe JVM not up in time on a loaded machine: counted, not measured
        return {"build": b["name"], "started_utc": started, "failed": failed,
                "load_before": before, "load_after": after}
    with open(os.path.join(tree, "docs", "results", "pleroma-ovs-scale.json")) as f:
        rows = json.load(f)["models"][args.model]
    row = next(r for r in rows if r["subscriptions"] == args.subscriptions)
    return {"build": b["name"], "started_utc": started, "lock_wait_s": round(waited, 1),
            "load_before": before, "load_after": after, "response_ms": row["response_ms"],
            "flow_changes_per_subscription": row["flow_changes_per_subscription"],
            "advertise_ms": row["advertise_ms"],
            # subscribed and withdrawn before the measured ones (0: a cold controller, the goal's)
            "warm_up": row.get("warm_up", 0),
            # OVS's megaflows when the measured requests began (absent: a harness before stop 42)
            "datapath_flows_at_start": row.get("datapath_flows_at_start", "?"),
            "datapath_flushed": row.get("datapath_flushed", False),
            # the controller's own split of the measured requests' time (None: not readable)
            "stages_ms": row.get("stages_ms"),
            # ovs-vswitchd's CPU and revalidation work in the same window
            "vswitchd": row.get("vswitchd"),
            # the controller's own start-up warm-up: its requests (None: off or failed; absent:
            # a harness older than stop 39, which did not record it)
            "controller_warm_up": row.get("controller_warm_up", "?")}


def summarise(builds: list[dict], runs: list[dict]) -> dict:
    out = {}
    base = None
    for b in builds:
        mine = [r for r in runs if r["build"] == b["name"] and "response_ms" in r]
        if not mine:
            continue
        s = {q: statistics.median(r["response_ms"][q] for r in mine) for q in ("p50", "p90", "p99")}
        base = base or s
        s.update({f"{q}_ratio": s[q] / base[q] for q in ("p50", "p99")})
        out[b["name"]] = s
    return out


def cpu(x: dict) -> str:
    v = x.get("vswitchd")
    return f"{v['revalidator_cpu_ms']} / {v['main_cpu_ms']}" if v else "?"


def markdown(r: dict) -> str:
    lines = [f"# Subscription response time on OVS, builds alternating ({r['date']})", "",
             "`" + r["command"] + "`", "", f"Machine: {r['machine']}.", "",
             "| round | build | started (UTC) | load before → after | p50 / p90 / p99 (ms) | "
             "flow changes / request | harness warm-up | controller warm-up | "
             "datapath flows at start | revalidator / main CPU (ms) | switches p99 (ms) |",
             "|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for x in r["runs"]:
        if "response_ms" not in x:
            lines.append(f"| {x['round']} | {x['build']} | {x['started_utc']} | {x['load_before']} "
                         f"→ {x['load_after']} | failed (exit {x['failed']}) | — | — | — | — | — "
                         "| — |")
            continue
        q = x["response_ms"]
        lines.append(f"| {x['round']} | {x['build']} | {x['started_utc']} | {x['load_before']} → "
                     f"{x['load_after']} | {q['p50']:.1f} / {q['p90']:.1f} / {q['p99']:.1f} | "
                     f"{x['flow_changes_per_subscription']:.1f} | {x.get('warm_up', 0)} | "
                     f"{x.get('controller_warm_up', '?')} | {x.get('datapath_flows_at_start', '?')}"
                     f"{' (deleted)' if x.get('datapath_flushed') else ''} | {cpu(x)} | "
                     f"{(x.get('stages_ms') or {}).get('switches', {}).get('p99', '?')} |")
    lines += ["", "Medians over the rounds (ratios to the first build):", "",
              "| build | revision | environment | p50 (ms) | p90 (ms) | p99 (ms) | p50 ratio | "
              "p99 ratio |", "|---|---|---|---:|---:|---:|---:|---:|"]
    for b in r["builds"]:
        if b["name"] not in r["summary"]:
            continue
        s = r["summary"][b["name"]]
        env = " ".join(f"{k}={v}" for k, v in b["env"].items()) or "—"
        lines.append(f"| {b['name']} | {b['revision']} | {env} | {s['p50']:.1f} | {s['p90']:.1f} | "
                     f"{s['p99']:.1f} | {s['p50_ratio']:.2f} | {s['p99_ratio']:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", action="append", required=True, type=parse_build,
                    metavar="NAME=COMMIT:JAR[:VAR=VALUE...]")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--subscriptions", type=int, default=1000)
    ap.add_argument("--model", default="uniform")
    ap.add_argument("--out", required=True, help="docs/results/OUT.{json,md}")
    ap.add_argument("--verbose", action="store_true", help="show each run's progress")
    args = ap.parse_args()
    scratch = tempfile.mkdtemp(prefix="nps-ovs-response-")
    try:
        trees = {b["name"]: prepare(b, scratch) for b in args.build}
        runs = []
        for rnd in range(args.rounds):
            for b in args.build if rnd % 2 == 0 else list(reversed(args.build)):
                x = {"round": rnd + 1, **run(b, trees[b["name"]], args)}
                runs.append(x)
                print(json.dumps(x), flush=True)
        machine = subprocess.run([sys.executable, "-c", "import pleroma_ovs; print(pleroma_ovs.machine())"],
                                 cwd=HERE, capture_output=True, text=True).stdout.strip()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    r = {"date": time.strftime("%d %b %Y", time.gmtime()), "machine": machine,
         "command": "testbed/experiments/ovs_response.py " + " ".join(sys.argv[1:]),
         "subscriptions": args.subscriptions, "model": args.model,
         "builds": [{k: b[k] for k in ("name", "revision", "env")} for b in args.build],
         "runs": runs, "summary": summarise(args.build, runs)}
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, args.out + ".json"), "w") as f:
        json.dump(r, f, indent=1)
    with open(os.path.join(RESULTS, args.out + ".md"), "w") as f:
        f.write(markdown(r))
    print(markdown(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
