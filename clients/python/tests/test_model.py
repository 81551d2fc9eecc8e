"""Unit tests of the pure parts: the paper's examples, the codec's errors, the schema YAML."""

from __future__ import annotations

import random

import pytest

from netpubsub import (DecodeError, EventCodec, Filter, FilterError, Schema, SchemaError,
                       SpatialIndex, format_address, parse_schema_yaml)
from netpubsub.codec import decode_reference
from netpubsub.event import Event
from netpubsub.layouts import QueryAddressLayout, layout_for

QUOTES = Schema.of("quotes", [("symbol", "string", 8), ("price", "int", 0, 100000),
                              ("volume", "int", 0, 1000000), ("exchange", "string", 4)],
                   ["price", "volume"])


def test_paper_example_dz_and_address():
    schema = Schema.of("p", [("P", "int", 0, 99), ("V", "int", 0, 99)])
    index = SpatialIndex(schema, 6)
    assert index.dz_text([65, 55]) == "110010"
    assert format_address(index.address([65, 55])) == "ff0e:c800::"
    assert index.bit_order() == ["P", "V", "P", "V", "P", "V"]


def test_resolved_dimensions_are_skipped_and_padding_is_zero():
    schema = Schema.of("s", [("a", "int", 0, 1), ("b", "int", 0, 3)])
    index = SpatialIndex(schema, 5)
    assert index.bit_order() == ["a", "b", "b", "", ""]
    assert index.dz_text([1, 2]) == "11000"


def test_schema_id_is_crc32c_of_the_attributes():
    # CRC-32C("123456789") is the standard check value.
    from netpubsub.schema import crc32c
    assert crc32c(b"123456789") == 0xE3069283
    assert QUOTES.id == Schema.of("other", [("symbol", "string", 8), ("price", "int", 0, 100000),
                                            ("volume", "int", 0, 1000000),
                                            ("exchange", "string", 4)]).id


def test_codec_round_trip_and_canonical_bytes():
    codec = EventCodec(QUOTES)
    event = Event(QUOTES, ["ACME", 600, 7, "XNYS"], b"x" * 200, 2**64 - 1, 1, -5)
    data = codec.encode(event)
    assert data[:2] == b"\x01\x00" and len(data) == 30 + 5 + 2 + 1 + 5 + 2 + 200
    assert codec.decode(data) == event == decode_reference(QUOTES, data)


@pytest.mark.parametrize("data, reason, offset", [
    (b"", "TRUNCATED", 0),
    (b"\x02" + bytes(29), "UNSUPPORTED_VERSION", 0),
    (b"\x01" + bytes(10), "TRUNCATED", 11),
    (b"\x01\x04" + bytes(28), "BAD_FLAGS", 1),
    (b"\x01\x00" + bytes(28), "SCHEMA_MISMATCH", 2),
])
def test_header_errors(data, reason, offset):
    with pytest.raises(DecodeError) as e:
        EventCodec(QUOTES).decode(data)
    assert (e.value.reason, e.value.offset) == (reason, offset)


def test_value_errors_name_the_field_and_offset():
    codec = EventCodec(QUOTES)
    good = codec.encode(Event(QUOTES, ["AB", 600, 7, "X"]))
    cases = {
        good[:33] + b"\x80\x00" + good[34:]: ("NON_CANONICAL_VARINT", 33),  # "AB" then price
        good + b"\x00": ("TRAILING_BYTES", len(good)),
        good[:30] + b"\x09" + good[31:]: ("STRING_TOO_LONG", 30),
        good[:31] + b"\xff\xfe" + good[33:]: ("INVALID_UTF8", 31),
        good[:-1]: ("TRUNCATED", len(good) - 1),
        bytes(65_001): ("TOO_LARGE", 65_000),
    }
    for data, expected in cases.items():
        with pytest.raises(DecodeError) as e:
            codec.decode(data)
        assert (e.value.reason, e.value.offset) == expected, e.value


