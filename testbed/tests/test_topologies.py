"""Pure tests of the topologies: counts, names, dpids, ports, determinism (no root needed)."""

import collections

import pytest

from nps_testbed import topologies
from nps_testbed.topologies import TopologyError


def degree(topo):
    d = collections.Counter()
    for link in topo.links:
        d[link.a] += 1
        d[link.b] += 1
    return d


def check_wellformed(topo):
    """Names s1..sN/h1..hM, unique dpids, ports 1..degree per switch, each host on one switch."""
    assert [s.name for s in topo.switches] == [f"s{i}" for i in range(1, len(topo.switches) + 1)]
    assert [h.name for h in topo.hosts] == [f"h{i}" for i in range(1, len(topo.hosts) + 1)]
    dpids = [s.dpid for s in topo.switches]
    assert len(set(dpids)) == len(dpids)
    assert all(len(d) == 16 and int(d, 16) == i for i, d in enumerate(dpids, 1))
    for s in topo.switches:
        ports = [p for p, _, _ in topo.ports(s.name)]
        assert ports == list(range(1, len(ports) + 1)), s.name
    for h in topo.hosts:
        assert sum(1 for link in topo.links if h.name in (link.a, link.b)) == 1
        switch, port = topo.attachment(h.name)
        assert switch.startswith("s") and port >= 1
    pairs = [frozenset((link.a, link.b)) for link in topo.links]
    assert len(set(pairs)) == len(pairs), "no parallel links"
    assert all(link.a != link.b for link in topo.links)


def connected(topo):
    adj = collections.defaultdict(set)
    for link in topo.links:
        adj[link.a].add(link.b)
        adj[link.b].add(link.a)
    seen, todo = set(), [topo.switches[0].name]
    while todo:
        n = todo.pop()
        if n not in seen:
            seen.add(n)
            todo.extend(adj[n] - seen)
    return len(seen) == len(topo.switches) + len(topo.hosts)


@pytest.mark.parametrize("spec", ["linear:1", "linear:5", "tree:1,3", "tree:2,2", "tree:3,3", "fattree:2",
                                  "fattree:4", "fattree:6", "pleroma", "zoo:Abilene", "zoo:Geant2012"])
def test_wellformed_connected_and_deterministic(spec):
    topo = topologies.parse(spec)
    check_wellformed(topo)
    assert connected(topo)
    assert topologies.parse(spec) == topo
    assert topo.name == spec


def test_linear_counts_and_ports():
    topo = topologies.parse("linear:4")
    assert (len(topo.switches), len(topo.hosts), len(topo.switch_links())) == (4, 4, 3)
    assert topo.attachment("h3") == ("s3", 1)
    assert topo.ports("s2") == [(1, "h2", 0), (2, "s1", 2), (3, "s3", 2)]


def test_tree_counts_and_uplinks():
    topo = topologies.parse("tree:3,2")
    assert (len(topo.switches), len(topo.hosts), len(topo.switch_links())) == (7, 8, 6)
    assert topo.ports("s1") == [(1, "s2", 1), (2, "s3", 1)]  # root: children only
    assert topo.ports("s4")[0] == (1, "s2", 2)  # every other switch: port 1 is the uplink
    assert topo.attachment("h1") == ("s4", 2)


def test_fattree_4_counts_and_roles():
    topo = topologies.parse("fattree:4")
    assert len(topo.switches) == 20 and len(topo.switch_links()) == 32 and len(topo.hosts) == 16
    roles = collections.Counter(s.role for s in topo.switches)
    assert roles == {"core": 4, "aggregation": 8, "edge": 8}
    assert all(degree(topo)[s.name] == 4 for s in topo.switches)
    assert [s.role for s in topo.switches[:4]] == ["core"] * 4
    edge = next(s for s in topo.switches if s.role == "edge")
    ports = topo.ports(edge.name)
    assert [peer[0] for _, peer, _ in ports] == ["h", "h", "s", "s"]  # hosts on 1..k/2, uplinks after
    core = topo.switches[0]
    assert [next(s for s in topo.switches if s.name == peer).pod for _, peer, _ in topo.ports(core.name)] == [0, 1, 2, 3]


@pytest.mark.parametrize("k", [2, 4, 6, 8])
def test_fattree_general_k(k):
    topo = topologies.fattree(k)
    assert len(topo.switches) == 5 * k * k // 4
    assert len(topo.hosts) == k**3 // 4
    assert len(topo.switch_links()) == k**3 // 2
    assert all(degree(topo)[s.name] == k for s in topo.switches)


def test_pleroma_is_ten_four_port_switches_and_eight_hosts():
    topo = topologies.parse("pleroma")
    assert len(topo.switches) == 10 and len(topo.hosts) == 8
    assert collections.Counter(s.role for s in topo.switches) == {"core": 2, "aggregation": 4, "edge": 4}
    assert all(degree(topo)[s.name] == 4 for s in topo.switches)
    assert len(topo.switch_links()) == 16


def test_zoo_abilene_has_11_nodes_and_14_edges():
    topo = topologies.parse("zoo:Abilene")
    assert len(topo.switches) == 11 and len(topo.hosts) == 11 and len(topo.switch_links()) == 14
    assert topo.switches[0].label == "New York"
    assert all(topo.attachment(f"h{i}") == (f"s{i}", 1) for i in range(1, 12))


def test_zoo_tata_is_the_largest_network():
    topo = topologies.parse("zoo:TataNld")
    assert (len(topo.switches), len(topo.switch_links())) == (143, 181)


def test_node_link_drops_self_loops_and_parallel_edges_and_sorts_ids():
    graph = {"nodes": [{"id": "10"}, {"id": "2"}, {"id": "3"}],
             "edges": [{"source": "2", "target": "10"}, {"source": "10", "target": "2"},
                       {"source": "3", "target": "3"}, {"source": "3", "target": "2"}]}
    topo = topologies.from_node_link("zoo:x", graph)
    assert [(l.a, l.b) for l in topo.switch_links()] == [("s1", "s2"), ("s1", "s3")]  # s1=id 2, s2=3, s3=10


@pytest.mark.parametrize("spec", ["", "linear", "linear:0", "linear:x", "tree:2", "tree:0,2", "fattree:3",
                                  "fattree:0", "pleroma:1", "zoo:", "zoo:NoSuchNet", "mesh:3"])
def test_bad_specs_are_rejected(spec):
    with pytest.raises(TopologyError):
        topologies.parse(spec)
