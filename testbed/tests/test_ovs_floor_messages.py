"""Pure tests of ovs_floor.py's OpenFlow encoding, cabling and variants (no OVS): a wrong length
or xid makes ovs-vswitchd refuse or hang the measurement, which then measures nothing."""

import os
import struct
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "experiments"))

import ovs_floor  # noqa: E402


def messages(data: bytes) -> list[bytes]:
    return [data[k:k + struct.unpack("!H", data[k + 2:k + 4])[0]]
            for k in ovs_floor._offsets(data)]


def test_a_bundle_adds_each_message_under_its_own_xid_then_commits_under_the_bundles():
    mods = [ovs_floor.flow_mod(7, b"\xff\x0e" + bytes(6), 1),
            ovs_floor.flow_mod(8, b"\xff\x0e" + bytes(5) + b"\x01", 2)]
    out = messages(ovs_floor.bundle(9, 9, mods))
    assert len(out) == 3 and b"".join(out) == ovs_floor.bundle(9, 9, mods)
    for add, mod in zip(out, mods):
        _, kind, _, xid = struct.unpack("!BBHI", add[:8])
        experimenter, exp_type, bundle_id = struct.unpack("!III", add[8:20])
        assert (kind, xid, experimenter, exp_type, bundle_id) == (
            ovs_floor.EXPERIMENTER, struct.unpack("!I", mod[4:8])[0], ovs_floor.ONF_EXPERIMENTER,
            ovs_floor.BUNDLE_ADD, 9)
        assert add[24:] == mod  # the flow-mod itself, unchanged
    _, kind, _, xid = struct.unpack("!BBHI", out[2][:8])
    assert (kind, xid) == (ovs_floor.EXPERIMENTER, 9)
    assert struct.unpack("!IIIHH", out[2][8:]) == (
        ovs_floor.ONF_EXPERIMENTER, ovs_floor.BUNDLE_CONTROL, 9, ovs_floor.BUNDLE_COMMIT_REQUEST,
        ovs_floor.BUNDLE_ATOMIC_ORDERED)


def test_every_message_is_as_long_as_its_header_says_and_8_byte_aligned():
    for m in (ovs_floor.flow_mod(1, bytes(8), 3), ovs_floor.lldp_to_controller(2),
              ovs_floor.packet_out(3, 100), ovs_floor.packet_out(4, 101, ovs_floor.event_frame(
                  b"\xff\x0e" + bytes(14)))):
        assert struct.unpack("!H", m[2:4])[0] == len(m)
    assert len(ovs_floor.flow_mod(1, bytes(8), 3)) % 8 == 0


def test_an_event_frame_is_ipv6_to_its_content_address_on_the_matching_multicast_mac():
    dst = b"\xff\x0e" + bytes(range(14))
    f = ovs_floor.event_frame(dst)
    assert f[12:14] == b"\x86\xdd" and f[38:54] == dst and f[:6] == b"\x33\x33" + dst[-4:]
    assert len(f) == 14 + 40


@pytest.mark.parametrize("n,links", [(10, 16), (10, 10), (3, 3), (4, 5)])
def test_cabling_joins_distinct_pairs_of_distinct_bridges(n, links):
    pairs = ovs_floor.cabling(n, links)
    assert len(pairs) == links
    assert all(a != b and 0 <= a < n and 0 <= b < n for a, b in pairs)
    assert len({frozenset(p) for p in pairs}) == links
    if links >= n:  # the ring first: every bridge cabled
        assert {x for p in pairs for x in p} == set(range(n))


def test_a_variant_names_its_settings_and_an_unknown_item_is_refused_by_name():
    v = ovs_floor.parse_variant("x=global:max-idle=1000;bridge:other_config:a=b;"
                                "controller:inactivity_probe=0;bundle;probe-hz:0.5;spread;prefixes;dp-flows:7")
    assert v["name"] == "x" and v["global"] == [("max-idle", "1000")]
    assert v["bridge"] == ["other_config:a=b"] and v["controller"] == ["inactivity_probe=0"]
    assert v["bundle"] and v["spread"] and v["prefixes"] and v["probe_hz"] == 0.5
    assert v["dp_flows"] == 7
    assert ovs_floor.parse_variant("base=") == {**v, "name": "base", "global": [], "bridge": [],
                                                "controller": [], "bundle": False,
                                                "probe_hz": None, "spread": False,
                                                "prefixes": False, "dp_flows": None}
    with pytest.raises(SystemExit, match="bogus"):
        ovs_floor.parse_variant("y=bogus:1")


def test_more_links_than_pairs_of_bridges_is_refused_with_the_option_named():
    assert len(ovs_floor.cabling(4, 6)) == 6
    with pytest.raises(SystemExit, match="--links 7"):
        ovs_floor.cabling(4, 7)
