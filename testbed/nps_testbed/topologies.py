"""Topologies as pure data: switches, hosts and links with stable names, dpids and port numbers.

Nothing here touches the system, so every topology is testable without root. Names are
s1, s2, ... and h1, h2, ... in construction order; a switch's dpid is its number; port numbers
are handed out per switch in the order its links are added (hosts always get port 1 in the
zoo and linear topologies, the "down" ports come first in trees and fat trees).
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_HOSTS = 9999  # host numbers are written as decimal digits into one IPv6 group (naming.py)


class TopologyError(ValueError):
    """A topology spec that cannot be built (unknown name, bad parameters)."""


@dataclass(frozen=True)
class Switch:
    """An OpenFlow switch: name sN, dpid N, an optional role (core/aggregation/edge) and pod."""

    name: str
    number: int
    role: str | None = None
    pod: int | None = None
    label: str | None = None  # e.g. the city of a Topology Zoo node

    @property
    def dpid(self) -> str:
        return format(self.number, "016x")


@dataclass(frozen=True)
class Host:
    """An end system hN, attached to exactly one switch."""

    name: str
    number: int


@dataclass(frozen=True)
class Link:
    """A point-to-point link between node a's port a_port and node b's port b_port (hosts: port 0)."""

    a: str
    a_port: int
    b: str
    b_port: int

    @property
    def is_switch_link(self) -> bool:
        return self.a.startswith("s") and self.b.startswith("s")


@dataclass(frozen=True)
class Topology:
    """A named graph of switches, hosts and links."""

    name: str
    switches: tuple[Switch, ...]
    hosts: tuple[Host, ...]
    links: tuple[Link, ...]

    def switch_links(self) -> list[Link]:
        return [link for link in self.links if link.is_switch_link]

    def host_links(self) -> list[Link]:
        return [link for link in self.links if not link.is_switch_link]

    def attachment(self, host: str) -> tuple[str, int]:
        """The (switch, port) a host hangs off."""
        for link in self.links:
            if link.b == host:
                return link.a, link.a_port
        raise KeyError(host)

    def ports(self, switch: str) -> list[tuple[int, str, int]]:
        """(port, peer node, peer port) of a switch, by port number."""
        out = []
        for link in self.links:
            if link.a == switch:
                out.append((link.a_port, link.b, link.b_port))
            if link.b == switch:
                out.append((link.b_port, link.a, link.a_port))
        return sorted(out)


@dataclass
class _Builder:
    """Hands out names and per-switch port numbers in the order things are added."""

    name: str
    switches: list[Switch] = field(default_factory=list)
    hosts: list[Host] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    next_port: dict[str, int] = field(default_factory=dict)

    def switch(self, role: str | None = None, pod: int | None = None, label: str | None = None) -> str:
        n = len(self.switches) + 1
        self.switches.append(Switch(f"s{n}", n, role, pod, label))
        self.next_port[f"s{n}"] = 1
        return f"s{n}"

    def host(self, switch: str) -> str:
        n = len(self.hosts) + 1
        if n > MAX_HOSTS:
            raise TopologyError(f"at most {MAX_HOSTS} hosts")
        self.hosts.append(Host(f"h{n}", n))
        self.links.append(Link(switch, self._port(switch), f"h{n}", 0))
        return f"h{n}"

    def link(self, a: str, b: str) -> None:
        self.links.append(Link(a, self._port(a), b, self._port(b)))

    def _port(self, switch: str) -> int:
        port = self.next_port[switch]
        self.next_port[switch] = port + 1
        return port

    def build(self) -> Topology:
        return Topology(self.name, tuple(self.switches), tuple(self.hosts), tuple(self.links))


def linear(n: int) -> Topology:
    """n switches in a chain, one host each (port 1); s_i's next ports go left, then right."""
    _require(n >= 1, "linear:N needs N >= 1")
    b = _Builder(f"linear:{n}")
    switches = [b.switch() for _ in range(n)]
    for s in switches:
        b.host(s)
    for left, right in zip(switches, switches[1:]):
        b.link(left, right)
    return b.build()


def tree(depth: int, fanout: int) -> Topology:
    """A complete tree of switches (Mininet's TreeTopo): fanout**depth hosts under the leaf switches.

    Switches are numbered breadth first; a non-root switch's port 1 is its uplink, then its children.
    """
    _require(depth >= 1 and fanout >= 1, "tree:D,F needs D >= 1 and F >= 1")
    _require(fanout**depth <= MAX_HOSTS, f"tree:D,F: at most {MAX_HOSTS} hosts")
    b = _Builder(f"tree:{depth},{fanout}")
    level = [b.switch()]
    for _ in range(depth - 1):
        children = []
        for parent in level:
            for _ in range(fanout):
                child = b.switch()
                b.link(parent, child)
                children.append(child)
        level = children
    for leaf in level:
        for _ in range(fanout):
            b.host(leaf)
    return b.build()


