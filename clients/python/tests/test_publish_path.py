"""The generated publish path (netpubsub.publish_path) against the publisher's reference methods
(its naive twin): on random schemas, layouts, advertisements, events (some invalid) and payloads,
buffered or not, to a fixed destination or to content addresses, both raise the same errors,
return the same stamped events and send the same datagrams to the same destinations."""

from __future__ import annotations

import random

from randoms import random_filter, random_payload, random_schema, random_values

from netpubsub import ControllerClient, PubSubConfig, Publisher, Registration
from netpubsub.datagrams import name_text
from netpubsub.filter import has_aggregates, parse_tree

CASES = 60
EVENTS = 25


class _Offline(ControllerClient):
    def advertise(self, host, filter):
        return Registration("a-1", host, filter, -1, 1, 0, 0, 0.0)

    def unadvertise(self, id):
        return None


class _Recorder:
    """A batch sender that keeps every datagram with its destination, and each batch's size."""

    def __init__(self, sent):
        self.sent, self.sizes = sent, []

    def send(self, datas, names):
        self.sizes.append(len(datas))
        self.sent += [(d, name_text(n) if names else None) for d, n in
                      zip(datas, names or [None] * len(datas))]
        return []


def _publisher(config, batch, addressed, publisher_id, advertisement, reference):
    sent = []
    pub = Publisher(_Offline("http://[::1]:1"), host="::1", config=config, linger=0,
                    destination=None if addressed else ("::1", 9), batch=batch,
                    flush_delay=3600, publisher_id=publisher_id)
    if reference:  # the class's methods, not the generated ones
        del pub.publish, pub._enqueue, pub._emit_direct
        pub._emit = pub._enqueue if pub.batch else pub._emit_direct
    pub._sender = _Recorder(sent)
    pub._sendto = lambda data, to: sent.append((data, to))
    pub._send_data = lambda data: sent.append((data, None))
    if advertisement is not None:
        pub.advertise(advertisement)
    return pub, sent


def _attrs(r: random.Random, schema) -> dict:
    """The attrs of random values, about one in three broken in one way."""
    attrs = {a.name: v for a, v in zip(schema.attributes, random_values(r, schema))}
    a = r.choice(schema.attributes)
    pick = r.randrange(12)
    if pick == 0:
        del attrs[a.name]
    elif pick == 1:
        attrs["unknown"] = 1
    elif pick == 2:
        attrs[a.name] = "x" if a.kind == "int" else 5
    elif pick == 3:
        attrs[a.name] = a.max + 1 if a.kind == "int" else "é" * (a.max_length + 1)
    elif pick == 4 and a.kind == "int":
        attrs[a.name] = True if a.min <= 1 <= a.max else 1.0
    return attrs


def _outcome(pub, attrs, payload, events):
    try:
        e = pub.publish(attrs, payload)
    except Exception as x:
        return type(x).__name__, str(x)
    events.append(e)
    return e.values, e.payload, e.publisher, e.sequence, e.schema is pub.schema


def _many(pub, items):
    try:
        return pub.publish_many(items)
    except Exception as x:
        return type(x).__name__, str(x)


def _unstamped(sent):
    """The datagrams with their timestamps zeroed (each publisher reads its own clock)."""
    return [(d[:22] + bytes(8) + d[30:], to) for d, to in sent]


def test_generated_publish_does_what_the_reference_methods_do():
    r = random.Random(34)
    for case in range(CASES):
        schema = random_schema(r)
        routing = r.choice(["pleroma", "pleroma", "camus-mr"])
        config = PubSubConfig(schema, None, 7000 + case, routing)
        advertisement = None
        if r.random() < 0.7:
            advertisement = random_filter(r, schema)
            if has_aggregates(parse_tree(schema, advertisement)):
                advertisement = "true"
        batch, addressed = r.choice([64, 3, False]), r.random() < 0.6
        publisher_id = r.getrandbits(64)
        items = [(_attrs(r, schema), r.choice([random_payload(r), bytearray(b"ab")]))
                 for _ in range(EVENTS)]
        results = []
        for reference in (False, True):
            pub, sent = _publisher(config, batch, addressed, publisher_id, advertisement,
                                   reference)
            events = []
            outcomes = [_outcome(pub, attrs, payload, events) for attrs, payload in items]
            published = len(sent) if batch is False else None
            pub.flush()
            # the stamped events are what was sent (the clock read once per event)
            assert [pub.codec.decode(d) for d, _ in sent[:len(events)]] == events
            # publish_many: the events that went, then all of them (it stops at a bad one)
            ok = [item for item, o in zip(items, outcomes) if isinstance(o[0], list)]
            many = [_many(pub, ok), _many(pub, [a for a, _ in items])]
            pub.close()
            results.append((outcomes, many, _unstamped(sent), published, pub._sender.sizes,
                            pub.sequence))
        context = (case, schema, routing, advertisement, batch, addressed)
        assert results[0] == results[1], context
