"""Where experiments put what they measured: docs/results/NAME.json (the numbers), NAME.png (the
plot) and NAME.md (the table, with the machine), so each can be redrawn from the JSON alone."""

from __future__ import annotations

import json
import os
import sys

RESULTS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "docs", "results")


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
