"""The head-to-head's pure logic (pubsub/peer_verdict.py): the topic mapping is sound and as
narrow as the symbol list allows, and a system is refused, with the reason, when a process died
or a subscriber's deliveries differ from the direct evaluation of its filter."""

import os
import sys

from hdrh.histogram import HdrHistogram

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "clients", "python"))

from netpubsub import Filter, parse_schema_yaml  # noqa: E402
from pubsub import peer_verdict as pv  # noqa: E402
from pubsub.demo import EXCHANGES, SUBSCRIPTIONS, SYMBOLS, quotes  # noqa: E402

QUOTES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                      "schemas", "quotes.yaml")


def schema():
    with open(QUOTES) as f:
        return parse_schema_yaml(f.read(), QUOTES)


def test_every_demo_filter_has_topics_in_every_system():
    assert set(pv.NARROWEST) == {t for _, t in SUBSCRIPTIONS}
    assert pv.topic_filters("mosquitto", 'symbol == "IBM"') == ["quotes/+/IBM"]
    assert pv.topic_filters("nats", 'exchange == "NYSE" && price >= 50000') == ["quotes.NYSE.*"]
    assert pv.topic_filters("zenoh", "price > 80000") == ["quotes/**"]
    assert pv.topic_filters("nats", "volume < 50000") == ["quotes.>"]


def test_unknown_filter_or_system_is_named():
    for system, text, word in [("nats", "price > 1", "price > 1"),
                               ("kafka", "price > 80000", "kafka")]:
        try:
            pv.topic_filters(system, text)
        except ValueError as e:
            assert word in str(e)
        else:
            raise AssertionError(f"{system} {text} accepted")


def test_topics_hold_every_matching_event_and_no_wildcard_could_be_narrower():
    s = schema()
    events = [e["attributes"] for e in quotes(5000, 3)]
    for text, pairs in pv.NARROWEST.items():
        f = Filter(s, text)
        matching = [a for a in events if f.matches_values([a[x.name] for x in s.attributes])]
        # sound: the broker delivers every event the filter matches
        assert all(pv.topic_matches(pairs, a["exchange"], a["symbol"]) for a in matching), text
        for exchange, symbol in pairs:
            inside = [a for a in matching if pv.topic_matches([(exchange, symbol)],
                                                              a["exchange"], a["symbol"])]
            assert inside, f"{text}: topic ({exchange}, {symbol}) holds no matching event"
            # narrow: a wildcard level is needed for every value it stands for
            if exchange is pv.ANY:
                assert {a["exchange"] for a in inside} == set(EXCHANGES), text
            if symbol is pv.ANY:
                assert {a["symbol"] for a in inside} == set(SYMBOLS), text


def test_exact_deliveries_are_reported():
    v = pv.verdict("nats", [{0, 2}, set()], [[1, 3], []], ["a", "b"], [])
    assert v == {"system": "nats", "reported": True, "reasons": []}


def test_missing_extra_and_duplicate_events_are_refused_by_name():
    v = pv.verdict("zenoh", [{0, 1, 2}, {4}], [[1, 2], [5, 5, 6]], ["sub h2", "sub h3"], [])
    assert not v["reported"]
    assert v["reasons"] == ["sub h2: 1 of 3 events missing (first: [2])",
                            "sub h3: 1 events its filter does not match (first: [5])",
                            "sub h3: 1 duplicate deliveries"]
    assert pv.refusal_text(v).startswith("REFUSED zenoh: sub h2: 1 of 3 events missing")


def test_a_dead_process_or_missing_results_refuse_even_exact_deliveries():
    v = pv.verdict("mosquitto", [{0}], [[1]], ["a"], ["broker on h8"])
    assert not v["reported"] and v["reasons"] == ["broker on h8 died mid-run"]
    v = pv.verdict("nats3", [{0}], None, ["a"], [])
    assert not v["reported"] and v["reasons"] == ["no deliveries collected"]
    v = pv.verdict("nats3", [{0}, {1}], [[1]], ["a", "b"], [])
    assert v["reasons"] == ["1 subscriber results for 2 subscribers"]
    v = pv.verdict("mosquitto", [{0}, {1}], [[1], None], ["a", "b"], [])
    assert v["reasons"] == ["b: no result (it hung or was killed before printing it)"]


def test_latency_histograms_merge():
    a, b = HdrHistogram(1, 60_000_000, 3), HdrHistogram(1, 60_000_000, 3)
    for v in range(1, 101):
        a.record_value(v)
    b.record_value(10_000)
    q = pv.merged_latency([a.encode().decode(), b.encode().decode()])
    assert q["count"] == 101
    assert q["p50"] == 51
    assert q["max"] >= 10_000 - 10  # 3 significant digits
    assert q["cdf"][-1][0] == 100
    assert pv.merged_latency([])["p99"] is None


def test_cpu_seconds_count_fields_after_the_command_name():
    line = ("4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 "
            "100 1000 10 18446744073709551615")
    assert pv.cpu_seconds(line, 100) == 3.0
    assert pv.per_thousand({"publisher": 3.0, "broker": 0.0}, 2000) == {"publisher": 1.5,
                                                                        "broker": 0.0}
    assert pv.per_thousand({"publisher": 3.0}, 0) == {"publisher": None}


