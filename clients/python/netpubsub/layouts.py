"""Where an event is sent: one layout per routing the controller announces in ``GET /v1/pubsub``.

- ``pleroma``: the content address, ff0e::/16 followed by the event's dz (:mod:`.index`).
- ``camus-mr``, ``camus-tr``: the query address (nps-network's ``QueryAddressLayout`` of
  ``MessageSpec.fromSchema``): after ff0e::/16, every attribute in schema order as a field of its
  own width (an int: value - min in as many bits as the domain needs; a string: its first
  min(max(max_length, 1), 8) UTF-8 bytes, NUL padded), most significant bit first; a field that
  does not fit the 112 bits is left out and the next ones that fit still travel.

A new layout is one class with ``address(values) -> int`` and a constructor taking the
:class:`~netpubsub.config.PubSubConfig` parts, registered in :data:`LAYOUTS`.
"""

from __future__ import annotations

from .index import PREFIX, SpatialIndex
from .schema import IntAttribute, Schema


class ContentAddressLayout:
    """PLEROMA: the destination is the content address of the event's dz."""

    def __init__(self, schema: Schema, index: SpatialIndex):
        self.index = index
        self.address = index.address


class QueryAddressLayout:
    """Camus: the destination carries the query fields themselves."""

    def __init__(self, schema: Schema, index: SpatialIndex):
        self.fields = []  # (position, is_int, min or bytes, shift)
        self.left_out = []
        next_bit = 16
        for a in schema.attributes:
            if isinstance(a, IntAttribute):
                width = max(1, (a.max - a.min).bit_length())
            else:
                width = 8 * min(max(a.max_length, 1), 8)
            if next_bit + width <= 128:
                shift = 128 - next_bit - width
                field = (a.position, True, a.min, shift) if isinstance(a, IntAttribute) else (
                    a.position, False, width // 8, shift)
                self.fields.append(field)
                next_bit += width
            else:
                self.left_out.append(a.name)

    def address(self, values) -> int:
        out = PREFIX << 112
        for position, is_int, arg, shift in self.fields:
            v = values[position]
            if is_int:
                out |= (v - arg) << shift
            else:
                out |= int.from_bytes(v.encode("utf-8")[:arg].ljust(arg, b"\0"), "big") << shift
        return out


LAYOUTS = {
    "pleroma": ContentAddressLayout,
    "camus-mr": QueryAddressLayout,
    "camus-tr": QueryAddressLayout,
}


def layout_for(routing: str, schema: Schema, index: SpatialIndex):
    """The layout of ``routing``; ValueError naming it when this client does not know it."""
    try:
        kind = LAYOUTS[routing]
    except KeyError:
        raise ValueError(f"unknown routing '{routing}' (this client knows "
                         f"{', '.join(sorted(LAYOUTS))})") from None
    return kind(schema, index)
