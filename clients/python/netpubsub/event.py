"""Events: a value for every attribute, in schema order, plus the header fields and a payload."""

from __future__ import annotations

from .schema import IntAttribute, Schema
from .topics import name_problem

U64 = (1 << 64) - 1


class Event:
    """One event of a schema. ``values`` follow the schema's attribute order; ``attrs`` is the
    same as a dict. ``publisher`` and ``sequence`` are unsigned 64-bit, ``timestamp_ns`` signed."""

    __slots__ = ("schema", "values", "payload", "publisher", "sequence", "timestamp_ns")

    def __init__(self, schema: Schema, values, payload: bytes = b"", publisher: int = 0,
                 sequence: int = 0, timestamp_ns: int = 0):
        self.schema = schema
        self.values = values
        self.payload = payload
        self.publisher = publisher
        self.sequence = sequence
        self.timestamp_ns = timestamp_ns

    @classmethod
    def of(cls, schema: Schema, attrs: dict, payload: bytes = b"", **header) -> "Event":
        """An event from ``{name: value}`` with every attribute exactly once, checked."""
        return cls(schema, values_of(schema, attrs), bytes(payload), **header)

    @property
    def attrs(self) -> dict:
        return {a.name: v for a, v in zip(self.schema.attributes, self.values)}

    def __getitem__(self, name: str):
        return self.values[self.schema.by_name[name].position]

    def __eq__(self, other):
        return isinstance(other, Event) and (
            other.schema.attributes, tuple(other.values), other.payload, other.publisher,
            other.sequence, other.timestamp_ns) == (
            self.schema.attributes, tuple(self.values), self.payload, self.publisher,
            self.sequence, self.timestamp_ns)

    def __hash__(self):
        return hash((tuple(self.values), self.payload, self.sequence))

    def __repr__(self):
        return f"Event({self.attrs}, payload={len(self.payload)} bytes, seq={self.sequence})"


def values_of(schema: Schema, attrs: dict) -> list:
    """The values of ``attrs`` in schema order; every attribute once, each in its domain."""
    values = []
    for a in schema.attributes:
        if a.name not in attrs:
            raise ValueError(f"attribute {a.name} has no value")
        values.append(check_value(a, attrs[a.name]))
    if len(attrs) != len(values):
        unknown = sorted(set(attrs) - set(schema.by_name))
        raise ValueError(f"unknown attribute {unknown[0]}")
    return values


def check_value(a, v):
    """``v`` if it fits attribute ``a`` (Event.Builder's checks), else ValueError naming ``a``."""
    if isinstance(a, IntAttribute):
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(f"{a.name} is an int attribute, not {type(v).__name__}")
        if not a.min <= v <= a.max:
            raise ValueError(f"{a.name} = {v} is outside [{a.min}, {a.max}]")
        return v
    if not isinstance(v, str):
        raise ValueError(f"{a.name} is a string attribute, not {type(v).__name__}")
    try:
        n = len(v.encode("utf-8"))
    except UnicodeEncodeError:
        raise ValueError(
            f"attribute {a.name} holds an unpaired surrogate, which UTF-8 cannot encode") from None
    if n > a.max_length:
        raise ValueError(f"{a.name} is longer than max_length {a.max_length} bytes")
    problem = a.levels and name_problem(v, a.levels)
    if problem:
        raise ValueError(f"{a.name}: {problem}")
    return v
