"""Where experiments put what they measured: docs/results/NAME.json (the numbers), NAME.png (the
plot) and NAME.md (the table, with the machine), so each can be redrawn from the JSON alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS = os.path.join(ROOT, "docs", "results")
NPS = os.path.join(ROOT, "nps")


def write(name: str, r: dict, plot, markdown) -> None:
    """Saves the numbers, then draws and tabulates them."""
    os.makedirs(RESULTS, exist_ok=True)
    with open(os.path.join(RESULTS, name + ".json"), "w") as f:
        json.dump(r, f, indent=1)
    redraw(name, plot, markdown, r)


def redraw(name: str, plot, markdown, r: dict | None = None) -> None:
    """The plot and the table from the numbers (read from NAME.json when not given)."""
    if r is None:
        with open(os.path.join(RESULTS, name + ".json")) as f:
            r = json.load(f)
    plot(r, os.path.join(RESULTS, name + ".png"))
    with open(os.path.join(RESULTS, name + ".md"), "w") as f:
        f.write(markdown(r))
    print(f"docs/results/{name}: .md and .png drawn from .json", file=sys.stderr, flush=True)


def pick(rows: list[dict], **eq) -> list[dict]:
    """The rows whose fields equal the given values."""
    return [x for x in rows if all(x[k] == v for k, v in eq.items())]


def table(rows: list[dict], cols) -> list[str]:
    """A Markdown table: cols are (heading, row → cell text) pairs."""
    out = ["| " + " | ".join(c for c, _ in cols) + " |", "|" + "---|" * len(cols)]
    for x in rows:
        out.append("| " + " | ".join(f(x) for _, f in cols) + " |")
    return out


def bench(command: str, **opts) -> dict:
    """`nps bench COMMAND --json --OPT VALUE...` (OPT_NAME → --opt-name); its JSON line."""
    return nps(["bench", command], **opts)


def nps(command: list[str], **opts) -> dict:
    """`nps COMMAND... --json --OPT VALUE...` (OPT_NAME → --opt-name); its JSON line."""
    args = [NPS, *command, "--json"]
    for k, v in opts.items():
        args += ["--" + k.replace("_", "-"), str(v)]
    print("+ " + " ".join(args[1:]), file=sys.stderr, flush=True)
    r = subprocess.run(args, stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(r.stdout)


def measure(name: str, parts: dict, only: list[str] | None, plot, markdown) -> None:
    """Runs every part (name → no-argument function) or, with `only`, just those, keeping the
    other parts from docs/results/NAME.json; then writes the results."""
    r = {}
    if only:
        with open(os.path.join(RESULTS, name + ".json")) as f:
            r = json.load(f)
    for part in only or parts:
        r[part] = parts[part]()
    write(name, r, plot, markdown)