def peers_module():
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "experiments",
                        "peers.py")
    spec = importlib.util.spec_from_file_location("peers_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def state_of(topo: str) -> dict:
    from nps_testbed.topologies import parse
    t = parse(topo)
    return {"hosts": [{"name": h.name} for h in t.hosts],
            "links": [{"a": x.a, "b": x.b, "kind": "switch" if x.is_switch_link else "host"}
                      for x in t.links]}


def test_subscribers_brokers_and_nearest_servers_on_pleroma():
    peers = peers_module()
    state = state_of("pleroma")
    spec = peers.placement(state, 8)
    assert spec[:7] == [(h, t) for h, t in SUBSCRIPTIONS]  # the demo's seven, then again
    assert spec[7] == ("h2", SUBSCRIPTIONS[0][1])
    assert peers.server_hosts(state, 1) == ["h8"]
    three = peers.server_hosts(state, 3)
    assert three == ["h2", "h6", "h8"]  # last hosts of edge switches 1, 3 and 4
    assert peers.nearest(state, "h1", three) == "h2"  # same edge switch
    assert peers.nearest(state, "h3", three) == "h2"  # same pod
    assert peers.nearest(state, "h7", three) == "h8"


def test_a_load_is_parsed_or_named():
    peers = peers_module()
    assert peers.parse_load("8x1000x16", 3, 0) == {"subscribers": 8, "rate": 1000, "payload": 16,
                                                   "warmup": 0, "events": 3000}
    # the warm-up's events come first, on top of the measured ones
    assert peers.parse_load("8x1000x16", 2, 0.5) == {"subscribers": 8, "rate": 1000,
                                                     "payload": 16, "warmup": 500, "events": 2500}
    try:
        peers.parse_load("8x1000", 3, 0.5)
    except SystemExit as e:
        assert "8x1000" in str(e)
    else:
        raise AssertionError("a load without payload accepted")


def test_the_warm_up_is_delivered_and_checked_but_not_in_the_histogram():
    import types
    from pubsub import peer_client
    rec = peer_client.Recorder(schema(), 'symbol == "IBM"', warmup=2)
    for seq, latency_ms in ((1, 900), (2, 800), (3, 5), (4, 7)):
        rec.record(types.SimpleNamespace(event=types.SimpleNamespace(sequence=seq),
                                         latency_ns=latency_ms * 1_000_000))
    assert rec.sequences == [1, 2, 3, 4]  # every event is checked against the direct evaluation
    assert rec.hist.get_total_count() == 2 and rec.hist.get_max_value() < 8000  # µs


def test_datapath_counts_sum_every_thread():
    text = ("main thread:\n  packets received: 120\n  emc hits: 100\n"
            "  miss with success upcall: 7\n  miss with failed upcall: 1\n"
            "pmd thread numa_id 0 core_id 1:\n  packets received: 30\n"
            "  miss with success upcall: 3\n  miss with failed upcall: 0\n"
            "  avg. datapath passes per packet: 1.00\n")
    assert pv.datapath_counts(text) == {"packets": 150, "upcalls": 10, "failed_upcalls": 1}


def test_kernel_drops_are_read_per_switch_port_and_host_namespace():
    from pubsub import drops
    ss = ("Netid Recv-Q Send-Q Local Address:Port Peer Address:PortProcess\n"
          'p_raw 0 0 *:npts1-p1 * users:(("ovs-vswitchd",pid=7,fd=36)) '
          "skmem:(r0,rb212992,t0,tb212992,f0,w0,o176,bl0,d12)\n"
          'p_raw 0 0 *:npts2-p3 * users:(("ovs-vswitchd",pid=7,fd=37)) '
          "skmem:(r0,rb212992,t0,tb212992,f0,w0,o176,bl0,d0)\n"
          'p_raw 0 0 *:eth0 * users:(("dhclient",pid=9,fd=3)) skmem:(r0,rb1,t0,tb1,f0,w0,o0,bl0,d5)\n')
    assert drops.parse_packet_sockets(ss) == {"npts1-p1": 12, "npts2-p3": 0}
    snmp6 = "Udp6InDatagrams 10\nUdp6InErrors 3\nUdp6RcvbufErrors 3\nUdp6SndbufErrors 0\n"
    assert drops.parse_snmp6(snmp6) == {"Udp6InErrors": 3, "Udp6RcvbufErrors": 3,
                                        "Udp6SndbufErrors": 0}
    assert drops.delta({"a": 1, "b": 2}, {"a": 1, "b": 5, "c": 4}) == {"b": 3, "c": 4}


def test_the_tail_is_located_by_tenth_of_the_run():
    assert pv.max_by_tenth([]) == []
    tenths = pv.max_by_tenth([(1, 5), (10, 7), (5, 9), (2, 1)])
    assert tenths == [5.0, 1.0, 0.0, 0.0, 9.0, 0.0, 0.0, 0.0, 0.0, 7.0]
