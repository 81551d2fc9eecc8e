"""The ``topic`` string coding of a learned index layout, exactly as nps-content's
``StringCoding.Topic`` (docs/content-model.md, "Topics"): the offset of a topic name and the
offset ranges of an MQTT filter or a prefix, so that a client computes the addresses the
controller's covers expect.

A name is split at ``/``; the levels are coded in ``level_order``, the i-th coded level in
``level_bits[i]`` bits: without a dictionary the top bits of its hash (an absent level 0); with
``level_values[i]`` (sorted by UTF-8 bytes, ``""`` an absent level) its index there, any other
value the escape code n, clamped to 2^bits - 1.
"""

from __future__ import annotations

from bisect import bisect_left

MASK = (1 << 64) - 1
MAX_RANGES = 4096


def string_hash(value: str) -> int:
    """FNV-1a over the UTF-8 bytes, then MurmurHash3's fmix64 (unsigned 64 bits)."""
    h = 0xCBF29CE484222325
    for b in value.encode("utf-8"):
        h = ((h ^ b) * 0x100000001B3) & MASK
    h ^= h >> 33
    h = (h * 0xFF51AFD7ED558CCD) & MASK
    h ^= h >> 33
    h = (h * 0xC4CEB9FE1A85EC53) & MASK
    h ^= h >> 33
    return h


class TopicCoding:
    """A published ``{kind: topic, level_bits, level_order?, level_values?}`` coding."""

    def __init__(self, level_bits: list[int], level_order: list[int] | None = None,
                 level_values: list[list[str]] | None = None):
        self.bits = [int(b) for b in level_bits]
        self.order = list(level_order) if level_order else list(range(len(self.bits)))
        values = level_values or []
        if not 1 <= len(self.bits) <= 16 or any(not 1 <= b <= 64 for b in self.bits) \
                or sum(self.bits) > 64:
            raise ValueError(f"level_bits: {self.bits} is not 1 to 16 levels of at most 64 bits")
        if sorted(self.order) != list(range(len(self.bits))):
            raise ValueError(f"level_order: {self.order} is not an order of the levels")
        if values and len(values) != len(self.bits):
            raise ValueError(f"level_values: {len(values)} lists for {len(self.bits)} levels")
        # Dictionaries compared by UTF-8 bytes, as Java sorts them.
        self.dicts = [[v.encode("utf-8") for v in d] for d in values] or [[] for _ in self.bits]
        self.width = sum(self.bits)

    def _code(self, i: int, text: str) -> int:
        b, d = self.bits[i], self.dicts[i]
        if not d:
            return 0 if text == "" else string_hash(text) >> (64 - b)
        key = text.encode("utf-8")
        k = bisect_left(d, key)
        code = k if k < len(d) and d[k] == key else len(d)
        return min(code, (1 << b) - 1)

    def _present(self, i: int) -> tuple[int, int]:
        b, d = self.bits[i], self.dicts[i]
        if not d:
            return 0, (1 << b) - 1
        hi = min(len(d), (1 << b) - 1)
        return min(1 if d[0] == b"" else 0, hi), hi

    def _spec(self, levels: list[str], known: int) -> list:
        spec: list = [None] * len(self.bits)
        for i, j in enumerate(self.order):
            c = self._code(i, levels[j] if j < known else "")
            spec[j] = (c, c)
        return spec

    def offset(self, name: str) -> int:
        levels = name.split("/")
        return self._ranges(self._spec(levels, len(levels)), MAX_RANGES)[0]

    def prefix_ranges(self, prefix: str) -> list[int]:
        levels = prefix.split("/")
        whole = len(levels) - 1  # the last piece may continue in a name
        spec = self._spec(levels, whole)
        for j in range(whole, len(spec)):
            spec[j] = None
        return self._ranges(spec, MAX_RANGES)

    def pattern_ranges(self, pattern: str, max_ranges: int = MAX_RANGES) -> list[int]:
        f = pattern.split("/")
        known = f.index("#") if "#" in f else len(f)
        spec = self._spec(f, known)
        for i, j in enumerate(self.order):
            if j >= known and known < len(f):
                spec[j] = None
            elif j < known and f[j] == "+":
                spec[j] = self._present(i)
        return self._ranges(spec, max_ranges)

    def _ranges(self, spec: list, max_ranges: int) -> list[int]:
        """Ascending inclusive ranges {lo0, hi0, ...}: Java's ``Topic.ranges``."""
        starts = [0]
        used = 0
        for i, b in enumerate(self.bits):
            if all(spec[self.order[k]] is None for k in range(i, len(self.bits))):
                break
            code = spec[self.order[i]]
            if code is None:
                code = (0, self._present(i)[1])
            count = code[1] - code[0] + 1
            if count != 1 and (count > max_ranges or len(starts) * count > max_ranges):
                break
            starts = [(s << b | c) & MASK for s in starts for c in range(code[0], code[1] + 1)]
            used += b
        free_bits = self.width - used
        free = (1 << free_bits) - 1
        out: list[int] = []
        for s in starts:
            lo = (s << free_bits) & MASK
            if out and out[-1] + 1 == lo:
                out[-1] = lo | free
            else:
                out += [lo, lo | free]
        return out
