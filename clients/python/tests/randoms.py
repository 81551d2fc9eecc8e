"""Seeded random schemas, events and filters for the differential tests."""

from __future__ import annotations

import random

from netpubsub.schema import INT_MAX, INT_MIN, Schema

NAMES = ["a", "b", "price", "volume", "symbol", "x1", "int.switch_id", "int.hop_latency",
         "_p", "Vol", "s.t.u", "stock", "side", "qty"]
# Characters of every UTF-8 length, and the escapes the lexer knows.
ALPHABET = ["a", "b", "Z", "0", " ", "_", "-", ".", "é", "ß", "€", "字", "😀", "\"", "\\", "\n"]


def schema_yaml(schema: Schema) -> str:
    """The schema as Java's SchemaWriter writes it."""
    def quote(s):
        import re
        return s if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", s) else (
            '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"')
    y = [f"name: {quote(schema.name)}", "attributes:"]
    for a in schema.attributes:
        y.append(f"  - name: {quote(a.name)}")
        if a.kind == "int":
            y += ["    type: int", f"    min: {a.min}", f"    max: {a.max}"]
        elif a.levels:
            y += ["    type: topic", f"    max_length: {a.max_length}", f"    levels: {a.levels}"]
        else:
            y += ["    type: string", f"    max_length: {a.max_length}"]
    if schema.index != schema.attributes:
        y.append("index: [" + ", ".join(quote(a.name) for a in schema.index) + "]")
    return "\n".join(y) + "\n"


def int_domain(r: random.Random) -> tuple[int, int]:
    kind = r.randrange(8)
    if kind == 0:
        return INT_MIN, INT_MAX
    if kind == 1:
        lo = r.randint(-1000, 1000)
        return lo, lo  # a single value
    if kind == 2:
        lo = r.randint(-(1 << 40), 1 << 40)
        return lo, lo + (1 << r.randrange(1, 40)) - 1  # a power-of-two size
    if kind == 3:
        lo = r.randint(INT_MIN, INT_MAX - 1)
        return lo, r.randint(lo, INT_MAX)
    if kind == 4:
        return 0, r.choice([1, 99, 100, 127, 128, 1023, 100000])
    lo = r.randint(-5000, 5000)
    return lo, lo + r.randint(0, 20000)


def random_schema(r: random.Random, index: bool = True) -> Schema:
    names = r.sample(NAMES, r.randint(1, 6))
    specs = []
    for n in names:
        if r.random() < 0.55:
            lo, hi = int_domain(r)
            specs.append((n, "int", lo, hi))
        elif r.random() < 0.3:
            specs.append((n, "topic", r.choice([1, 3, 8, 12, 40]), r.randint(1, 5)))
        else:
            specs.append((n, "string", r.choice([0, 1, 2, 3, 5, 8, 9, 12, 40, 300])))
    dims = None
    if index and r.random() < 0.5:
        dims = r.sample(names, r.randint(1, len(names)))
    return Schema.of(r.choice(["q", "events", "t-1", "x.y"]), specs, dims)


def random_string(r: random.Random, max_bytes: int) -> str:
    out, size = "", 0
    for _ in range(r.randint(0, min(max_bytes, r.choice([3, 12, max_bytes])))):
        c = r.choice(ALPHABET)
        if size + len(c.encode()) > max_bytes:
            break
        out += c
        size += len(c.encode())
    return out


def random_value(r: random.Random, a):
    if a.kind == "int":
        pick = r.randrange(6)
        if pick == 0:
            return a.min
        if pick == 1:
            return a.max
        if pick == 2:
            return min(a.max, a.min + r.randint(0, 130))
        return r.randint(a.min, a.max)
    if a.levels:
        return random_topic(r, a)
    return random_string(r, a.max_length)


# Topic levels: '$' starts a level that first-level wildcards skip; é is two bytes.
LEVELS = ["a", "b", "c1", "$s", "é", "dev"]


def random_topic(r: random.Random, a) -> str:
    """A valid topic name of ``a``: 1 to levels levels, cut to fit max_length."""
    levels = [r.choice(LEVELS) for _ in range(r.randint(1, a.levels))]
    while len("/".join(levels).encode()) > a.max_length and len(levels) > 1:
        levels.pop()
    t = "/".join(levels)
    return t if len(t.encode()) <= a.max_length else "a"


