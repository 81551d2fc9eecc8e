"""Pure tests of names and addresses: prefix, Linux's 15-character limit, uniqueness."""

import ipaddress

from nps_testbed import naming, topologies


def test_everything_in_the_root_namespace_carries_the_prefix_and_fits_ifnamsiz():
    topo = topologies.parse("zoo:TataNld")  # the largest: 143 switches, degree up to 54
    names = [naming.bridge(s.name) for s in topo.switches]
    names += [naming.switch_port_if(s.name, p) for s in topo.switches for p, _, _ in topo.ports(s.name)]
    names += [naming.mgmt_root_if(h.name) for h in topo.hosts] + [naming.MGMT_BRIDGE]
    assert all(n.startswith(naming.PREFIX) and len(n) <= 15 for n in names)
    assert len(set(names)) == len(names)
    assert naming.switch_port_if("s9999", 99999) == "npts9999-p99999"


def test_addresses_are_in_the_ula_prefixes_and_unique():
    data = {naming.data_address(f"h{i}") for i in range(1, 10000)}
    mgmt = {naming.mgmt_address(f"h{i}") for i in range(1, 10000)}
    assert len(data) == len(mgmt) == 9999
    data_net = ipaddress.IPv6Network(f"{naming.DATA_PREFIX}/{naming.DATA_PREFIX_LEN}")
    mgmt_net = ipaddress.IPv6Network(f"{naming.MGMT_PREFIX}/{naming.MGMT_PREFIX_LEN}")
    assert all(ipaddress.IPv6Address(a) in data_net for a in data)
    assert all(ipaddress.IPv6Address(a) in mgmt_net for a in mgmt)
    assert naming.MGMT_ROOT_ADDRESS not in mgmt
    assert naming.data_address("h12") == "fd6e:7073:1::12"


def test_hex_prefixes_match_the_address_prefixes():
    for address in (naming.data_address("h1"), naming.mgmt_address("h1")):
        assert ipaddress.IPv6Address(address).exploded.replace(":", "").startswith(naming.ADDRESS_HEX_PREFIXES)


def test_macs_are_locally_administered_unicast_and_unique():
    macs = {naming.data_mac(f"h{i}") for i in range(1, 10000)} | {naming.mgmt_mac(f"h{i}") for i in range(1, 10000)}
    assert len(macs) == 2 * 9999
    assert all(int(m[:2], 16) & 0x03 == 0x02 for m in macs)
    assert naming.data_mac("h143") == "02:6e:70:73:01:43"


def test_link_local_is_eui64():
    assert naming.link_local("02:6e:70:73:00:01") == "fe80::6e:70ff:fe73:1"
    assert naming.link_local("00:11:22:33:44:55") == "fe80::211:22ff:fe33:4455"
