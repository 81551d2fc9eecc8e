"""The event wire format, version 1, byte for byte as nps-content's ``EventCodec``.

::

    offset size field
     0     1    version = 1
     1     1    flags = 0 (reserved: any set bit is an error)
     2     4    schema id (CRC-32C of the attributes), big-endian
     6     8    publisher id, unsigned, big-endian
    14     8    sequence number, unsigned, big-endian
    22     8    timestamp, ns since the epoch, signed, big-endian
    30     ...  per attribute in schema order: int -> varint(value - min);
                string -> varint(UTF-8 length), the bytes
    ...    ...  payload: varint length, the bytes; nothing follows

Varints are unsigned LEB128 in their shortest form. Decoding hostile bytes raises
:class:`DecodeError` with Java's reason and offset, never another exception.

Speed: per schema, an encoder and a decoder are generated as straight-line Python (no loop over
attributes; varints below 16 384 looked up, up to three bytes inline; the encoder joins the pieces
in one call). The decoder's fast path handles well-formed events only;
anything unusual goes to :func:`decode_reference`, the line-by-line port of the Java decoder,
which raises the exact error.
"""

from __future__ import annotations

import struct

from .errors import DecodeError
from .event import U64, Event, check_value
from .schema import IntAttribute, Schema
from .topics import name_problem

VERSION = 1
MAX_SIZE = 65_000
HEADER_SIZE = 30
_HEADER_START = struct.Struct(">BBI")  # version, flags, schema id: constant per schema
_HEADER_STAMP = struct.Struct(">QQq")  # publisher, sequence, timestamp
_HEADER_FIELDS = struct.Struct(">IQQq")
_THREE_BYTES = struct.Struct("BBB")


def varint(value: int) -> bytes:
    """Unsigned LEB128 of 0 <= value < 2^64."""
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _signed64(v: int) -> int:
    v &= U64
    return v - (1 << 64) if v >> 63 else v


# The varints below 16 384 (one or two bytes), looked up rather than computed: most int offsets
# and every string length up to max_length 16 383 are.
_SMALL_VARINTS = [varint(v) for v in range(16384)]


class _Reader:
    """Java's WireReader: a bounds-checked cursor whose errors carry the offset."""

    __slots__ = ("b", "pos")

    def __init__(self, b: bytes):
        self.b = b
        self.pos = 0

    def remaining(self) -> int:
        return len(self.b) - self.pos

    def varint(self, what: str) -> int:
        at = self.pos
        result = 0
        i = 0
        while True:
            if self.pos >= len(self.b):
                raise DecodeError("TRUNCATED", self.pos, "input ends inside " + what)
            byte = self.b[self.pos]
            self.pos += 1
            if i == 9 and byte > 1:
                raise DecodeError("VARINT_TOO_LONG", at, what + " does not fit 64 bits")
            result |= (byte & 0x7F) << (7 * i)
            if not byte & 0x80:
                if byte == 0 and i > 0:
                    raise DecodeError("NON_CANONICAL_VARINT", at,
                                      f"{what} has {i + 1} bytes, more than needed")
                return result
            i += 1

    def length(self, length: int, at: int, what: str) -> int:
        if length > self.remaining():
            raise DecodeError("LENGTH_EXCEEDS_INPUT", at,
                              f"{what} length {length} exceeds the {self.remaining()} bytes left")
        return length

    def utf8(self, length: int, what: str) -> str:
        try:
            s = self.b[self.pos:self.pos + length].decode("utf-8")
        except UnicodeDecodeError as e:
            raise DecodeError("INVALID_UTF8", self.pos + e.start,
                              what + " is not well-formed UTF-8") from None
        self.pos += length
        return s


def peek_header(b: bytes) -> tuple[int, int, int, int]:
    """(schema id, publisher, sequence, timestamp_ns) of an encoded event, values unchecked."""
    b = bytes(b)
    if len(b) < 1:
        raise DecodeError("TRUNCATED", 0, "input ends inside the version")
    if b[0] != VERSION:
        raise DecodeError("UNSUPPORTED_VERSION", 0, f"version {b[0]}, this codec reads {VERSION}")
    if len(b) < HEADER_SIZE:
        raise DecodeError("TRUNCATED", len(b), f"a header has {HEADER_SIZE} bytes")
    if b[1] != 0:
        raise DecodeError("BAD_FLAGS", 1, f"flags {b[1]:02x}, all reserved")
    return _HEADER_FIELDS.unpack_from(b, 2)


