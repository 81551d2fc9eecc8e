"""How an index dimension maps values to unsigned offsets ``0 .. size_minus1``, exactly as
nps-content's ``StringCoding`` (ordered, hash, dictionary, topic) and ``IntCuts`` (cuts), and the
plain int range of a round-robin index (docs/content-model.md, "Index layouts").

A client only places events, so a coding here is its offset function and its size; covers are the
controller's. Each coding is one class with ``size_minus1`` and ``offset(value)``, built from the
attribute and the JSON object the controller publishes for it in ``GET /v1/pubsub``
(``index.layout.codings.NAME``), and registered by its ``kind`` in :data:`CODINGS`. A new coding
is one class here and one entry in :data:`CODINGS`.
"""

from __future__ import annotations

from bisect import bisect_right

from .schema import IntAttribute
from .topic_coding import TopicCoding, string_hash

MASK64 = (1 << 64) - 1
MAX_DICTIONARY = 4096  # StringCoding.MAX_DICTIONARY
MAX_CUTS = 4096  # IntCuts.MAX_CUTS
MAX_LEVELS = 16  # StringCoding.MAX_LEVELS


def _where(a, field: str = "") -> str:
    return f"layout.codings.{a.name}{'.' + field if field else ''}"


def _list(spec: dict, key: str, a) -> list:
    value = spec.get(key)
    if not isinstance(value, list):
        raise ValueError(f"{_where(a, key)} must be a list, got {value!r}")
    return value


def _ints(spec: dict, key: str, a) -> list[int]:
    out = _list(spec, key, a)
    for v in out:
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(f"{_where(a, key)}: {v!r} is not an integer")
    return out


def utf8_key(s: str) -> bytes:
    """The order of the ordered and dictionary codings: unsigned UTF-8 bytes."""
    return s.encode("utf-8")


class IntRange:
    """An int attribute without cuts: ``v - min``."""
    kind = "range"

    def __init__(self, a: IntAttribute, spec: dict | None = None):
        self.min = a.min
        self.size_minus1 = a.max - a.min

    def offset(self, value: int) -> int:
        return value - self.min


class Cuts:
    """An int attribute cut at c1 < ... < cm: the offset of v is the number of cuts <= v."""
    kind = "cuts"

    def __init__(self, a: IntAttribute, spec: dict):
        if not isinstance(a, IntAttribute):
            raise ValueError(f"{_where(a)}: cuts apply to int attributes only")
        cuts = _ints(spec, "cuts", a)
        if len(cuts) > MAX_CUTS:
            raise ValueError(f"{_where(a, 'cuts')}: {len(cuts)} cuts, at most {MAX_CUTS}")
        for lo, hi in zip(cuts, cuts[1:]):
            if lo >= hi:
                raise ValueError(f"{_where(a, 'cuts')}: cuts must be strictly increasing: "
                                 f"{lo} before {hi}")
        for c in cuts:
            if not a.min < c <= a.max:
                raise ValueError(f"{_where(a, 'cuts')}: cut {c} is outside ({a.min}, {a.max}]")
        self.cuts = cuts
        self.size_minus1 = len(cuts)

    def offset(self, value: int) -> int:
        return bisect_right(self.cuts, value)


class Ordered:
    """Order-preserving: the UTF-8 bytes, zero-padded, as one bit string; the leading
    ``common_bits`` are skipped (a value below them is 0, above them the last offset) and the next
    min(64, 8 * max_length - |common_bits|) bits are the offset. ``""`` is the default coding."""
    kind = "ordered"

    def __init__(self, a, spec: dict | None = None):
        common = (spec or {}).get("common_bits", "")
        if not isinstance(common, str) or common.strip("01"):
            raise ValueError(f"{_where(a, 'common_bits')} must be 0s and 1s, got {common!r}")
        if len(common) > 8 * a.max_length:
            raise ValueError(f"{_where(a, 'common_bits')}: longer than the attribute's "
                             f"{8 * a.max_length} bits")
        self.skip = len(common)
        self.common = int(common, 2) if common else 0
        self.width = min(64, 8 * a.max_length - self.skip)
        self.size_minus1 = (1 << self.width) - 1
        total = self.skip + self.width
        self.nbytes = (total + 7) // 8
        self.tail = 8 * self.nbytes - total  # bits after the offset's in the bytes read

    def offset(self, value: str) -> int:
        x = int.from_bytes(value.encode("utf-8")[: self.nbytes].ljust(self.nbytes, b"\0"), "big")
        x >>= self.tail
        if self.skip:
            head = x >> self.width
            if head != self.common:
                return 0 if head < self.common else self.size_minus1
        return x & self.size_minus1