def random_pattern(r: random.Random, a) -> str:
    """A valid topic filter of ``a`` that fits max_length (mutate() makes invalid ones)."""
    levels = [r.choice(LEVELS + ["+", "+"]) for _ in range(r.randint(1, a.levels))]
    if r.random() < 0.4:
        levels.append("#")
    while len("/".join(levels).encode()) > a.max_length and len(levels) > 1:
        levels.pop(len(levels) - 2 if levels[-1] == "#" and len(levels) > 1 else -1)
    p = "/".join(levels)
    return p if len(p.encode()) <= a.max_length else r.choice(["#", "+"])


def random_values(r: random.Random, schema: Schema) -> list:
    return [random_value(r, a) for a in schema.attributes]


def random_payload(r: random.Random) -> bytes:
    return r.randbytes(r.choice([0, 0, 1, 5, 127, 128, 300]))


def _quoted(r: random.Random, s: str) -> str:
    out = '"'
    for c in s:
        if c == '"':
            out += '\\"'
        elif c == "\\":
            out += "\\\\"
        elif c == "\n":
            out += r.choice(["\\n", "\\u000a"])
        elif r.random() < 0.1 and ord(c) < 0x10000:
            out += f"\\u{ord(c):04x}"
        else:
            out += c
    return out + '"'


def _int_constant(r: random.Random, a) -> str:
    v = random_value(r, a)
    if r.random() < 0.1 and v >= 0:
        return hex(v)
    return str(v)


def random_atom(r: random.Random, schema: Schema) -> str:
    pick = r.random()
    if pick < 0.05:
        return r.choice(["true", "false"])
    a = r.choice(schema.attributes)
    if a.kind == "int":
        if pick < 0.15:
            lo, hi = sorted([random_value(r, a), random_value(r, a)])
            return f"{a.name} in [{lo}, {hi}]"
        if pick < 0.18:
            f = r.choice(["count()", f"sum({a.name})", f"avg({a.name})"])
            return f"{f} {r.choice(['<', '>=', '=='])} {r.randint(0, 99)} over {r.randint(1, 999)}ms"
        op = r.choice(["<", "<=", ">", ">=", "==", "=", "!="])
        return f"{a.name} {op} {_int_constant(r, a)}"
    if a.levels and r.random() < 0.5:
        p = random_pattern(r, a)
        op = "matches" if r.random() < 0.9 else r.choice(["==", "prefix"])
        return f"{a.name} {op} {_quoted(r, p)}"
    op = r.choice(["==", "!=", "prefix", "suffix", "contains", "="])
    s = random_string(r, min(a.max_length, 4))
    if r.random() < 0.1 and s.isidentifier() and s.isascii() and s not in (
            "and", "or", "not", "true", "false", "in", "prefix", "suffix", "contains", "matches", "over",
            "count", "sum", "avg"):
        return f"{a.name} {op} {s}"
    return f"{a.name} {op} {_quoted(r, s)}"


def random_filter(r: random.Random, schema: Schema, depth: int = 0) -> str:
    if depth > 3 or r.random() < 0.35:
        return random_atom(r, schema)
    pick = r.random()
    if pick < 0.15:
        return r.choice(["!", "not ", "! "]) + "(" + random_filter(r, schema, depth + 1) + ")"
    sep = r.choice([" && ", " and ", " || ", " or ", "\n&& ", " ||\n  "])
    parts = [random_filter(r, schema, depth + 1) for _ in range(r.randint(2, 3))]
    text = sep.join(parts)
    return f"({text})" if r.random() < 0.5 else text


NOISE = ["&", "|", "=", "\"", "(", ")", "[", "]", ",", "0x", "-", "1.5", "10ms", "0s", "5h",
         "@", "é", "😀", "\\", "\\q", "\\u12", "!", "<", "in", "over", "count()", "sum(", "9" * 20,
         "prefix", "\n", "//", "#/", "a+", "matches", "\t", "x", "price", "Price", "prce", ".", "1e5", "0xZZ", "-0x8000000000000000"]


def mutate(r: random.Random, text: str, schema: Schema) -> str:
    for _ in range(r.randint(1, 2)):
        pick = r.random()
        i = r.randint(0, len(text))
        if pick < 0.4:
            text = text[:i] + r.choice(NOISE) + text[i:]
        elif pick < 0.7 and text:
            j = min(len(text), i + r.randint(1, 4))
            text = text[:i] + text[j:]
        elif pick < 0.85:
            a = r.choice(schema.attributes)
            bad = r.choice([a.name[:-1] or "zz", a.name.upper(), a.name + "x", "unknown"])
            text = text.replace(a.name, bad, 1)
        else:
            text = text[:i]
    return text