def decode_reference(schema: Schema, b: bytes) -> Event:
    """The Java decoder, statement by statement: the exact reason and offset of every error."""
    b = bytes(b)
    if len(b) > MAX_SIZE:
        raise DecodeError("TOO_LARGE", MAX_SIZE, f"{len(b)} bytes, more than an event's {MAX_SIZE}")
    schema_id, publisher, sequence, timestamp = peek_header(b)
    if schema_id != schema.id:
        raise DecodeError("SCHEMA_MISMATCH", 2, f"schema id {schema_id:08x}, expected "
                                                f"{schema.id:08x} ({schema.name})")
    r = _Reader(b)
    r.pos = HEADER_SIZE
    values = []
    for a in schema.attributes:
        at = r.pos
        if isinstance(a, IntAttribute):
            offset = r.varint(a.name)
            if offset > a.max - a.min:
                raise DecodeError("VALUE_OUT_OF_DOMAIN", at, f"{a.name} = "
                                  f"{_signed64(a.min + offset)} outside [{a.min}, {a.max}]")
            values.append(a.min + offset)
        else:
            length = r.varint(a.name + " length")
            if length > a.max_length:
                raise DecodeError("STRING_TOO_LONG", at,
                                  f"{a.name} has {length} bytes, max_length is {a.max_length}")
            value = r.utf8(r.length(length, at, a.name), a.name)
            problem = a.levels and name_problem(value, a.levels)
            if problem:
                raise DecodeError("INVALID_TOPIC", at, f"{a.name}: {problem}")
            values.append(value)
    at = r.pos
    n = r.length(r.varint("payload length"), at, "payload")
    payload = b[r.pos:r.pos + n]
    r.pos += n
    if r.remaining() > 0:
        raise DecodeError("TRAILING_BYTES", r.pos, f"{r.remaining()} bytes follow the payload")
    return Event(schema, values, payload, publisher, sequence, timestamp)


class _Slow(Exception):
    """The fast decoder met something unusual: the reference decoder decides."""


def _read_varint(b: bytes, p: int) -> tuple[int, int]:
    """A varint of two or more bytes at p for the fast path; anything odd is _Slow."""
    result = 0
    shift = 0
    while True:
        byte = b[p]
        p += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            if byte == 0 or shift > 63 or result > U64:
                raise _Slow
            return result, p
        shift += 7


class EventCodec:
    """Encoder and decoder for one schema; thread-safe (no state besides the schema)."""

    def __init__(self, schema: Schema):
        self.schema = schema
        self._encode, self._decode = _generate(schema)

    def encode(self, event: Event) -> bytes:
        return self.encode_values(event.values, event.payload, event.publisher, event.sequence,
                                  event.timestamp_ns)

    def encode_values(self, values, payload: bytes = b"", publisher: int = 0, sequence: int = 0,
                      timestamp_ns: int = 0) -> bytes:
        """The encoded event of ``values`` (schema order), checked as Java's Event.Builder does.

        Raises ValueError naming the attribute when a value does not fit, or when the event
        would exceed one datagram (65 000 bytes)."""
        if len(values) != len(self.schema.attributes):
            raise ValueError(f"{len(values)} values for the {len(self.schema.attributes)} "
                             f"attributes of {self.schema.name}")
        return self._encode(values, payload, publisher & U64, sequence & U64, timestamp_ns)

    def decode(self, data: bytes) -> Event:
        """The event in ``data``; raises DecodeError (reason, offset) for anything else."""
        return self._decode(data)


def _fix(attribute, v):
    """The slow path of the generated encoder: Java's error, or the value as a plain int/str."""
    v = check_value(attribute, v)
    return int(v) if isinstance(attribute, IntAttribute) else str(v)


def _too_large(size: int, payload_length: int):
    raise ValueError(f"event encodes to {size} bytes, more than the {MAX_SIZE} that fit one "
                     f"datagram (payload {payload_length} bytes)")


def _int_varint(o: str, span: int) -> str:
    """The expression of the varint of offset ``o`` (0 <= o <= span): table look-ups below
    16 384, three bytes packed inline below 2^21."""
    expr = f"_small[{o}]"
    if span >= 16384:
        expr += f" if {o} < 16384 else _three({o} & 127 | 128, {o} >> 7 & 127 | 128, {o} >> 14)"
    if span >= 2097152:
        expr += f" if {o} < 2097152 else _varint({o})"
    return expr


def _length_varint(c: str, most: int) -> str:
    return f"_small[{c}]" if most < 16384 else f"(_small[{c}] if {c} < 16384 else _varint({c}))"


def _decode_varint(dec: list, span: int):
    """Lines reading the varint at p into c (p moves past it): one to three bytes inline (a
    zero last byte is non-canonical: _Slow), longer ones by _read_varint."""
    dec += ["        c = b[p]",
            "        if c < 128: p += 1"]
    if span < 128:
        dec.append("        else: raise _Slow")
        return
    dec += ["        else:",
            "            d = b[p + 1]",
            "            if 0 < d < 128: c = c & 127 | d << 7; p += 2"]
    if span >= 16384:
        dec += ["            elif d > 127 and 0 < b[p + 2] < 128:",
                "                c = c & 127 | (d & 127) << 7 | b[p + 2] << 14; p += 3"]
    dec.append("            else: c, p = _read_varint(b, p)")


