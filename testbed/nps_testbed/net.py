"""Builds a topology as Mininet hosts (network namespaces), veth links and Open vSwitch bridges.

Mininet gives us the node shells and veth plumbing; the OVS configuration is one OVSDB
transaction for all bridges (userspace datapath, OpenFlow 1.3, explicit dpid, fail-mode secure
with our controller — or standalone with RSTP for the self-test mode). Teardown is clean.sweep().
"""

from __future__ import annotations

import os

from mininet.link import Link
from mininet.node import Host, OVSSwitch

from . import naming
from .system import CommandError, ip_batch, run
from .topologies import Topology

# Inside each host namespace, before any interface exists (the default.* values are inherited
# by interfaces created later): no DAD delay, no router solicitations, no SLAAC from stray RAs.
HOST_SYSCTLS = [f"net.ipv6.conf.{scope}.{key}={value}"
                for scope in ("all", "default")
                for key, value in (("accept_dad", 0), ("dad_transmits", 0),
                                   ("router_solicitations", 0), ("accept_ra", 0))]


# ovs-vswitchd's userspace datapath reads each port through a packet socket whose receive buffer
# is net.core.rmem_default when the port is added (OVS sets none): 208 KiB, some 280 small frames,
# a quarter of a second at 1 000 events/s. A starved ovs-vswitchd (a loaded 2-core machine) then
# drops at a switch's input (docs/results/peers-tail.md). 4 MiB: seconds, as a switch's buffer.
SWITCH_PORT_BUFFER = 4 << 20
RMEM_DEFAULT = "net/core/rmem_default"


class NpsSwitch(OVSSwitch):
    """Mininet's OVSSwitch on the userspace datapath (datapath='user') with controller targets
    (comma-separated: several controller processes, each in OpenFlow's default EQUAL role), or none: fail-mode standalone with RSTP (self-test mode only)."""

    def __init__(self, name: str, target: str | None, switch: str, **params):
        super().__init__(name, failMode="secure" if target else "standalone", datapath="user",
                         protocols="OpenFlow13", inNamespace=False, **params)
        self.target = target
        self.switch = switch  # s1, the name the controller sees as dp-desc
        self.edge_ports: set[str] = set()  # ports towards hosts: RSTP edge ports

    def vsctl_args(self) -> list[str]:
        """ovs-vsctl arguments creating this bridge, its ports and its controller (no shell quoting)."""
        b = self.name
        args = ["--", "--if-exists", "del-br", b]
        targets = self.target.split(",") if self.target else []
        for i, t in enumerate(targets):  # several: each controller process of a cluster (EQUAL role)
            args += ["--", f"--id=@{b}c{i}", "create", "Controller", f'target="{t}"', "max_backoff=1000"]
        args += ["--", "add-br", b,
                 "--", "set", "Bridge", b, "datapath_type=netdev", f"fail_mode={self.failMode}",
                 "protocols=OpenFlow13", f"other_config:datapath-id={self.dpid}",
                 "other_config:disable-in-band=true", f"other_config:dp-desc={self.switch}"]
        args += ["controller=" + ",".join(f"@{b}c{i}" for i in range(len(targets)))] if targets \
            else ["rstp_enable=true"]
        for intf in self.intfList():
            port = self.ports[intf]
            if port <= 0:
                continue
            args += ["--", "add-port", b, intf.name, "--", "set", "Interface", intf.name, f"ofport_request={port}"]
            if not self.target and intf.name in self.edge_ports:
                args += ["--", "set", "Port", intf.name, "other_config:rstp-port-admin-edge=true"]
        return args


class NpsLink(Link):
    """A veth pair created already set up for the test bed: host end with its fixed MAC,
    TX checksum offload off on both ends (or OVS's userspace datapath forwards UDP/TCP with
    broken checksums), IPv6 off on root-namespace ends (they are switch ports, not hosts)."""

    def __init__(self, node1, node2, mac1: str | None = None, **params):
        self._mac1 = mac1
        super().__init__(node1, node2, **params)

    def makeIntfPair(self, intfname1, intfname2, addr1=None, addr2=None, node1=None, node2=None,
                     deleteIntfs=True):
        address = f" address {self._mac1}" if self._mac1 else ""
        out = node1.cmd(f"ip link add name {intfname1}{address} type veth peer name {intfname2} netns {node2.pid}")
        if out.strip():
            raise CommandError(f"cannot create veth {intfname1}/{intfname2}: {out.strip()}")
        for node, name in ((node1, intfname1), (node2, intfname2)):
            prepare = f"ethtool -K {name} tx off >/dev/null"
            if not node.inNamespace:
                prepare += f"; sysctl -qw net.ipv6.conf.{name}.disable_ipv6=1"
            node.cmd(prepare)


