"""Reads schema YAML without a YAML library: the block-style subset that schema files use and
that the controller's ``GET /v1/pubsub`` sends (Java's ``SchemaWriter``).

Accepted: ``name:``, ``attributes:`` as a block list of mappings (``- name: …`` then indented
``type``, ``min``, ``max``, ``max_length``), ``index:`` as a flow (``[a, b]``) or block list;
comments, blank lines, plain, single- and double-quoted scalars. Anything else (anchors, flow
mappings, multi-line scalars) is refused with its line; the Java loader stays the reference for
hand-written files (``nps schema check``).
"""

from __future__ import annotations

import re

from .errors import SchemaError
from .schema import IntAttribute, Schema, StringAttribute

DEFAULT_LEVELS = 8  # SchemaYamlReader.DEFAULT_LEVELS
_INT = re.compile(r"-?(0|[1-9][0-9]*)\Z")
_TOP_KEYS = ("name", "attributes", "index")


def _error(line: int, reason: str) -> SchemaError:
    return SchemaError(reason, line, 1)


def _strip_comment(text: str) -> str:
    quote = None
    for i, c in enumerate(text):
        if quote:
            if c == "\\" and quote == '"':
                continue
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip()
    return text.rstrip()


def _scalar(text: str, line: int) -> str:
    text = text.strip()
    if text.startswith('"'):
        if len(text) < 2 or not text.endswith('"'):
            raise _error(line, f"unterminated string {text}")
        out, i, body = [], 0, text[1:-1]
        while i < len(body):
            c = body[i]
            if c == "\\" and i + 1 < len(body):
                out.append({"n": "\n", "t": "\t"}.get(body[i + 1], body[i + 1]))
                i += 2
            else:
                out.append(c)
                i += 1
        return "".join(out)
    if text.startswith("'"):
        if len(text) < 2 or not text.endswith("'"):
            raise _error(line, f"unterminated string {text}")
        return text[1:-1].replace("''", "'")
    if text[:1] in ("&", "*", "{", "|", ">", "!"):
        raise _error(line, f"unsupported YAML here: {text}")
    return text


def _integer(text: str, line: int, key: str) -> int:
    if not _INT.match(text):
        raise _error(line, f"{key} must be a decimal integer, not {text!r}")
    return int(text)


def _flow_list(text: str, line: int) -> list[str]:
    inner = text.strip()
    if not (inner.startswith("[") and inner.endswith("]")):
        raise _error(line, f"expected a list like [a, b], not {text.strip()!r}")
    inner = inner[1:-1].strip()
    return [] if not inner else [_scalar(p, line) for p in inner.split(",")]


def _key_value(text: str, line: int) -> tuple[str, str]:
    key, sep, value = text.partition(":")
    if not sep or not key.strip() or (value and not value.startswith((" ", "\t"))):
        raise _error(line, f"expected 'key: value', not {text.strip()!r}")
    return key.strip(), value.strip()


def parse_schema_yaml(text: str, default_name: str = "schema", skip_layout: bool = False) -> Schema:
    """The schema in ``text``; raises SchemaError naming the line of the first problem.

    A ``layout:`` key (flow mappings, which this reader does not read) is refused, or skipped with
    ``skip_layout`` when the caller has the same layout as JSON (``GET /v1/pubsub``'s
    ``index.layout``)."""
    lines = [(n + 1, _strip_comment(raw)) for n, raw in enumerate(text.split("\n"))]
    lines = [(n, t) for n, t in lines if t.strip()]
    top: dict[str, object] = {}
    i = 0
    while i < len(lines):
        n, t = lines[i]
        if t[0] in " \t":
            raise _error(n, "unexpected indentation")
        key, value = _key_value(t, n)
        if key == "layout" and skip_layout:
            i += 1
            while i < len(lines) and lines[i][1][0] in " \t":
                i += 1
            continue
        if key not in _TOP_KEYS:
            raise _error(n, f"unknown key '{key}' (expected one of {', '.join(_TOP_KEYS)})")
        if key in top:
            raise _error(n, f"duplicate key '{key}'")
        i += 1
        if key == "name":
            top[key] = _scalar(value, n)
            continue
        if value:
            top[key] = (n, _flow_list(value, n))
            continue
        items: list[tuple[int, list[tuple[int, str]]]] = []
        while i < len(lines) and lines[i][1][0] in " \t":
            m, u = lines[i]
            stripped = u.lstrip()
            if stripped.startswith("- ") or stripped == "-":
                items.append((m, [(m, stripped[1:].strip())] if stripped[1:].strip() else []))
            elif not items:
                raise _error(m, "expected a list item '- '")
            else:
                items[-1][1].append((m, stripped))
            i += 1
        top[key] = (n, items)
    attributes = []
    if "attributes" not in top:
        raise _error(1, "missing key 'attributes'")
    n, items = top["attributes"]
    if not isinstance(items, list) or not items or isinstance(items[0], str):
        raise _error(n, "attributes must be a non-empty list of mappings")
    for position, (m, fields) in enumerate(items):
        seen: dict[str, tuple[int, str]] = {}
        for fn, ft in fields:
            k, v = _key_value(ft, fn)
            if k not in ("name", "type", "min", "max", "max_length", "levels"):
                raise _error(fn, f"unknown key '{k}' in attribute {position + 1}")
            if k in seen:
                raise _error(fn, f"duplicate key '{k}'")
            seen[k] = (fn, _scalar(v, fn))
        for required in ("name", "type"):
            if required not in seen:
                raise _error(m, f"attribute {position + 1} has no '{required}'")
        name = seen["name"][1]
        kind_line, kind = seen["type"]
        if kind == "int":
            for k in ("min", "max"):
                if k not in seen:
                    raise _error(m, f"int attribute {name} has no '{k}'")
            if "max_length" in seen:
                raise _error(seen["max_length"][0], f"int attribute {name} has no max_length")
            attributes.append(IntAttribute(
                name, position, _integer(seen["min"][1], seen["min"][0], "min"),
                _integer(seen["max"][1], seen["max"][0], "max")))
        elif kind in ("string", "topic"):
            if "max_length" not in seen:
                raise _error(m, f"{kind} attribute {name} has no 'max_length'")
            for k in ("min", "max") + (() if kind == "topic" else ("levels",)):
                if k in seen:
                    raise _error(seen[k][0], f"{kind} attribute {name} has no {k}")
            levels = 0
            if kind == "topic":
                levels = (_integer(seen["levels"][1], seen["levels"][0], "levels")
                          if "levels" in seen else DEFAULT_LEVELS)
            attributes.append(StringAttribute(
                name, position, _integer(seen["max_length"][1], seen["max_length"][0],
                                         "max_length"), levels))
        else:
            raise _error(kind_line, f"type must be int, string or topic, not {kind!r}")
    index = None
    if "index" in top:
        n, items = top["index"]
        if items and isinstance(items[0], tuple):
            index = []
            for m, fields in items:
                if len(fields) != 1:
                    raise _error(m, "index items are attribute names")
                index.append(_scalar(fields[0][1], m))
        else:
            index = list(items)
    return Schema(str(top.get("name", default_name)), attributes, index)
