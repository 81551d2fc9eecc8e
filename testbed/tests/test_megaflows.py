"""pubsub/megaflows.py: what a run's measured part added to the megaflow cache (no OVS needed)."""

from pubsub import megaflows as m

WARM = """flow-dump from the main thread:
recirc_id(0),in_port(3),packet_type(ns=0,id=0),eth_type(0x86dd),ipv6(dst=ff0e:b880::/ffff:f800::,proto=17,frag=no),udp(dst=7073), packets:5, bytes:600, used:0.1s, actions:4
recirc_id(0),in_port(7),packet_type(ns=0,id=0),eth(dst=33:33:00:00:00:00),eth_type(0x86dd),ipv6(dst=ff0e:6000::,proto=17,frag=no),udp(dst=7073), packets:1, bytes:125, used:0.2s, actions:set(ipv6(dst=fd6e:7073:1::5)),6
recirc_id(0),in_port(2),packet_type(ns=0,id=0),eth_type(0x88cc), packets:0, bytes:0, used:never, actions:userspace(pid=0)
"""
END = WARM.replace("packets:1, bytes:125", "packets:9, bytes:1125") + (
    "recirc_id(0),in_port(7),packet_type(ns=0,id=0),eth(dst=33:33:00:00:00:00),eth_type(0x86dd),"
    "ipv6(dst=ff0e:6020::,proto=17,frag=no),udp(dst=7073), packets:1, bytes:125, used:0.0s, "
    "actions:set(ipv6(dst=fd6e:7073:1::5)),6\n")
COVERAGE = """Event coverage, avg rate over last: 5 seconds, last minute, last hour,  hash=474c76ef:
rev_flow_table             1.6/sec     0.283/sec        0.1789/sec   total: 644
dpif_flow_put              0.0/sec     0.000/sec        4.0503/sec   total: 14581
hmap_expand              470.0/sec   125.783/sec       25.6811/sec   total: 92452
"""


def test_flows_are_keyed_by_their_match_without_statistics():
    flows = m.parse_flows(WARM)
    assert len(flows) == 3
    key = ("recirc_id(0),in_port(3),packet_type(ns=0,id=0),eth_type(0x86dd),"
           "ipv6(dst=ff0e:b880::/ffff:f800::,proto=17,frag=no),udp(dst=7073)")
    assert flows[key] == 5
    # -m adds the flow's ufid in front: the same match, the same key
    assert m.parse_flows("ufid:1234abcd " + key + ", packets:5, bytes:1, used:never, actions:4") \
        == {key: 5}


def test_a_content_destination_is_read_with_its_mask_or_as_one_address():
    assert m.content_dst("ipv6(dst=ff0e:b880::/ffff:f800::,proto=17)") == "ff0e:b880::/ffff:f800::"
    assert m.content_dst("eth(dst=33:33:00:00:00:00),ipv6(dst=ff0e:6000::,proto=17)") == "ff0e:6000::"
    assert m.content_dst("ipv6(src=fd6e::1,dst=fd6e:7073:1::5,proto=17)") is None
    assert m.content_dst("eth_type(0x88cc)") is None


def test_the_measured_part_counts_added_and_gone_flows_and_moved_counters():
    cov1 = m.parse_coverage(COVERAGE)
    cov0 = dict(cov1, rev_flow_table=640)
    r = m.compare(m.parse_flows(WARM), m.parse_flows(END), cov0, cov1)
    assert (r["after_warmup"], r["at_end"], r["added"], r["added_content"], r["gone"]) == (3, 4, 1, 1, 0)
    assert "ff0e:6020::" in r["added_examples"][0]
    assert r["coverage"] == {"rev_flow_table": 4}  # hmap_expand is not watched; unchanged ones left out
    gone = m.compare(m.parse_flows(END), m.parse_flows(WARM), cov1, cov1)
    assert (gone["added"], gone["gone"], gone["coverage"]) == (0, 1, {})