class Hash:
    """A 64-bit hash of the UTF-8 bytes: equality is one point, a prefix the whole dimension."""
    kind = "hash"
    size_minus1 = MASK64

    def __init__(self, a, spec: dict | None = None):
        pass

    offset = staticmethod(string_hash)  # StringCoding.hash: FNV-1a, then fmix64


class Dictionary:
    """Value i of the values sorted by UTF-8 bytes has offset i, any other value the last, n."""
    kind = "dictionary"

    def __init__(self, a, spec: dict):
        values = _list(spec, "values", a)
        if len(values) > MAX_DICTIONARY:
            raise ValueError(f"{_where(a, 'values')}: {len(values)} values, at most "
                             f"{MAX_DICTIONARY}")
        for v in values:
            if not isinstance(v, str):
                raise ValueError(f"{_where(a, 'values')}: {v!r} is not a string")
            if len(v.encode("utf-8")) > a.max_length:
                raise ValueError(f"{_where(a, 'values')}: '{v}' is longer than max_length "
                                 f"{a.max_length}")
        for lo, hi in zip(values, values[1:]):
            if utf8_key(lo) >= utf8_key(hi):
                raise ValueError(f"{_where(a, 'values')} must be distinct and sorted by UTF-8 "
                                 f"bytes: '{lo}' before '{hi}'")
        self.codes = {v: i for i, v in enumerate(values)}
        self.size_minus1 = len(values)

    def offset(self, value: str) -> int:
        return self.codes.get(value, self.size_minus1)


class Topic:
    """A topic ``a/b/c``: the i-th coded level is level ``level_order[i]`` in ``level_bits[i]``
    bits, the codes concatenated in coding order; levels past the coded ones are ignored. A level
    is coded by its index in ``level_values[i]`` when the layout has dictionaries (an unseen value
    the escape code), else by the top bits of its hash. The arithmetic is
    :mod:`netpubsub.topic_coding`'s, which also gives a filter's ranges."""
    kind = "topic"

    def __init__(self, a, spec: dict):
        bits = _ints(spec, "level_bits", a)
        order = _ints(spec, "level_order", a) if "level_order" in spec else list(range(len(bits)))
        if not 1 <= len(bits) <= MAX_LEVELS:
            raise ValueError(f"{_where(a, 'level_bits')}: 1 to {MAX_LEVELS} levels")
        for b in bits:
            if not 1 <= b <= 64:
                raise ValueError(f"{_where(a, 'level_bits')}: {b} is outside 1..64")
        if sum(bits) > 64:
            raise ValueError(f"{_where(a, 'level_bits')}: {sum(bits)} bits in all, at most 64")
        if sorted(order) != list(range(len(bits))):
            raise ValueError(f"{_where(a, 'level_order')}: {order} is not an order of the levels "
                             f"0..{len(bits) - 1}")
        values = spec.get("level_values") or []
        if not isinstance(values, list) or any(
                not isinstance(d, list) or any(not isinstance(v, str) for v in d) for d in values):
            raise ValueError(f"{_where(a, 'level_values')} must be lists of strings, got {values!r}")
        try:
            self.coding = TopicCoding(bits, order, values)
        except ValueError as e:
            raise ValueError(f"{_where(a)}: {e}") from None
        self.size_minus1 = (1 << sum(bits)) - 1

    def offset(self, value: str) -> int:
        return self.coding.offset(value)


CODINGS = {c.kind: c for c in (Cuts, Ordered, Hash, Dictionary, Topic)}


def coding_for(a, spec: dict | None):
    """The coding of attribute ``a`` from its published JSON (None: the default coding)."""
    if spec is None:
        return IntRange(a) if isinstance(a, IntAttribute) else Ordered(a)
    if not isinstance(spec, dict):
        raise ValueError(f"{_where(a)} must be an object with a kind, got {spec!r}")
    kind = spec.get("kind")
    if kind not in CODINGS:
        raise ValueError(f"{_where(a, 'kind')}: {kind!r} is not a coding this client knows "
                         f"({', '.join(sorted(CODINGS))})")
    if isinstance(a, IntAttribute) and kind != "cuts":
        raise ValueError(f"{_where(a)}: codings apply to string attributes only")
    return CODINGS[kind](a, spec)
