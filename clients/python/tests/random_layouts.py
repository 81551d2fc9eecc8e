"""Seeded random index layouts (bit orders, string codings, int cuts) and the values that exercise
them, written as Java's SchemaWriter writes a schema's ``layout:`` key."""

from __future__ import annotations

import json
import random
import re

from randoms import random_string, random_value, schema_yaml

from netpubsub.codings import coding_for, utf8_key
from netpubsub.schema import Schema

POOL = 8  # values per string attribute that events reuse, so that dictionaries hit


def _quote(s: str) -> str:
    return s if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", s) else (
        '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"')


def value_pools(r: random.Random, schema: Schema) -> dict[str, list]:
    """Per string attribute, a few values that events reuse (dictionary members, shared bits)."""
    return {a.name: [random_value(r, a) for _ in range(POOL)]
            for a in schema.attributes if a.kind == "string"}


def pooled_values(r: random.Random, schema: Schema, pools: dict[str, list]) -> list:
    out = []
    for a in schema.attributes:
        if a.kind == "string" and r.random() < 0.7:
            out.append(r.choice(pools[a.name]))
        else:
            out.append(random_value(r, a))
    return out


def _bits_of(value: str) -> str:
    return "".join(format(b, "08b") for b in value.encode("utf-8"))


def _string_coding(r: random.Random, a, pool: list) -> dict | None:
    pick = r.randrange(6)
    if pick == 0:
        return None
    if pick == 1:
        if r.random() < 0.7 and pool:  # bits the pool's first value has, as a learner finds them
            bits = _bits_of(r.choice(pool)).ljust(8 * a.max_length, "0")
            common = bits[: r.randint(0, len(bits))]
        else:
            common = "".join(r.choice("01") for _ in range(r.randint(0, 8 * a.max_length)))
        return {"kind": "ordered", "common_bits": common}
    if pick == 2:
        return {"kind": "hash"}
    if pick in (3, 4):
        members = set(r.sample(pool, r.randint(0, len(pool))))
        members |= {random_string(r, a.max_length) for _ in range(r.randint(0, 3))}
        return {"kind": "dictionary", "values": sorted(members, key=utf8_key)}
    levels = r.randint(1, 6)
    level_bits = []
    for _ in range(levels):
        left = 64 - sum(level_bits)
        if left < 1:
            break
        level_bits.append(r.choice([1, 2, 3, 7, 12, min(left, 64)]) if r.random() < 0.9 else left)
        level_bits[-1] = min(level_bits[-1], left)
    order = list(range(len(level_bits)))
    coding = {"kind": "topic", "level_bits": level_bits}
    if r.random() < 0.6:
        r.shuffle(order)
        coding["level_order"] = order
    if r.random() < 0.5:  # level dictionaries: the pool's values there, "" for an absent level
        names = [v.split("/") for v in pool]
        coding["level_values"] = [
            sorted({n[j] if j < len(n) else "" for n in names if r.random() < 0.7}, key=utf8_key)
            for j in order]  # the i-th list is the i-th coded level's
    return coding


def _cuts(r: random.Random, a) -> dict | None:
    if r.random() < 0.5 or a.min == a.max:
        return None
    points = {min(a.max, a.min + r.randint(1, 200)) for _ in range(r.randint(0, 6))}
    points |= {r.randint(a.min + 1, a.max) for _ in range(r.randint(0, 6))}
    return {"kind": "cuts", "cuts": sorted(points)}


def random_layout(r: random.Random, schema: Schema, pools: dict[str, list]):
    """(bits, codings): explicit bits for a random share of each dimension's resolution, in runs
    and interleavings, and a random coding (or none) per index dimension."""
    codings = {}
    for a in schema.index:
        c = _cuts(r, a) if a.kind == "int" else _string_coding(r, a, pools[a.name])
        if c is not None:
            codings[a.name] = c
    room = {a.name: coding_for(a, codings.get(a.name)).size_minus1.bit_length()
            for a in schema.index}
    bits: list[str] = []
    target = r.choice([0, r.randint(1, 16), r.randint(1, 112)])
    while len(bits) < target:
        open_dims = [n for n, left in room.items() if left]
        if not open_dims:
            break
        name = r.choice(open_dims)
        run = min(room[name], r.choice([1, 1, 2, 4, 8]), 112 - len(bits))
        bits += [name] * run
        room[name] -= run
    return bits, codings


def layout_yaml(bits: list[str], codings: dict) -> str:
    """The ``layout:`` key as SchemaWriter writes it (segments of runs, flow-mapping codings)."""
    if not bits and not codings:
        return ""
    y = ["layout:"]
    if bits:
        segments, i = [], 0
        while i < len(bits):
            j = i
            while j < len(bits) and bits[j] == bits[i]:
                j += 1
            segments.append(f'"{bits[i]}:{j - i}"')
            i = j
        y.append(f"  bits: [{', '.join(segments)}]")
    if codings:
        y.append("  codings:")
        for name, c in codings.items():
            parts = [f"kind: {c['kind']}"]
            for k, v in c.items():
                if k != "kind":
                    parts.append(f"{k}: {json.dumps(v, ensure_ascii=False)}")
            y.append(f"    {_quote(name)}: {{{', '.join(parts)}}}")
    return "\n".join(y) + "\n"


def schema_with_layout_yaml(schema: Schema, bits: list[str], codings: dict) -> str:
    return schema_yaml(schema) + layout_yaml(bits, codings)
