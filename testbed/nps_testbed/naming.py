"""Names and addresses of everything the test bed creates (pure).

Every object in the root namespace starts with PREFIX ("npt", netpubsub test bed), so that
`clean` can find them after a crash and never touches anything else (other engineers' OVS
bridges on the same machine are named nps*). Interface names stay within Linux's 15 characters.
"""

from __future__ import annotations

import ipaddress

PREFIX = "npt"
MGMT_BRIDGE = f"{PREFIX}mgmt0"  # Linux bridge in the root namespace
DATA_IF = "eth0"  # inside every host namespace
MGMT_IF = "mgmt0"  # inside every host namespace

# fd6e:7073::/32 spells "nps" in ASCII (6e 70 73): a ULA range private to the test bed.
DATA_PREFIX = "fd6e:7073:1::"
DATA_PREFIX_LEN = 64
MGMT_PREFIX = "fd6e:7073:ffff::"
MGMT_PREFIX_LEN = 64
# The root namespace's end of the management network: "c0" (controller 0) is not made of
# decimal digits, so it never equals a host's address.
MGMT_ROOT_ADDRESS = f"{MGMT_PREFIX}c0"
# How `clean` recognizes a host namespace: the first 48 bits of either prefix, as
# /proc/net/if_inet6 writes them.
ADDRESS_HEX_PREFIXES = ("fd6e70730001", "fd6e7073ffff")


def bridge(switch: str) -> str:
    """OVS bridge of switch sN: nptsN."""
    return f"{PREFIX}{switch}"


def switch_port_if(switch: str, port: int) -> str:
    """Root-namespace veth end of switch sN's port P: nptsN-pP."""
    return f"{PREFIX}{switch}-p{port}"


def mgmt_root_if(host: str) -> str:
    """Root-namespace veth end of host hN's management link: nptmN."""
    return f"{PREFIX}m{_number(host)}"


def mininet_name(node: str) -> str:
    """Mininet node name (also in the node shell's command line 'mininet:npth1')."""
    return f"{PREFIX}{node}"


def data_address(host: str) -> str:
    """fd6e:7073:1::N for hN, N written as decimal digits (h12 -> ::12)."""
    return f"{DATA_PREFIX}{_number(host)}"


def mgmt_address(host: str) -> str:
    """fd6e:7073:ffff::N for hN."""
    return f"{MGMT_PREFIX}{_number(host)}"


def data_mac(host: str) -> str:
    """02:6e:70:73:NN:NN, the host number's decimal digits as the last two bytes (h143 -> 01:43)."""
    return _mac("02:6e:70:73", host)


def mgmt_mac(host: str) -> str:
    return _mac("02:6e:70:ff", host)


def _mac(first4: str, host: str) -> str:
    digits = f"{_number(host):04d}"
    return f"{first4}:{digits[:2]}:{digits[2:]}"


def _number(node: str) -> int:
    n = int(node[1:])
    if not 1 <= n <= 9999:
        raise ValueError(f"node number out of range: {node}")
    return n


def is_ours(ifname: str) -> bool:
    return ifname.startswith(PREFIX)


def link_local(mac: str) -> str:
    """The EUI-64 link-local address the kernel derives from a MAC (addr_gen_mode eui64)."""
    b = [int(x, 16) for x in mac.split(":")]
    eui = [b[0] ^ 0x02, b[1], b[2], 0xFF, 0xFE, b[3], b[4], b[5]]
    groups = [f"{eui[i] << 8 | eui[i + 1]:x}" for i in range(0, 8, 2)]
    return str(ipaddress.IPv6Address("fe80::" + ":".join(groups)))
