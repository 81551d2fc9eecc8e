"""The client of another revision (``--base REF``, e.g. the commit before a change) and this
tree's, alternating in one run, for an old/new ratio on a loaded machine: each round runs
throughput.py --python-only once per client (the order reversed every other round), with the
load average recorded; then one throughput.py run of this tree with the Java side. Prints one
JSON line: every run, the medians per client and their ratio new / old.

    scripts/bench-python --base dbd000f --rounds 3
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
BENCH = os.path.join(HERE, "throughput.py")


def run(package: str, *flags: str) -> dict:
    done = subprocess.run([sys.executable, BENCH, *flags], check=True, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": package})
    return json.loads(done.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="git revision of the old client")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    new = os.path.join(ROOT, "clients", "python")
    with tempfile.TemporaryDirectory(prefix="nps-bench-python-") as tmp:
        archive = subprocess.run(["git", "-C", ROOT, "archive", args.base, "clients/python"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        # A copy of this tree's client: edits during the run do not leak into it.
        shutil.copytree(os.path.join(new, "netpubsub"), os.path.join(tmp, "new", "netpubsub"))
        clients = {"old": os.path.join(tmp, "clients", "python"), "new": os.path.join(tmp, "new")}
        runs = []
        for r in range(args.rounds):
            order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
            for name in order:
                runs.append({"client": name, **run(clients[name], "--python-only")})
    keys = sorted({k for x in runs for k in x["python"]})
    medians = {name: {k: statistics.median(x["python"][k] for x in runs
                                           if x["client"] == name and k in x["python"])
                      for k in keys if any(k in x["python"] for x in runs if x["client"] == name)}
               for name in ("old", "new")}
    ratio = {k: round(medians["new"][k] / medians["old"][k], 3)
             for k in keys if k in medians["old"] and k in medians["new"]}
    print(json.dumps({"base": args.base, "runs": runs, "median": medians,
                      "ratio_new_to_old": ratio, "with_java": run(new)}))


if __name__ == "__main__":
    main()
