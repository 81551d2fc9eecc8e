"""The client of another revision (``--base REF``, e.g. the commit before a change), this tree's
and the Java client, alternating in one run: each round runs, per network (``--net``, see
throughput.py), throughput.py once per Python client (a fresh process each, every case in it
``--repeats`` times, the clients' order reversed every other round) and once for the Java side,
with the load average recorded. Prints one JSON line: every run, per network the median over
the rounds of each process's median (and the spread of those), of thread CPU time and of
process CPU time (which counts a buffered publisher's flusher thread too), and the ratios
new / old and new / Java (thread CPU: Java's bench has no other thread).

    scripts/bench-python --base 46527f3 --rounds 5
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def run(bench: str, package: str, *flags: str) -> dict:
    done = subprocess.run([sys.executable, bench, *flags], check=True, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": package})
    return json.loads(done.stdout)


def summary(runs: list[dict], net: str) -> dict:
    """Per client: median and [min, max] over its processes of each case's median."""
    out = {}
    for name in ("old", "new", "java"):
        mine = [x[name if name == "java" else "python"] for x in runs
                if x["net"] == net and x["client"] == name]
        keys = sorted({k for x in mine for k in x if k.endswith("_per_s") and "_wall_" not in k})
        out[name] = {k: {"median": round(statistics.median(x[k] for x in mine if k in x)),
                         "spread": [min(x[k] for x in mine if k in x),
                                    max(x[k] for x in mine if k in x)]} for k in keys}
    new, old, java = out["new"], out["old"], out["java"]
    out["ratio_new_to_old"] = {k: round(new[k]["median"] / old[k]["median"], 3)
                               for k in new if k in old}
    out["ratio_new_to_java"] = {k: round(new[k]["median"] / java[k.split("_")[0] + "_per_s"]
                                         ["median"], 3)
                               for k in new if "_process_" not in k
                               and k.split("_")[0] + "_per_s" in java}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="git revision of the old client")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3, help="measured runs per case and process")
    ap.add_argument("--net", choices=("loopback", "dummy", "both"), default="both")
    args = ap.parse_args()
    nets = ["dummy", "loopback"] if args.net == "both" else [args.net]
    new = os.path.join(ROOT, "clients", "python")
    with tempfile.TemporaryDirectory(prefix="nps-bench-python-") as tmp:
        archive = subprocess.run(["git", "-C", ROOT, "archive", args.base, "clients/python"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        # A copy of this tree's client and benchmark: edits during the run do not leak into it.
        copy = os.path.join(tmp, "new", "clients", "python")
        for part in ("netpubsub", "benchmarks", "tests"):
            shutil.copytree(os.path.join(new, part), os.path.join(copy, part))
        os.symlink(os.path.join(ROOT, "nps-cli"), os.path.join(tmp, "new", "nps-cli"))  # the jar
        bench = os.path.join(copy, "benchmarks", "throughput.py")
        clients = {"old": os.path.join(tmp, "clients", "python"), "new": copy}
        runs = []
        for r in range(args.rounds):
            for net in nets:
                order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
                for name in order:
                    runs.append({"client": name, "round": r + 1,
                                 **run(bench, clients[name], "--python-only", "--net", net,
                                       "--repeats", str(args.repeats))})
                runs.append({"client": "java", "round": r + 1,
                             **run(bench, clients["new"], "--java-only", "--net", net)})
                print(json.dumps({k: runs[-1][k] for k in ("round", "net", "load_after")}),
                      file=sys.stderr)
    print(json.dumps({"base": args.base, "rounds": args.rounds, "repeats": args.repeats,
                      **{net: summary(runs, net) for net in nets}, "runs": runs}))


if __name__ == "__main__":
    main()