class Network:
    """A running topology: Mininet node objects and the facts the state file records."""

    def __init__(self, topology: Topology, target: str | None):
        self.topology = topology
        self.target = target
        self.hosts: dict[str, Host] = {}
        self.switches: dict[str, NpsSwitch] = {}

    def build(self) -> None:
        for h in self.topology.hosts:
            host = Host(naming.mininet_name(h.name))
            host.cmd("sysctl -qw " + " ".join(HOST_SYSCTLS) + "; ip link set lo up")
            self.hosts[h.name] = host
        for s in self.topology.switches:
            self.switches[s.name] = NpsSwitch(naming.bridge(s.name), self.target, s.name, dpid=s.dpid)
        for link in self.topology.links:
            self._link(link)
        _make_mgmt_bridge()
        for name, host in self.hosts.items():
            self._configure_host(name, host)
        self._start_switches()

    def _link(self, link) -> None:
        a = self.switches[link.a]
        a_if = naming.switch_port_if(link.a, link.a_port)
        if link.is_switch_link:
            b = self.switches[link.b]
            NpsLink(a, b, port1=link.a_port, port2=link.b_port, intfName1=a_if,
                    intfName2=naming.switch_port_if(link.b, link.b_port))
        else:
            host = self.hosts[link.b]
            NpsLink(host, a, mac1=naming.data_mac(link.b), port1=0, port2=link.a_port,
                    intfName1=naming.DATA_IF, intfName2=a_if)
            a.edge_ports.add(a_if)

    def _configure_host(self, name: str, host: Host) -> None:
        root_if = naming.mgmt_root_if(name)
        run(["ip", "link", "add", root_if, "type", "veth", "peer", "name", naming.MGMT_IF,
             "address", naming.mgmt_mac(name), "netns", str(host.pid)])
        _write_sysctl(f"net/ipv6/conf/{root_if}/disable_ipv6", "1")
        run(["ethtool", "-K", root_if, "tx", "off"])
        ip_batch([f"link set dev {root_if} master {naming.MGMT_BRIDGE}", f"link set dev {root_if} up"])
        out = host.cmd(
            f"ethtool -K {naming.MGMT_IF} tx off >/dev/null"
            f" && ip link set dev {naming.MGMT_IF} up"
            f" && ip -6 addr add {naming.mgmt_address(name)}/{naming.MGMT_PREFIX_LEN} dev {naming.MGMT_IF} nodad"
            f" && ip -6 addr add {naming.data_address(name)}/{naming.DATA_PREFIX_LEN} dev {naming.DATA_IF} nodad"
            # Multicast (the content addresses, ff0e::/16) leaves by the data interface by default.
            f" && ip -6 route add multicast ff00::/8 dev {naming.DATA_IF} table local metric 1"
            " && echo configured")
        if "configured" not in out:
            raise CommandError(f"cannot configure host {name}: {out.strip()}")

    def _start_switches(self) -> None:
        """All bridges in one OVSDB transaction (fast even for a hundred switches)."""
        args = ["ovs-vsctl", "-t", "60"]
        for switch in self.switches.values():
            args += switch.vsctl_args()
        # ovs-vsctl returns once ovs-vswitchd has opened the ports: their sockets have the buffer
        with open(os.path.join("/proc/sys", RMEM_DEFAULT)) as f:
            default = f.read().strip()
        _write_sysctl(RMEM_DEFAULT, str(max(int(default), SWITCH_PORT_BUFFER)))
        try:
            run(args, timeout=90)
        finally:
            _write_sysctl(RMEM_DEFAULT, default)

    def switch_ports(self) -> set[str]:
        return {intf.name for s in self.switches.values() for intf in s.intfList() if s.ports[intf] > 0}


def _make_mgmt_bridge() -> None:
    b = naming.MGMT_BRIDGE
    ip_batch([f"link add {b} type bridge mcast_snooping 0"])
    _write_sysctl(f"net/ipv6/conf/{b}/accept_dad", "0")
    ip_batch([f"addr add {naming.MGMT_ROOT_ADDRESS}/{naming.MGMT_PREFIX_LEN} dev {b} nodad",
              f"link set dev {b} up"])


def _write_sysctl(path: str, value: str) -> None:
    with open(os.path.join("/proc/sys", path), "w") as f:
        f.write(value)
