"""The publisher's hot path, generated per publisher as straight-line Python (as the codec's
encoder is per schema): ``publish`` in one function, with no call between its steps -- the values
picked from the attrs, the lock, the stamp, the encoder's lines (:func:`.codec.encoder_lines`,
the publisher id packed into the constant header), the advertisement check, the content
address and the pending batch (or the send).

The publisher's methods ``publish``, ``_enqueue`` and ``_emit_direct`` are the readable
reference: the generated functions shadow them on each instance and do the same, step for step
(tests/test_publish_path.py holds them to it). The generated code reads the publisher's state
(``_match``, ``_address``, ``_sender``, the caches...) from it at every call: ``advertise``, a new
index and a test's replaced sender take effect at once.
"""

from __future__ import annotations

import struct
import time

from .codec import ENCODER_SCOPE, VERSION, encoder_lines
from .event import Event, values_of

_HEADER_HEAD = struct.Struct(">BBIQ")  # version, flags, schema id, publisher id: constant
_HEADER_TAIL = struct.Struct(">Qq")  # sequence, timestamp


def _core(schema, tail: list[str]) -> list[str]:
    """Holding the lock: stamps, encodes and checks the event of ``values``, then ``tail``."""
    return (["    if pub._closed: raise RuntimeError('publisher is closed')",
             "    sequence = pub.sequence + 1",
             "    now = _time_ns()"]
            + encoder_lines(schema, ["_head", "_tail(sequence, now)"])
            + ["    if not pub._match(values): pub._outside(values)"]
            + tail)


# The pending batch (_enqueue): the destination (when events go to their content addresses)
# before the datagram, so that the two lists never differ in length.
_BATCH_ADDRESS = ["    a = pub._address(values)",
                  "    pub._pending_to.append(pub._sockaddrs.get(a) or pub._sockaddr(a))"]
_BATCH = ["    pending = pub._pending",
          "    pending.append(out)",
          "    pub.sequence = sequence",
          "    pub._last_sent = now",
          "    n = len(pending)",
          "    if n == 1: pub._start_batch()",
          "    elif n >= _cap: pub._flush_locked()"]
# One datagram now (_emit_direct): a connected socket reports an earlier datagram's ICMP "port
# unreachable" on a later send, so a refused send is tried once more.
_DIRECT_ADDRESS = ["    a = pub._address(values)",
                   "    to = pub._addresses.get(a) or pub._address_text(a)",
                   "    try: pub._sendto(out, to)",
                   "    except OSError as e: pub._send_failed(to, e)"]
_DIRECT = ["    try:",
           "        try: pub._send_data(out)",
           "        except ConnectionRefusedError: pub._send_data(out)",
           "    except OSError as e: pub._send_failed(pub.destination, e)"]
_STAMPED = ["    pub.sequence = sequence",
            "    pub._last_sent = now"]


def _indented(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def generate(pub):
    """``(publish, enqueue, emit_direct)`` for publisher ``pub``: its ``publish(attrs,
    payload=b"")`` (buffered when ``pub.batch``), and the ``_enqueue`` / ``_emit_direct`` of the
    values of one event, holding the lock, returning ``(sequence, time)``."""
    schema = pub.schema
    addressed = pub.destination is None
    batch = (_BATCH_ADDRESS if addressed else []) + _BATCH
    direct = (_DIRECT_ADDRESS if addressed else _DIRECT) + _STAMPED
    n = len(schema.attributes)
    publish = (["def publish(attrs, payload=b''):",
                "    try:",
                "        values = [*_pick(attrs)]",
                "    except (KeyError, TypeError):",
                "        values = _values_of(_schema, attrs)",
                f"    if len(attrs) != {n}: _values_of(_schema, attrs)",
                "    if pub._match is None: pub.advertise('true')",
                "    _acquire()",
                "    try:"]
               + _indented(_core(schema, batch if pub.batch else direct))
               + ["        if pub._error is not None: pub._raise_error()",
                  "    finally:",
                  "        _release()",
                  "    return _Event(_schema, values, payload if payload.__class__ is bytes else "
                  "bytes(payload), _publisher, sequence, now)"])
    lines = (publish
             + ["", "def enqueue(values, payload):"] + _core(schema, batch)
             + ["    return sequence, now"]
             + ["", "def emit_direct(values, payload):"] + _core(schema, direct)
             + ["    return sequence, now"])
    scope = {**ENCODER_SCOPE, "pub": pub, "_attrs": schema.attributes, "_schema": schema,
             "_pick": pub._pick, "_values_of": values_of, "_time_ns": time.time_ns,
             "_acquire": pub._lock.acquire, "_release": pub._lock.release, "_Event": Event,
             "_publisher": pub.publisher_id, "_cap": pub._cap, "_tail": _HEADER_TAIL.pack,
             "_head": _HEADER_HEAD.pack(VERSION, 0, schema.id, pub.publisher_id)}
    exec(compile("\n".join(lines) + "\n", f"<publish {schema.name}>", "exec"), scope)
    return scope["publish"], scope["enqueue"], scope["emit_direct"]