def test_encoder_refuses_values_as_java_does():
    codec = EventCodec(QUOTES)
    with pytest.raises(ValueError, match=r"price = 100001 is outside \[0, 100000\]"):
        codec.encode_values(["A", 100001, 0, "X"])
    with pytest.raises(ValueError, match="symbol is longer than max_length 8 bytes"):
        codec.encode_values(["ééééé", 1, 0, "X"])
    with pytest.raises(ValueError, match="unpaired surrogate"):
        codec.encode_values(["\ud800", 1, 0, "X"])
    with pytest.raises(ValueError, match="price is an int attribute"):
        codec.encode_values(["A", "1", 0, "X"])
    with pytest.raises(ValueError, match="more than the 65000 that fit one datagram"):
        codec.encode_values(["A", 1, 0, "X"], bytes(65_000))


def test_fast_decoder_equals_reference_on_random_bytes():
    codec = EventCodec(QUOTES)
    r = random.Random(7)
    good = codec.encode(Event(QUOTES, ["AB", 600, 70000, "X"], b"pp"))
    for _ in range(3000):
        data = bytearray(good)
        data[r.randrange(len(data))] = r.randrange(256)
        outcomes = []
        for decode in (codec.decode, lambda d: decode_reference(QUOTES, d)):
            try:
                outcomes.append(decode(bytes(data)).values)
            except DecodeError as e:
                outcomes.append((e.reason, e.offset))
        assert outcomes[0] == outcomes[1]


def test_filter_errors_have_javas_message_and_column():
    with pytest.raises(FilterError) as e:
        Filter(QUOTES, "price > 10 && colour == 1")
    assert (e.value.line, e.value.column, e.value.reason) == (1, 15, "unknown attribute 'colour'")
    assert e.value.render().endswith("\n  price > 10 && colour == 1\n                ^")
    with pytest.raises(FilterError) as e:
        Filter(QUOTES, "price > 5 &&\n  prce < 3")
    assert (e.value.line, e.value.column) == (2, 3)
    assert e.value.reason == "unknown attribute 'prce' (did you mean 'price'?)"
    with pytest.raises(FilterError, match="filter nests deeper than 200 levels"):
        Filter(QUOTES, "(" * 201 + "true" + ")" * 201)


def test_evaluation_and_deep_filters():
    f = Filter(QUOTES, 'price > 500 && !(symbol prefix "AC") || volume in [1, 3]')
    assert f.matches(["XY", 600, 9, ""]) and f.matches(["ACME", 0, 2, ""])
    assert not f.matches(["ACME", 600, 9, ""])
    deep = Filter(QUOTES, "!" * 199 + "(price > 5)")
    assert deep.matches(["", 1, 0, ""]) and not deep.matches(["", 6, 0, ""])
    with pytest.raises(ValueError, match="stateful"):
        Filter(QUOTES, "count() > 3 over 1s").matches(["", 1, 0, ""])


def test_schema_yaml_reads_files_and_refuses_unknown_keys():
    text = open(__file__.rsplit("/", 4)[0] + "/examples/schemas/quotes.yaml").read()
    assert parse_schema_yaml(text) == QUOTES
    with pytest.raises(SchemaError) as e:
        parse_schema_yaml("name: x\nattributes:\n  - name: a\n    type: int\n    mn: 0\n")
    assert e.value.line == 5 and "unknown key 'mn'" in e.value.reason


def test_query_address_layout_packs_fields_in_order():
    schema = Schema.of("itch", [("stock", "string", 8), ("price", "int", 0, 2**32 - 1),
                                ("side", "string", 1), ("shares", "int", 0, 2**32 - 1)])
    layout = layout_for("camus-mr", schema, SpatialIndex(schema))
    assert isinstance(layout, QueryAddressLayout) and layout.left_out == ["shares"]
    address = layout.address(["GOOGL", 5, "B", 7])
    assert format(address, "032x") == "ff0e" + b"GOOGL\0\0\0".hex() + "00000005" + "42" + "00"
    with pytest.raises(ValueError, match="unknown routing 'x'"):
        layout_for("x", schema, SpatialIndex(schema))


