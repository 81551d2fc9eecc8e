"""What a host needs to address events exactly as the controller routes them: the controller's
``GET /v1/pubsub`` answer (schema YAML, schema id, index length and dimensions, event port,
routing), checked and turned into a schema, a spatial index and an address layout."""

from __future__ import annotations

from .errors import SchemaError
from .index import SpatialIndex
from .index_layout import ROUND_ROBIN, IndexLayout
from .layouts import layout_for
from .local import parse_switch
from .schema import Schema
from .schema_yaml import parse_schema_yaml

DEFAULT_EVENT_PORT = 7073


class PubSubConfig:
    def __init__(self, schema: Schema, length: int | None = None,
                 event_port: int = DEFAULT_EVENT_PORT, routing: str = "pleroma",
                 local_switch: tuple[str, int] | None = None,
                 layout: IndexLayout = ROUND_ROBIN):
        if not 1 <= event_port <= 65535:
            raise ValueError(f"event_port {event_port} is not a UDP port")
        self.schema = schema
        self.index = SpatialIndex(schema, length, layout)
        self.event_port = event_port
        self.routing = routing
        # On a local network (nps local, docs/local.md): where hosts attach; None on a real one.
        self.local_switch = local_switch
        self.layout = layout_for(routing, schema, self.index)
        self.address = self.layout.address  # values (schema order) -> 128-bit int

    @classmethod
    def from_answer(cls, answer: dict) -> "PubSubConfig":
        """From the JSON object of ``GET /v1/pubsub``; ValueError naming what does not fit."""
        for key in ("schema", "schema_id", "index"):
            if answer.get(key) is None:
                raise ValueError(f"the answer has no '{key}'")
        index = answer["index"]
        if not isinstance(index, dict) or "length" not in index or "dimensions" not in index:
            raise ValueError("the answer's 'index' needs 'length' and 'dimensions'")
        # The layout (docs/content-model.md, "Index layouts") is read from its JSON; the schema
        # YAML carries it too, in flow mappings, which are skipped.
        layout = IndexLayout.from_json(index.get("layout"))
        try:
            schema = parse_schema_yaml(str(answer["schema"]), "controller schema", skip_layout=True)
        except SchemaError as e:
            raise ValueError(f"the controller's schema: {e}") from None
        schema_id = _schema_id(answer["schema_id"])
        if schema_id != schema.id:
            raise ValueError(f"the controller's schema_id {schema_id:08x}"
                             f" does not match its schema (id {schema.id:08x})")
        try:
            schema = schema.with_index([str(d) for d in index["dimensions"]])
        except SchemaError as e:
            raise ValueError(str(e)) from None
        local = answer.get("local_switch")
        return cls(schema, int(index["length"]), int(answer.get("event_port", DEFAULT_EVENT_PORT)),
                   str(answer.get("routing", "pleroma")),
                   parse_switch(str(local)) if local is not None else None, layout)


def _schema_id(value) -> int:
    """8 hex digits as the controller and the CLI print it; a number from older controllers."""
    if isinstance(value, str):
        try:
            return int(value, 16) & 0xFFFFFFFF
        except ValueError:
            raise ValueError(f"the controller's schema_id is not hex: {value!r}") from None
    return int(value) & 0xFFFFFFFF
