"""Exact evaluation of a filter on an event, as nps-content's ``FilterEvaluator``.

The typed tree is compiled once into one Python expression over the event's values (``v[i]``),
so that checking a received event costs one call; trees too deep for Python's compiler are
walked instead, with the same answers.
"""

from __future__ import annotations

from .event import Event
from .filter import STATEFUL, has_aggregates, parse_tree
from .schema import Schema
from .topics import matches as _topic_matches

_STRING = {"==": "v[{0}] == {1!r}", "!=": "v[{0}] != {1!r}", "prefix": "v[{0}].startswith({1!r})",
           "suffix": "v[{0}].endswith({1!r})", "contains": "{1!r} in v[{0}]",
           "matches": "_topic_matches({1!r}, v[{0}])"}


def _source(tree) -> str:
    kind = tree[0]
    if kind == "const":
        return "True" if tree[1] else "False"
    if kind == "and":
        return "(" + " and ".join(_source(t) for t in tree[1]) + ")"
    if kind == "or":
        return "(" + " or ".join(_source(t) for t in tree[1]) + ")"
    if kind == "not":
        return f"(not {_source(tree[1])})"
    if kind == "int":
        return f"(v[{tree[1]}] {tree[2]} {tree[3]})"
    if kind == "range":
        return f"({tree[2]} <= v[{tree[1]}] <= {tree[3]})"
    if kind == "str":
        return "(" + _STRING[tree[2]].format(tree[1], tree[3]) + ")"
    raise ValueError(STATEFUL)


def evaluate(tree, v) -> bool:
    """The tree walked directly (the reference the compiled form is tested against)."""
    kind = tree[0]
    if kind == "const":
        return tree[1]
    if kind == "and":
        return all(evaluate(t, v) for t in tree[1])
    if kind == "or":
        return any(evaluate(t, v) for t in tree[1])
    if kind == "not":
        return not evaluate(tree[1], v)
    if kind == "int":
        x, op, c = v[tree[1]], tree[2], tree[3]
        return {"<": x < c, "<=": x <= c, ">": x > c, ">=": x >= c, "==": x == c,
                "!=": x != c}[op]
    if kind == "range":
        return tree[2] <= v[tree[1]] <= tree[3]
    if kind == "str":
        x, op, c = v[tree[1]], tree[2], tree[3]
        if op == "==":
            return x == c
        if op == "!=":
            return x != c
        if op == "prefix":
            return x.startswith(c)
        if op == "suffix":
            return x.endswith(c)
        if op == "matches":
            return _topic_matches(c, x)
        return c in x
    raise ValueError(STATEFUL)


class Filter:
    """A filter parsed against a schema. ``matches(event)`` is exact; filters with stateful
    aggregates parse but refuse evaluation (ValueError), as in Java."""

    def __init__(self, schema: Schema, text: str):
        self.schema = schema
        self.text = text
        self.tree = parse_tree(schema, text)
        self.stateful = has_aggregates(self.tree)
        self._match = None
        if not self.stateful:
            try:
                self._match = eval(compile("lambda v: " + _source(self.tree), "<filter>", "eval"))
            except (RecursionError, SyntaxError, MemoryError):
                tree = self.tree
                self._match = lambda v: evaluate(tree, v)

    def matches(self, event) -> bool:
        """Whether the event (an Event or its values in schema order) matches."""
        if self._match is None:
            raise ValueError(STATEFUL)
        return bool(self._match(event.values if isinstance(event, Event) else event))

    def matches_values(self, values) -> bool:
        return bool(self._match(values))

    def __repr__(self):
        return f"Filter({self.text!r})"
