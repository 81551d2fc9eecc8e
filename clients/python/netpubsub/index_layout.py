"""An index layout, as nps-content's ``IndexLayout`` and as ``GET /v1/pubsub`` publishes it in
``index.layout``: ``bits``, the dimension of dz bits 0, 1, ... (bits past them continue
round-robin), and ``codings``, per index dimension its coding's JSON object (:mod:`.codings`).
The empty layout is PLEROMA's round-robin interleaving."""

from __future__ import annotations

from .codings import coding_for

MAX_BITS = 112  # IndexLayout.MAX_BITS


class IndexLayout:
    """``bits`` (names of index dimensions) and ``codings`` (name -> published JSON object)."""

    def __init__(self, bits: list[str] | None = None, codings: dict | None = None):
        self.bits = list(bits or [])
        self.codings = dict(codings or {})
        if len(self.bits) > MAX_BITS:
            raise ValueError(f"layout.bits: {len(self.bits)} bits, a dz has at most {MAX_BITS}")

    @classmethod
    def from_json(cls, obj) -> "IndexLayout":
        """From ``index.layout`` of ``GET /v1/pubsub`` (None or {}: round-robin)."""
        if obj is None:
            return ROUND_ROBIN
        if not isinstance(obj, dict):
            raise ValueError(f"layout must be an object, got {obj!r}")
        bits = obj.get("bits") or []
        codings = obj.get("codings") or {}
        if not isinstance(bits, list) or not all(isinstance(b, str) for b in bits):
            raise ValueError(f"layout.bits must be a list of dimension names, got {bits!r}")
        if not isinstance(codings, dict):
            raise ValueError(f"layout.codings must map attribute names to codings, got {codings!r}")
        return cls(bits, codings)

    @property
    def is_round_robin(self) -> bool:
        return not self.bits and not self.codings

    def check(self, schema) -> None:
        """ValueError naming the field when this layout does not fit ``schema``'s index: names
        that are not index dimensions, or a coding that does not fit its attribute."""
        index = [a.name for a in schema.index]
        for b in self.bits:
            if b not in index:
                raise ValueError(f"layout.bits: '{b}' is not an index dimension (index: {index})")
        for name in self.codings:
            if name not in index:
                raise ValueError(f"layout.codings.{name}: '{name}' is not an index dimension")
            coding_for(schema.attribute(name), self.codings[name])

    def coding(self, a):
        """The coding of index attribute ``a`` (its published one, or the default)."""
        return coding_for(a, self.codings.get(a.name))

    def __eq__(self, other):
        return isinstance(other, IndexLayout) and (other.bits, other.codings) == (
            self.bits, self.codings)

    def __hash__(self):
        return hash(tuple(self.bits))

    def __repr__(self):
        return f"IndexLayout(bits={self.bits}, codings={self.codings})"


ROUND_ROBIN = IndexLayout()