def test_a_learned_index_layout_addresses_the_worked_example():
    """docs/content-model.md, "Index layouts": IBM / NYSE / 65000 / 550000 is dz 100010110."""
    from netpubsub.config import PubSubConfig
    from netpubsub.index_layout import IndexLayout

    schema = Schema.of("q", [("symbol", "string", 8), ("exchange", "string", 8),
                             ("price", "int", 0, 1_000_000), ("volume", "int", 0, 1_000_000)])
    layout = IndexLayout.from_json({
        "bits": ["symbol"] * 3 + ["exchange"] * 2 + ["price", "volume"] * 2,
        "codings": {"symbol": {"kind": "dictionary",
                               "values": ["AAPL", "ADBE", "AMZN", "IBM", "MSFT"]},
                    "exchange": {"kind": "hash"},
                    "price": {"kind": "cuts", "cuts": [50000, 80001]}}})
    config = PubSubConfig(schema, layout=layout)
    assert config.index.length == 9
    assert config.index.dz_text(["IBM", "NYSE", 65000, 550000]) == "100010110"
    assert format_address(config.address(["IBM", "NYSE", 65000, 550000])) == "ff0e:8b00::"


def test_a_layout_that_does_not_fit_is_refused_naming_the_field():
    from netpubsub.index_layout import IndexLayout

    schema = Schema.of("q", [("symbol", "string", 2), ("price", "int", 0, 9)], ["price"])
    bad = [({"bits": ["symbol"]}, "layout.bits: 'symbol' is not an index dimension"),
           ({"bits": ["price"] * 5}, "more than 4 bits of 'price'"),
           ({"codings": {"price": {"kind": "hash"}}}, "string attributes only"),
           ({"codings": {"price": {"kind": "cuts", "cuts": [3, 3]}}}, "strictly increasing"),
           ({"codings": {"price": {"kind": "cuts", "cuts": [0]}}}, r"outside \(0, 9\]"),
           ({"codings": {"price": {"kind": "zigzag"}}}, "layout.codings.price.kind: 'zigzag'")]
    for layout, message in bad:
        with pytest.raises(ValueError, match=message):
            SpatialIndex(schema, None, IndexLayout.from_json(layout))
    wide = schema.with_index(["symbol", "price"])
    for coding, message in [({"kind": "ordered", "common_bits": "102"}, "0s and 1s"),
                            ({"kind": "ordered", "common_bits": "0" * 17}, "longer than"),
                            ({"kind": "dictionary", "values": ["b", "a"]}, "sorted by UTF-8"),
                            ({"kind": "dictionary", "values": ["abc"]}, "longer than max_length"),
                            ({"kind": "topic", "level_bits": [40, 30]}, "70 bits in all"),
                            ({"kind": "topic", "level_bits": [4, 4], "level_order": [1, 1]},
                             "level_order")]:
        with pytest.raises(ValueError, match=f"layout.codings.symbol.*{message}"):
            SpatialIndex(wide, None, IndexLayout.from_json({"codings": {"symbol": coding}}))


def test_schema_id_is_read_as_hex_as_the_controller_prints_it():
    from pathlib import Path

    from netpubsub.config import PubSubConfig
    from netpubsub.schema_yaml import parse_schema_yaml

    text = (Path(__file__).resolve().parents[3] / "examples/schemas/quotes.yaml").read_text()
    schema = parse_schema_yaml(text, "quotes.yaml")
    answer = {"schema": text, "schema_id": f"{schema.id:08x}",
              "index": {"length": 32, "dimensions": ["price", "volume"]}}
    assert PubSubConfig.from_answer(answer).index.length == 32
    answer["schema_id"] = f"{(schema.id + 1) & 0xFFFFFFFF:08x}"
    with pytest.raises(ValueError, match="does not match"):
        PubSubConfig.from_answer(answer)
    answer["schema_id"] = "not-hex"
    with pytest.raises(ValueError, match="schema_id is not hex"):
        PubSubConfig.from_answer(answer)
