"""Differential tests against the Java implementation (nps-cli's ClientOracle): random schemas,
events and filters, 10 000 cases each, and not one disagreement.

- codec: Python encodes and Java decodes, Java encodes and Python decodes, byte-identical;
- decode errors: corrupted encodings get the same reason and offset (or the same event);
- addresses: the same dz and content address (PLEROMA) or query address (Camus);
- parse errors: the same message, line and column, or both accept;
- matching: the same answer per (filter, event);
- topic codings (learned layouts' ``kind: topic``, level dictionaries included): the same offset
  per name and the same ranges per MQTT filter and prefix.
"""

from __future__ import annotations

import base64
import random

import oracle
from randoms import (mutate, random_filter, random_payload, random_schema, random_values,
                     schema_yaml)

from netpubsub.codec import EventCodec
from netpubsub.config import PubSubConfig
from netpubsub.errors import DecodeError, FilterError
from netpubsub.evaluator import Filter
from netpubsub.event import Event
from netpubsub.index import default_length, format_address
from netpubsub.topic_coding import TopicCoding
from netpubsub.schema_yaml import parse_schema_yaml

CASES = 10_000
PER_SCHEMA = 50
_CODECS: dict[int, EventCodec] = {}


def codec(schema) -> EventCodec:
    """One codec per schema: generating one costs a compile."""
    if id(schema) not in _CODECS:
        _CODECS[id(schema)] = EventCodec(schema)
    return _CODECS[id(schema)]


def _schemas(seed: int):
    """(schema, yaml) pairs, each used for PER_SCHEMA cases; the YAML goes through both parsers."""
    r = random.Random(seed)
    while True:
        schema = random_schema(r)
        yaml = schema_yaml(schema)
        assert parse_schema_yaml(yaml) == schema
        for _ in range(PER_SCHEMA):
            yield r, schema, yaml


def _header(r: random.Random) -> dict:
    return {"publisher": r.getrandbits(64), "sequence": r.choice([0, 1, r.getrandbits(64)]),
            "timestamp_ns": r.randint(-(1 << 63), (1 << 63) - 1)}


def test_codec_both_ways():
    cases, requests = [], []
    for _, (r, schema, yaml) in zip(range(CASES), _schemas(1)):
        event = Event(schema, random_values(r, schema), random_payload(r), **_header(r))
        mine = codec(schema).encode(event)
        cases.append((schema, event, mine))
        requests.append({"op": "decode", "schema": yaml, "hex": mine.hex()})
        requests.append({"op": "encode", "schema": yaml, "values": event.values,
                         "payload": base64.b64encode(event.payload).decode(),
                         "publisher": str(event.publisher), "sequence": str(event.sequence),
                         "timestamp": event.timestamp_ns})
    answers = oracle.ask(requests)
    disagreements = []
    for i, (schema, event, mine) in enumerate(cases):
        decoded, encoded = answers[2 * i], answers[2 * i + 1]
        java_event = {"values": decoded.get("values"), "payload": decoded.get("payload"),
                      "publisher": decoded.get("publisher"), "sequence": decoded.get("sequence"),
                      "timestamp": decoded.get("timestamp")}
        expected = {"values": event.values, "payload": base64.b64encode(event.payload).decode(),
                    "publisher": str(event.publisher), "sequence": str(event.sequence),
                    "timestamp": event.timestamp_ns}
        if java_event != expected:
            disagreements.append(("java decodes python", event, decoded))
        if encoded.get("hex") != mine.hex():
            disagreements.append(("encodings differ", event, encoded, mine.hex()))
        elif codec(schema).decode(bytes.fromhex(encoded["hex"])) != event:
            disagreements.append(("python decodes java", event))
    assert not disagreements, f"{len(disagreements)} of {CASES}: {disagreements[:3]}"


def _corrupt(r: random.Random, b: bytes) -> bytes:
    pick = r.randrange(6)
    i = r.randrange(len(b))
    if pick == 0:
        return b[:i]
    if pick == 1:
        return b[:i] + bytes([r.randrange(256)]) + b[i + 1:]
    if pick == 2:
        return b + bytes(r.randrange(256) for _ in range(r.randint(1, 3)))
    if pick == 3:
        return b[:i] + bytes([r.choice([0x80, 0xFF, 0xC0, 0xED, 0xF4, 0x00])]) + b[i:]
    if pick == 4:  # inside the values, where the interesting errors are
        j = r.randrange(30, len(b)) if len(b) > 30 else i
        return b[:j] + bytes([r.choice([0x80, 0x81, 0xFF, 0xC3, 0xE2, 0xF0, 0x7F])]) + b[j + 1:]
    return b[:i] + b[i + 1:]


def test_decode_errors_agree():
    cases, requests = [], []
    for _, (r, schema, yaml) in zip(range(CASES), _schemas(2)):
        event = Event(schema, random_values(r, schema), random_payload(r), **_header(r))
        data = _corrupt(r, codec(schema).encode(event))
        cases.append((schema, data))
        requests.append({"op": "decode", "schema": yaml, "hex": data.hex()})
    answers = oracle.ask(requests)
    disagreements, errors = [], 0
    for (schema, data), java in zip(cases, answers):
        try:
            mine = codec(schema).decode(data)
            outcome = {"values": mine.values}
        except DecodeError as e:
            errors += 1
            outcome = {"reason": e.reason, "offset": e.offset, "message": str(e)}
        theirs = {k: java[k] for k in outcome if k in java}
        if outcome != theirs:
            disagreements.append((data.hex(), outcome, java))
    assert not disagreements, f"{len(disagreements)} of {CASES}: {disagreements[:3]}"
    assert errors > CASES // 2, errors  # most corruptions are errors: the test compares them


def test_addresses_agree():
    cases, requests = [], []
    r = random.Random(3)
    while len(cases) < CASES:
        schema = random_schema(r, index=False)
        dims = r.sample([a.name for a in schema.attributes], r.randint(1, len(schema.attributes)))
        indexed = schema.with_index(dims)
        routing = r.choice(["pleroma", "pleroma", "camus-mr", "camus-tr"])
        length = r.choice([default_length(indexed), r.randint(1, 112)])
        config = PubSubConfig(indexed, length, routing=routing)
        for _ in range(PER_SCHEMA):
            values = random_values(r, schema)
            cases.append((config, values))
            requests.append({"op": "address", "schema": schema_yaml(schema), "values": values,
                             "dimensions": dims, "length": length, "routing": routing})
    answers = oracle.ask(requests)
    disagreements = []
    for (config, values), java in zip(cases, answers):
        address = config.address(values)
        if config.routing == "pleroma":
            mine = {"dz": config.index.dz_text(values), "address": format_address(address)}
        else:
            mine = {"address_hex": format(address, "032x")}
        if mine != java:
            disagreements.append((config.routing, values, mine, java))
    assert not disagreements, f"{len(disagreements)} of {len(cases)}: {disagreements[:3]}"


def test_parse_errors_agree():
    cases, requests = [], []
    for _, (r, schema, yaml) in zip(range(CASES), _schemas(4)):
        text = random_filter(r, schema)
        if r.random() < 0.6:
            text = mutate(r, text, schema)
        cases.append((schema, text))
        requests.append({"op": "parse", "schema": yaml, "filter": text})
    answers = oracle.ask(requests)
    disagreements, errors = [], 0
    for (schema, text), java in zip(cases, answers):
        try:
            f = Filter(schema, text)
            mine = {"ok": True, "stateful": f.stateful}
        except FilterError as e:
            errors += 1
            mine = {"reason": e.reason, "line": e.line, "column": e.column}
            mine = {k: v for k, v in mine.items() if v is not None}
        if mine != java:
            disagreements.append((text, mine, java))
    assert not disagreements, f"{len(disagreements)} of {CASES}: {disagreements[:3]}"
    assert CASES // 4 < errors < CASES * 3 // 4, errors  # both outcomes are well represented