def encoder_lines(schema: Schema, header: list[str]) -> list[str]:
    """The generated encoder's body (indented one level, names from :data:`ENCODER_SCOPE`):
    unpacks ``values`` into v0, v1, ..., checks them (Java's error through ``_fix``), encodes
    the strings and joins ``header`` (expressions of the header's bytes), the values and
    ``payload`` into ``out`` in one call. Shared with the publisher's generated publish
    (:mod:`.publish_path`), which inlines it."""
    names = [f"v{i}" for i in range(len(schema.attributes))]
    enc = [f"    {', '.join(names)}, = values"] if names else []
    pieces = list(header)
    for i, a in enumerate(schema.attributes):
        v = names[i]
        if isinstance(a, IntAttribute):
            span = a.max - a.min
            enc.append(f"    if {v}.__class__ is not int or {v} < {a.min} or {v} > {a.max}: "
                       f"{v} = _fix(_attrs[{i}], {v})")
            offset = v
            if a.min:
                enc.append(f"    o{i} = {v} - {a.min}")
                offset = f"o{i}"
            pieces.append(_int_varint(offset, span))
        else:
            enc += [f"    if {v}.__class__ is not str: {v} = _fix(_attrs[{i}], {v})",
                    f"    try: e{i} = {v}.encode()",
                    f"    except UnicodeEncodeError: _fix(_attrs[{i}], {v})",
                    f"    if len(e{i}) > {a.max_length}: _fix(_attrs[{i}], {v})"]
            if a.levels:
                enc.append(f"    if _topic({v}, {a.levels}): _fix(_attrs[{i}], {v})")
            pieces += [_length_varint(f"len(e{i})", a.max_length), f"e{i}"]
    pieces += [_length_varint("c", MAX_SIZE), "payload"]
    return enc + ["    c = len(payload)",
                  f"    out = b''.join(({', '.join(pieces)}))",
                  f"    if len(out) > {MAX_SIZE}: _too_large(len(out), c)"]


# What encoder_lines' code refers to (with _attrs, the schema's attributes).
ENCODER_SCOPE = {"_small": _SMALL_VARINTS, "_three": _THREE_BYTES.pack, "_varint": varint,
                 "_fix": _fix, "_too_large": _too_large, "_topic": name_problem}


def _generate(schema: Schema):
    """The encoder joins the event's pieces (the constant version, flags and schema id first)
    into bytes in one call; the decoder reads well-formed events straight through."""
    names = [f"v{i}" for i in range(len(schema.attributes))]
    enc = (["def encode(values, payload, publisher, sequence, timestamp):"]
           + encoder_lines(schema, ["_pre", "_fields3(publisher, sequence, timestamp)"])
           + ["    return out"])
    dec = ["def decode(b):",
           "    if b.__class__ is not bytes: b = bytes(b)",
           "    n = len(b)",
           f"    if n < 30 or n > {MAX_SIZE} or b[0] != 1 or b[1] != 0: return _slow(_schema, b)",
           "    sid, pub, seq, ts = _fields(b, 2)",
           f"    if sid != {schema.id}: return _slow(_schema, b)",
           "    p = 30",
           "    try:"]
    for i, a in enumerate(schema.attributes):
        v = names[i]
        if isinstance(a, IntAttribute):
            span = a.max - a.min
            _decode_varint(dec, span)
            if span < U64:
                dec.append(f"        if c > {span}: raise _Slow")
            dec.append(f"        {v} = c + {a.min}" if a.min else f"        {v} = c")
        else:
            _decode_varint(dec, a.max_length)
            dec += [f"        if c > {a.max_length}: raise _Slow",
                    "        e = p + c",
                    "        if e > n: raise _Slow",
                    f"        {v} = str(b[p:e], 'utf-8')",
                    f"        if _topic({v}, {a.levels}): raise _Slow" if a.levels else "",
                    "        p = e"]
    _decode_varint(dec, MAX_SIZE)
    dec += ["        if p + c != n: raise _Slow",
            "    except (IndexError, UnicodeDecodeError, _Slow):",
            "        return _slow(_schema, b)",
            f"    return _Event(_schema, [{', '.join(names)}], b[p:], pub, seq, ts)"]
    scope = {**ENCODER_SCOPE, "_pre": _HEADER_START.pack(VERSION, 0, schema.id),
             "_fields3": _HEADER_STAMP.pack, "_fields": _HEADER_FIELDS.unpack_from,
             "_attrs": schema.attributes, "_slow": decode_reference, "_schema": schema,
             "_read_varint": _read_varint, "_Slow": _Slow, "_Event": Event}
    dec = [line for line in dec if line]
    exec(compile("\n".join(enc) + "\n\n" + "\n".join(dec) + "\n", f"<codec {schema.name}>",
                 "exec"), scope)
    return scope["encode"], scope["decode"]
