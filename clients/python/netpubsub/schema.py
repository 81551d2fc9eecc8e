"""Schemas: the attributes every event carries, in order, and the index dimensions.

The same model as nps-content's ``Schema``: int attributes are 64-bit signed with an inclusive
domain, string attributes bound their UTF-8 length. The schema id is CRC-32C of the attributes'
names, types and domains, computed exactly as Java's ``Schema.id()``.
"""

from __future__ import annotations

import re

from .errors import SchemaError

INT_MIN = -(1 << 63)
INT_MAX = (1 << 63) - 1

# The filter language's keywords cannot name attributes (Lexer.KEYWORDS).
KEYWORDS = frozenset(
    "and or not true false in prefix suffix contains matches over count sum avg".split())

MAX_LEVELS = 16

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


class IntAttribute:
    __slots__ = ("name", "position", "min", "max")
    kind = "int"

    def __init__(self, name: str, position: int, min: int, max: int):
        if not (INT_MIN <= min <= INT_MAX and INT_MIN <= max <= INT_MAX):
            raise SchemaError(f"{name}: min and max must be 64-bit integers")
        if min > max:
            raise SchemaError(f"{name}: min {min} > max {max}")
        self.name, self.position, self.min, self.max = name, position, min, max

    def canonical(self) -> str:
        return f"{self.name}:int:{self.min}:{self.max}"

    def __eq__(self, other):
        return isinstance(other, IntAttribute) and (
            other.name, other.position, other.min, other.max) == (
            self.name, self.position, self.min, self.max)

    def __hash__(self):
        return hash((self.name, self.position, self.min, self.max))

    def __repr__(self):
        return f"IntAttribute({self.name!r}, [{self.min}, {self.max}])"


class StringAttribute:
    """A string; with ``levels`` > 0 a ``type: topic`` attribute of MQTT topic names (:mod:`.topics`)."""
    __slots__ = ("name", "position", "max_length", "levels")
    kind = "string"

    def __init__(self, name: str, position: int, max_length: int, levels: int = 0):
        if not 0 <= max_length <= 65535:
            raise SchemaError(f"{name}: max_length {max_length} is outside 0..65535")
        if not 0 <= levels <= MAX_LEVELS:
            raise SchemaError(f"{name}: levels {levels} is outside 1..{MAX_LEVELS}")
        if levels and not max_length:
            raise SchemaError(f"{name}: a topic needs max_length of at least 1")
        self.name, self.position, self.max_length, self.levels = name, position, max_length, levels

    @property
    def is_topic(self) -> bool:
        return self.levels > 0

    def canonical(self) -> str:
        if self.levels:
            return f"{self.name}:topic:{self.max_length}:{self.levels}"
        return f"{self.name}:string:{self.max_length}"

    def __eq__(self, other):
        return isinstance(other, StringAttribute) and (
            other.name, other.position, other.max_length, other.levels) == (
            self.name, self.position, self.max_length, self.levels)

    def __hash__(self):
        return hash((self.name, self.position, self.max_length, self.levels))

    def __repr__(self):
        topic = f", levels={self.levels}" if self.levels else ""
        return f"StringAttribute({self.name!r}, max_length={self.max_length}{topic})"


class Schema:
    """Attributes in order, looked up by name, and the index dimensions (default: all)."""

    def __init__(self, name: str, attributes: list, index: list[str] | None = None):
        self.name = name
        self.attributes = tuple(attributes)
        self.by_name = {}
        for position, a in enumerate(self.attributes):
            if a.position != position:
                raise SchemaError(f"attribute {a.name} is at position {position}, not {a.position}")
            if not _NAME.match(a.name) or a.name in KEYWORDS:
                raise SchemaError(f"attribute name {a.name!r} is not a name or is reserved")
            if a.name in self.by_name:
                raise SchemaError(f"duplicate attribute {a.name}")
            self.by_name[a.name] = a
        if index is None:
            self.index = self.attributes
        else:
            dims = []
            for n in index:
                if n not in self.by_name:
                    raise SchemaError(f"index names unknown attribute {n}")
                if self.by_name[n] in dims:
                    raise SchemaError(f"index names {n} twice")
                dims.append(self.by_name[n])
            self.index = tuple(dims)
        self.id = crc32c(";".join(a.canonical() for a in self.attributes).encode()
                         + (b";" if self.attributes else b""))

    @classmethod
    def of(cls, name: str, attributes: list[tuple], index: list[str] | None = None) -> "Schema":
        """``Schema.of("q", [("symbol", "string", 8), ("price", "int", 0, 100)])``."""
        built = []
        for position, spec in enumerate(attributes):
            if spec[1] == "int":
                built.append(IntAttribute(spec[0], position, spec[2], spec[3]))
            elif spec[1] == "string":
                built.append(StringAttribute(spec[0], position, spec[2]))
            elif spec[1] == "topic":
                built.append(StringAttribute(spec[0], position, spec[2], spec[3]))
            else:
                raise SchemaError(f"{spec[0]}: unknown type {spec[1]!r}")
        return cls(name, built, index)

    def with_index(self, names: list[str]) -> "Schema":
        return Schema(self.name, list(self.attributes), list(names))

    def attribute(self, name: str):
        return self.by_name.get(name)

    @property
    def signed_id(self) -> int:
        """The id as Java's signed int (what the controller's JSON holds)."""
        return self.id - (1 << 32) if self.id >= 1 << 31 else self.id

    def __eq__(self, other):
        return isinstance(other, Schema) and (other.name, other.attributes, other.index) == (
            self.name, self.attributes, self.index)

    def __hash__(self):
        return hash((self.attributes, self.index))

    def __repr__(self):
        return f"Schema({self.name!r}, {list(self.attributes)}, index={[a.name for a in self.index]})"


def _crc32c_table() -> list[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC32C = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), as java.util.zip.CRC32C; unsigned."""
    crc = 0xFFFFFFFF
    table = _CRC32C
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF
