"""Differential tests of learned index layouts against the Java implementation (nps-cli's
ClientOracle): the Python client builds its index from what the controller publishes
(``GET /v1/pubsub``'s schema and ``index.layout``, written by the Java side) and must address every
event exactly as Java does.

- random layouts: 10 000 events under random bit orders, string codings (ordered with common bits,
  hash, dictionary, topic with level order) and int cuts;
- learned layouts: events under layouts that Java's ``LayoutDesigner`` learns from random samples.
"""

from __future__ import annotations

import random
from collections import Counter

import oracle
from random_layouts import pooled_values, random_layout, schema_with_layout_yaml, value_pools
from randoms import random_filter, random_schema

from netpubsub.codings import coding_for
from netpubsub.config import PubSubConfig
from netpubsub.errors import FilterError
from netpubsub.evaluator import Filter
from netpubsub.index import format_address

CASES = 10_000
PER_SCHEMA = 50


def _config(answer: dict) -> PubSubConfig:
    return PubSubConfig.from_answer(answer)


def test_random_layouts_address_like_java():
    r = random.Random(31)
    schemas, requests = [], []
    kinds: Counter = Counter()
    while len(requests) < CASES:
        schema = random_schema(r)
        pools = value_pools(r, schema)
        bits, codings = random_layout(r, schema, pools)
        kinds.update(c["kind"] for c in codings.values())
        kinds["bits"] += bool(bits)
        kinds["level_order"] += sum("level_order" in c for c in codings.values())
        yaml = schema_with_layout_yaml(schema, bits, codings)
        dims = [a.name for a in schema.index]
        length = r.choice([None, None, r.randint(max(1, len(bits)), 112)])
        events = [pooled_values(r, schema, pools) for _ in range(PER_SCHEMA)]
        schemas.append(events)
        for i, values in enumerate(events):
            request = {"op": "address", "schema": yaml, "values": values, "dimensions": dims,
                       "routing": "pleroma", "pubsub": i == 0}
            if length is not None:
                request["length"] = length
            requests.append(request)
    answers = oracle.ask(requests)
    disagreements, k = [], 0
    for events in schemas:
        config = _config(answers[k]["pubsub"])
        for values in events:
            java = answers[k]
            mine = {"dz": config.index.dz_text(values),
                    "address": format_address(config.address(values))}
            if mine != {"dz": java["dz"], "address": java["address"]}:
                disagreements.append((answers[k - k % PER_SCHEMA]["pubsub"]["index"], values,
                                      mine, java))
            k += 1
    assert not disagreements, f"{len(disagreements)} of {k}: {disagreements[:3]}"
    # Every coding and explicit bit orders occur often: the test compares them.
    for kind in ("ordered", "hash", "dictionary", "topic", "cuts", "bits", "level_order"):
        assert kinds[kind] >= 20, kinds


def _sample_filters(r: random.Random, schema, n: int) -> list[str]:
    out = []
    while len(out) < n:
        text = random_filter(r, schema)
        try:
            if not Filter(schema, text).stateful:
                out.append(text)
        except FilterError:
            pass
    return out


def test_learned_layouts_address_like_java():
    r = random.Random(32)
    cases, requests = [], []
    while len(cases) < 2_000:
        schema = random_schema(r)
        if not any(coding_for(a, None).size_minus1 for a in schema.attributes):
            continue  # every attribute holds one value: nothing to learn (the designer refuses)
        pools = value_pools(r, schema)
        sample = [pooled_values(r, schema, pools) for _ in range(40)]
        requests.append({"op": "learn", "schema": schema_with_layout_yaml(schema, [], {}),
                         "events": sample, "filters": _sample_filters(r, schema, 12),
                         "length": r.randint(4, 40)})
        cases.extend((len(requests) - 1, values) for values in sample)
    answers = oracle.ask(requests)
    configs = [_config(a["pubsub"]) for a in answers]
    learned = sum(not c.index.layout.is_round_robin for c in configs)
    disagreements = []
    for (i, values), j in zip(cases, range(len(cases))):
        java = answers[i]["dz"][j % 40]
        mine = configs[i].index.dz_text(values)
        if mine != java:
            disagreements.append((answers[i]["pubsub"]["index"], values, mine, java))
    assert not disagreements, f"{len(disagreements)} of {len(cases)}: {disagreements[:3]}"
    assert learned > len(configs) * 3 // 4, (learned, len(configs))
