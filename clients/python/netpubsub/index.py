"""PLEROMA's spatial index (event -> dz) and content addresses, exactly as nps-content's
``SpatialIndex``, ``IndexDimension``, ``Codes`` and ``ContentAddress``.

Bit i of a dz halves the current interval of one index dimension. The layout
(:class:`~netpubsub.index_layout.IndexLayout`) may name the dimension of the first bits; the bits
past them take turns in index order, a dimension whose cells already hold single values is
skipped, and once every dimension is resolved the remaining bits are 0. The k-bit code of offset
v in a dimension of ``size`` values is floor(v * 2^k / size); the offsets are the dimension's
coding's (:mod:`.codings`: by default v - min for ints and the first min(max_length, 8) UTF-8
bytes, zero-padded, as a big-endian number for strings).
"""

from __future__ import annotations

from .codings import IntRange
from .index_layout import ROUND_ROBIN, IndexLayout
from .schema import Schema

MAX_LENGTH = 112
PREFIX = 0xFF0E
CHUNK = 11  # code bits per spread table: 2 048 entries, a 17-bit code in two look-ups


class _Dimension:
    __slots__ = ("position", "coding", "plain_int", "min", "size")

    def __init__(self, a, layout: IndexLayout):
        self.position = a.position
        self.coding = layout.coding(a)
        # The round-robin int: inlined in dz(), the publisher's hot path.
        self.plain_int = isinstance(self.coding, IntRange)
        self.min = self.coding.min if self.plain_int else 0
        self.size = self.coding.size_minus1 + 1

    def resolution(self) -> int:
        return self.coding.size_minus1.bit_length()


def default_length(schema: Schema, layout: IndexLayout = ROUND_ROBIN) -> int:
    """The number of the layout's explicit bits if it has any; else min(112, sum of the index
    dimensions' resolutions), at least 1."""
    if layout.bits:
        return len(layout.bits)
    return max(1, min(MAX_LENGTH, sum(_Dimension(a, layout).resolution() for a in schema.index)))


class SpatialIndex:
    """Maps event values to the dz of length L of their cell. Immutable."""

    def __init__(self, schema: Schema, length: int | None = None,
                 layout: IndexLayout = ROUND_ROBIN):
        layout.check(schema)
        if length is None:
            length = default_length(schema, layout)
        if not 1 <= length <= MAX_LENGTH:
            raise ValueError(f"index length {length} is outside 1..{MAX_LENGTH}")
        self.schema = schema
        self.layout = layout
        self.length = length
        self.dims = [_Dimension(a, layout) for a in schema.index]
        names = [a.name for a in schema.index]
        if len(layout.bits) > length:
            raise ValueError(f"layout.bits: {len(layout.bits)} bits, more than the dz length "
                             f"{length}")
        bits_of = [0] * len(self.dims)
        dim_at = []
        for name in layout.bits:
            d = names.index(name)
            bits_of[d] += 1
            if bits_of[d] > self.dims[d].resolution():
                raise ValueError(f"layout.bits: more than {self.dims[d].resolution()} bits of "
                                 f"'{name}', which {self.dims[d].resolution()} bits resolve")
            dim_at.append(d)
        turn = 0
        for _ in range(len(layout.bits), length):
            chosen = -1
            for tried in range(len(self.dims)):
                d = (turn + tried) % len(self.dims)
                if bits_of[d] < self.dims[d].resolution():
                    chosen = d
                    bits_of[d] += 1
                    turn = d + 1
                    break
            dim_at.append(chosen)
        self.dim_at = dim_at
        self.bits_of = bits_of
        # Per dimension and per CHUNK bits of its code, the dz bits those bits contribute: the
        # bits of a code are spread by table look-ups instead of a loop over the L bits.
        self._spread = []
        for d in range(len(self.dims)):
            places = [length - 1 - i for i, x in enumerate(dim_at) if x == d]  # MSB of code first
            k = len(places)
            tables = []
            for chunk in range(0, k, CHUNK):
                # code bit chunk + j (from the code's LSB) goes to dz bit at[j]
                at = [1 << places[k - 1 - chunk - j] for j in range(min(CHUNK, k - chunk))]
                table = [0] * (1 << len(at))
                for piece in range(1, len(table)):  # the piece without its lowest bit, and it
                    low = piece & -piece
                    table[piece] = table[piece ^ low] | at[low.bit_length() - 1]
                tables.append(table)
            self._spread.append(tables)
        # (position, plain int min or the coding's offset, bits, size, spread tables) per dimension
        # that gets bits: dimensions without bits add nothing to the dz.
        self._plan = [(dim.position, dim.min if dim.plain_int else dim.coding.offset,
                       bits_of[d], dim.size, tuple(self._spread[d]))
                      for d, dim in enumerate(self.dims) if bits_of[d]]
        # dz(values): the dz bits of the event with ``values`` (schema order), an int of
        # ``length`` bits; address(values): the content address (128-bit int), ff0e::/16
        # followed by the dz. Generated functions, not methods: one call on the publish path.
        self.dz, self.address = _generate(self._plan, MAX_LENGTH - length)

    def bit_order(self) -> list[str]:
        """The index dimension each bit refines ("" for a padding bit)."""
        return ["" if d < 0 else self.schema.index[d].name for d in self.dim_at]

    def code(self, d: int, value) -> int:
        """The bits_of[d]-bit code of ``value`` in dimension d: floor(v * 2^k / size)."""
        dim = self.dims[d]
        return (dim.coding.offset(value) << self.bits_of[d]) // dim.size

    def dz_text(self, values) -> str:
        return format(self.dz(values), f"0{self.length}b")


def format_address(address: int) -> str:
    """RFC 5952 text of a 128-bit address, as Java's ContentAddress.format."""
    groups = [(address >> (112 - 16 * i)) & 0xFFFF for i in range(8)]
    best_start, best_len = -1, 1
    i = 0
    while i < 8:
        if groups[i]:
            i += 1
            continue
        j = i
        while j < 8 and groups[j] == 0:
            j += 1
        if j - i > best_len:
            best_start, best_len = i, j - i
        i = j
    out = ""
    i = 0
    while i < 8:
        if i == best_start:
            out += "::"
            i += best_len
            continue
        if out and not out.endswith(":"):
            out += ":"
        out += format(groups[i], "x")
        i += 1
    return out


def _generate(plan, shift: int):
    """dz(values) and address(values) as straight-line Python (the publisher's hot path): per
    dimension with bits its k-bit code, spread into the dz by one table look-up per CHUNK bits
    of the code, the look-ups of every dimension ORed in one expression."""
    body = []
    spread = []
    scope = {}
    for d, (position, offset, k, size, tables) in enumerate(plan):
        if offset.__class__ is int:
            value = f"(values[{position}] - {offset})" if offset else f"values[{position}]"
        else:
            scope[f"_offset{d}"] = offset
            value = f"_offset{d}(values[{position}])"
        body.append(f"    c{d} = ({value} << {k}) // {size}")
        for j, table in enumerate(tables):
            scope[f"_t{d}_{j}"] = table
            piece = f"c{d}" if j == 0 else f"c{d} >> {CHUNK * j}"
            spread.append(f"_t{d}_{j}[{piece} & {len(table) - 1}]")
    bits = " | ".join(spread) or "0"
    lines = (["def dz(values):"] + body + [f"    return {bits}", "", "def address(values):"]
             + body + [f"    return {PREFIX << 112} | ({bits}) << {shift}"])
    exec(compile("\n".join(lines) + "\n", "<spatial index>", "exec"), scope)
    return scope["dz"], scope["address"]