def fattree(k: int) -> Topology:
    """The k-ary fat tree (Al-Fares et al.): (k/2)^2 core, k pods of k/2 aggregation + k/2 edge, k^3/4 hosts.

    Switches are numbered: all core, then all aggregation (pod by pod), then all edge (pod by pod).
    Edge ports 1..k/2 go to hosts and k/2+1..k up; aggregation ports 1..k/2 go down, k/2+1..k up;
    core switch c (0-based) has port p+1 towards pod p, reaching that pod's aggregation switch c // (k/2).
    """
    _require(k >= 2 and k % 2 == 0, "fattree:K needs an even K >= 2")
    _require(k**3 // 4 <= MAX_HOSTS, f"fattree:K: at most {MAX_HOSTS} hosts")
    half = k // 2
    b = _Builder(f"fattree:{k}")
    cores = [b.switch("core") for _ in range(half * half)]
    aggs = [[b.switch("aggregation", pod) for _ in range(half)] for pod in range(k)]
    edges = [[b.switch("edge", pod) for _ in range(half)] for pod in range(k)]
    for pod in range(k):
        for edge in edges[pod]:
            for _ in range(half):
                b.host(edge)
    _fat_tree_links(b, cores, aggs, edges)
    return b.build()


def pleroma() -> Topology:
    """PLEROMA's test bed (§V): a fat tree of 10 four-port switches and 8 end systems.

    Our reading: two pods of a k=4 fat tree (2 aggregation + 2 edge switches each, 2 hosts per
    edge switch) under 2 core switches, every aggregation switch linked to both cores, so that
    each of the 10 switches uses exactly 4 ports, as the paper's 4-port NICs suggest.
    """
    b = _Builder("pleroma")
    cores = [b.switch("core") for _ in range(2)]
    aggs = [[b.switch("aggregation", pod) for _ in range(2)] for pod in range(2)]
    edges = [[b.switch("edge", pod) for _ in range(2)] for pod in range(2)]
    for pod in range(2):
        for edge in edges[pod]:
            for _ in range(2):
                b.host(edge)
    for pod in range(2):
        for edge in edges[pod]:
            for agg in aggs[pod]:
                b.link(agg, edge)
    for pod in range(2):
        for agg in aggs[pod]:
            for core in cores:
                b.link(agg, core)
    return b.build()


def _fat_tree_links(b: _Builder, cores: list[str], aggs: list[list[str]], edges: list[list[str]]) -> None:
    half = len(aggs[0])
    for pod in range(len(aggs)):
        for edge in edges[pod]:
            for agg in aggs[pod]:
                b.link(agg, edge)
    for pod in range(len(aggs)):
        for i, agg in enumerate(aggs[pod]):
            for core in cores[i * half : (i + 1) * half]:
                b.link(agg, core)


def from_node_link(name: str, graph: dict) -> Topology:
    """A Topology Zoo graph (NetworkX node-link dict): one switch and one host per node.

    Nodes become s1.. in ascending id order (numeric ids numerically); host hN hangs off sN's
    port 1; edges are added in ascending (switch, switch) order. Self loops and parallel edges
    are dropped: a switch-to-switch link is a single veth pair.
    """
    nodes = sorted(graph["nodes"], key=lambda node: _id_key(node["id"]))
    _require(len(nodes) >= 1, f"{name}: no nodes")
    _require(len(nodes) <= MAX_HOSTS, f"{name}: at most {MAX_HOSTS} nodes")
    b = _Builder(name)
    by_id = {}
    for node in nodes:
        by_id[str(node["id"])] = b.switch(label=node.get("name"))
    for node in nodes:
        b.host(by_id[str(node["id"])])
    pairs = set()
    for edge in graph.get("edges", graph.get("links", [])):
        a, z = by_id[str(edge["source"])], by_id[str(edge["target"])]
        if a != z:
            pairs.add(tuple(sorted((a, z), key=lambda s: int(s[1:]))))
    for a, z in sorted(pairs, key=lambda p: (int(p[0][1:]), int(p[1][1:]))):
        b.link(a, z)
    return b.build()


def zoo(name: str) -> Topology:
    """An Internet Topology Zoo network shipped by the PyPI package topohub (e.g. Abilene)."""
    try:
        import topohub
    except ImportError as e:
        raise TopologyError("zoo:NAME needs the PyPI package topohub (run scripts/bootstrap)") from e
    try:
        graph = topohub.get(f"topozoo/{name}")
    except KeyError as e:
        raise TopologyError(f"zoo:{name}: no such Topology Zoo network in topohub") from e
    return from_node_link(f"zoo:{name}", graph)


def parse(spec: str) -> Topology:
    """linear:N | tree:D,F | fattree:K | pleroma | zoo:NAME."""
    kind, _, arg = spec.partition(":")
    if kind == "linear":
        return linear(_ints(spec, arg, 1)[0])
    if kind == "tree":
        depth, fanout = _ints(spec, arg, 2)
        return tree(depth, fanout)
    if kind == "fattree":
        return fattree(_ints(spec, arg, 1)[0])
    if kind == "pleroma" and not arg:
        return pleroma()
    if kind == "zoo" and arg:
        return zoo(arg)
    raise TopologyError(f"unknown topology '{spec}': use linear:N, tree:D,F, fattree:K, pleroma or zoo:NAME")


def _ints(spec: str, arg: str, count: int) -> list[int]:
    parts = arg.split(",") if arg else []
    try:
        values = [int(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != count:
        raise TopologyError(f"'{spec}': expected {count} integer parameter(s)")
    return values


def _id_key(node_id) -> tuple:
    text = str(node_id)
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise TopologyError(message)