def test_matches_agree():
    cases, requests = [], []
    events_per_filter = 10
    r = random.Random(5)
    while len(cases) < CASES:
        schema = random_schema(r)
        yaml = schema_yaml(schema)
        for _ in range(PER_SCHEMA // events_per_filter):
            f = Filter(schema, random_filter(r, schema))
            if f.stateful:
                continue
            events = [random_values(r, schema) for _ in range(events_per_filter)]
            cases.extend((f, v) for v in events)
            requests.append({"op": "match", "schema": yaml, "filter": f.text, "events": events})
    answers = oracle.ask(requests)
    java = [m for a in answers for m in a["matches"]]
    mine = [f.matches(v) for f, v in cases]
    disagreements = [(f.text, v, m, j) for (f, v), m, j in zip(cases, mine, java) if m != j]
    assert not disagreements, f"{len(disagreements)} of {len(cases)}: {disagreements[:3]}"
    assert 0.1 < sum(mine) / len(mine) < 0.9  # matches and misses both occur


LEVELS = ["a", "ab", "b", "c", "$s", "\u00e9", "z9", "dev7"]


def _topic_coding(r: random.Random) -> dict:
    """A random published topic coding: 1 to 5 levels, any order, hashed or dictionary levels
    (\"\" for absent, often more values than the bits hold: escape and clamping)."""
    n = r.randint(1, 5)
    bits = [r.choice([1, 2, 3, 4, 6, 8, r.randint(1, 64 // n)]) for _ in range(n)]
    order = r.sample(range(n), n)
    coding = {"kind": "topic", "level_bits": bits, "level_order": order}
    if r.random() < 0.7:
        pool = [""] + LEVELS
        coding["level_values"] = [
            [] if r.random() < 0.2 else
            sorted({v for v in pool if r.random() < 0.5}, key=lambda v: v.encode())
            for _ in range(n)]
    return coding


def _topic_name(r: random.Random) -> str:
    return "/".join(r.choice(LEVELS + ["x", "kitchen"]) for _ in range(r.randint(1, 6)))


def _topic_filter(r: random.Random) -> str:
    levels = [r.choice(LEVELS + ["+", "+", "x"]) for _ in range(r.randint(1, 5))]
    if r.random() < 0.4:
        levels.append("#")
    return "/".join(levels)


def test_topic_codings_agree():
    cases, requests = [], []
    r = random.Random(6)
    for _ in range(CASES // 20):  # 500 codings × 25 questions
        coding = _topic_coding(r)
        names = [_topic_name(r) for _ in range(10)]
        filters = [_topic_filter(r) for _ in range(10)]
        prefixes = [n + r.choice(["/", "", "/x"]) for n in names[:5]]
        cases.append((coding, names, filters, prefixes))
        requests.append({"op": "topic_coding", "coding": coding, "names": names,
                         "filters": filters, "prefixes": prefixes})
    answers = oracle.ask(requests)
    disagreements, enumerated = [], 0
    for (coding, names, filters, prefixes), java in zip(cases, answers):
        t = TopicCoding(coding["level_bits"], coding["level_order"], coding.get("level_values"))
        mine = {"offsets": [str(t.offset(n)) for n in names],
                "filters": [[str(x) for x in t.pattern_ranges(f)] for f in filters],
                "prefixes": [[str(x) for x in t.prefix_ranges(p)] for p in prefixes]}
        enumerated += sum(len(f) > 2 for f in mine["filters"])
        if mine != java:
            disagreements.append((coding, mine, java))
    assert not disagreements, f"{len(disagreements)} of {len(cases)}: {disagreements[:1]}"
    assert enumerated > len(cases)  # '+' before a fixed level (several ranges) is exercised
