"""DDS sites across the overlay (issue 25, docs/overlay-dds.md "DDS sites"), on real Cyclone DDS.

Three sites that cannot see each other: one network namespace each, joined to the root namespace
by a veth pair (DDS multicast discovery stays inside a namespace; the same domain id in all). In
the root namespace: `nps overlay zookeeper` and two `nps overlay routing-broker`s; in each site an
`nps overlay edge-broker --local dds:DOMAIN?interface=site` and unmodified DDS applications
(dds_app.py on the `cyclonedds` package: an IDL struct, nothing netpubsub in them).
- a reliable stream written at A reaches a reader at B exactly once and in order from the first
  sample that crossed on, while B writes too: each site's reader sees every sample of the other site's writer
  once and its own site's once (nothing loops back into its origin site). A's and B's edges
  lose 3 % of what they send to the routing brokers, and the routing brokers 3 % of what they
  relay (WAN emulation), so the exactly-once takes the overlay's NACK repair (recoveries counted
  at the edges) and the order its hold-back;
- unmodified `ddsperf ping` at A is answered by `ddsperf pong` at B (partitions addressing a
  participant, the child's user data and source timestamps cross): 200 round trips, none timed out;
- a reader of the same topic name with another type at B is refused at A: one warning, one count;
- a late-joining TRANSIENT_LOCAL reader at B receives exactly the history depth of a writer at A;
- a reader at B requesting a DEADLINE makes its topic a deadline topic at B's edge, and (carried
  in B's subscriber entry) the direct path at A's, whose writer offers none; the writer's silence
  is one missed deadline;
  the reader's end ends it;
- an MQTT site (Mosquitto in the root namespace) publishes to a DDS reader of the opaque type
  netpubsub::MqttMessage at B: every payload once, in order; and the reverse, a DDS writer of that
  type at A to mosquitto_sub at an MQTT site: exactly the bare payloads, once each, in order;
- a reader requesting a shorter DEADLINE than B's DDS child's writer offers, joining later,
  receives the samples (the child replaces its writer), and the earlier reader misses none;
- a new topic crosses after the applications of another topic have stopped (an overlay kept
  across runs);
- 1 000 samples/s from C reach readers at A and B exactly once and in order although the routing broker that
  relays them is killed mid-stream and both routing brokers lose 3 % of what they relay (the
  new one's losses are repaired too: issue 25's refused NACKs; last: it kills a broker of the
  module's overlay);
- a sample the domain refuses (malformed CDR) and one of a type no local endpoint announced are
  counted and dropped by the DDS child (driven through its frames);
- a domain that cannot be joined (id out of range, an interface that does not exist): one line on
  stderr, exit 1."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pubsub.auth import zookeeper_args as zk_auth  # noqa: E402  (ZooKeeper ACLs on the tree)
from pubsub.datagram_key import key_args  # noqa: E402
from pubsub import ddsperf_lines  # noqa: E402
from pubsub.dds_sites import Site, dds_env  # noqa: E402
from pubsub.session import NPS, JsonLines, SessionError, build, free_port, poll  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PYTHON = sys.executable
APP = os.path.join(HERE, "dds_app.py")
BRIDGE = os.path.join(ROOT, "nps-edge/src/main/resources/org/netpubsub/edge/dds/nps_dds_bridge.py")
DOMAIN = 7

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("ip"),
                                reason="network namespaces need root and iproute2")


@pytest.fixture(scope="module")
def overlay():
    build()
    work = tempfile.mkdtemp(prefix="nps-dds-test-")
    tag = str(os.getpid() % 100000)
    procs: list[JsonLines] = []
    sites: list[Site] = []
    try:
        for i, name in enumerate(("a", "b", "c")):
            sites.append(Site(tag + name, 100 + (os.getpid() + i) % 150))
        a, b, c = sites
        zk_port = free_port()
        zk = f"{a.outer_ip}:{zk_port}"
        procs.append(JsonLines([NPS, "overlay", "zookeeper", "--listen", zk, "--data",
                                os.path.join(work, "zk"), "--tick", "200", "--json"]))
        procs[-1].wait_for(lambda o: o.get("kind") == "zookeeper", 60, "ZooKeeper")
        brokers, rb_addr = {}, {}
        for i, name in enumerate(("rb1", "rb2")):
            rb_addr[name] = f"{a.outer_ip}:{free_port()}"
            brokers[name] = JsonLines([NPS, "overlay", "routing-broker", "--zookeeper", zk,
                                       "--listen", rb_addr[name], "--name", name,
                                       "--session-timeout", "1s", "--status-interval", "1s",
                                       # each relay loses 3 % of what it sends (WAN emulation)
                                       "--emulate-wan", "loss=3%", "--emulation-seed", str(i + 1),
                                       *key_args(work), *zk_auth(), "--json"], env=dds_env())
            procs.append(brokers[name])
        edges = {}
        for site in sites:
            # A's and B's datagrams to the routing brokers lose 3 % (the WAN emulation), C's none
            lossy = [] if site is c else [x for rb in rb_addr.values()
                                          for x in ("--emulate-link", f"{rb}=loss=3%")]
            edges[site] = site.run(NPS, "overlay", "edge-broker", "--zookeeper", zk, "--local",
                                   # ddsperf answers only participants with its user data
                                   f"dds:{DOMAIN}?interface=site&user_data=DDSPerf:0:0:overlay",
                                   "--site", site.ns[-1:],
                                   "--listen", f"{site.inner_ip}:7200", "--status-interval", "1s",
                                   "--buffer", "4096", *lossy, "--emulation-seed", "25",
                                   *key_args(work), *zk_auth(), "--json", env=dds_env())
            procs.append(edges[site])
        for name, rb in brokers.items():
            rb.wait_for(lambda o: o.get("kind") == "routing-broker", 120, name)
        for site, e in edges.items():
            e.wait_for(lambda o: o.get("kind") == "edge-broker", 120, f"the edge of {site.ns}")
        yield {"a": a, "b": b, "c": c, "edges": edges, "brokers": brokers, "zk": zk,
               "work": work, "procs": procs}
    finally:
        for p in reversed(procs):
            p.terminate(timeout=10)
        for s in sites:
            s.delete()


def app(site: Site, *args: str) -> JsonLines:
    p = site.run(PYTHON, APP, *args)
    p.wait_for(lambda o: o.get("kind") == "started", 30, f"dds_app {args[0]} in {site.ns}")
    return p


def seqs(p: JsonLines, sensor: str) -> list[int]:
    return [o["seq"] for o in list(p.all) if o.get("kind") == "sample" and o["sensor"] == sensor]


def last_counters(edge: JsonLines) -> dict:
    stats = [o for o in list(edge.all) if o.get("kind") == "stats"]
    return stats[-1]["counters"] if stats else {}


def test_samples_cross_sites_exactly_once_and_never_loop_back(overlay):
    a, b = overlay["a"], overlay["b"]
    started = []
    try:
        sub_a, sub_b = app(a, "sub", str(DOMAIN)), app(b, "sub", str(DOMAIN))
        started += [sub_a, sub_b]
        # both sites write: B's bridge has a reader on the topic, so a loop would show at A
        started.append(app(a, "pub", str(DOMAIN), "a", "100000", "0.02"))
        started.append(app(b, "pub", str(DOMAIN), "b", "100000", "0.02"))
        first_a = poll(lambda: seqs(sub_b, "a"), 40, "a sample of A at B")[0]
        first_b = poll(lambda: seqs(sub_a, "b"), 40, "a sample of B at A")[0]
        # and 150 of each site's own (a reader may miss its own site's first samples while the
        # local writer is not yet matched: they then lag the other site's by a few)
        poll(lambda: all(len(seqs(sub, sensor)) >= 150 for sub in (sub_a, sub_b)
                         for sensor in ("a", "b")), 30, "150 samples each way")
        for sub, sensor, first in ((sub_b, "a", first_a), (sub_a, "b", first_b)):
            got = seqs(sub, sensor)
            assert len(got) == len(set(got)), f"duplicates of {sensor}"
            assert sorted(got) == list(range(first, first + len(got))), f"a gap in {sensor}"
            # in the order written although losses were repaired (the receiving edge's hold-back)
            assert got == sorted(got), f"out of order: {sensor}"
        for sub, sensor in ((sub_a, "a"), (sub_b, "b")):  # a site's own samples: once each
            got = seqs(sub, sensor)
            assert len(got) == len(set(got)) and len(got) >= 150, sensor
    finally:
        for p in started:
            p.terminate(timeout=5)
    for e in (overlay["edges"][a], overlay["edges"][b]):  # C takes no part here
        poll(lambda: last_counters(e).get("published", 0) >= 150, 10, "the edge's counters")
        assert last_counters(e).get("dropped.own_origin", 0) == 0
        assert last_counters(e).get("recovered", 0) > 0  # the relay's losses were repaired


def test_ddsperf_ping_at_a_is_answered_by_ddsperf_pong_at_b(overlay):
    """Unmodified ddsperf across the overlay: its pongs are in a partition named after the
    pinging participant's GUID (bridged as an addressed partition), and it tells a pong that
    asks for the next ping by the lowest bit of the source timestamp (bridged with the sample).
    From the first pong that crossed on (A's DDS child stands for B's ponger, `overlay:0`), 200
    round trips complete and no ping times out (ddsperf sends a new one after 1 s without its
    pong), although the overlay loses 3 % (NACK repair)."""
    a, b = overlay["a"], overlay["b"]
    started = []
    try:
        started.append(b.run("ddsperf", "-i", str(DOMAIN), "pong"))
        pinger = a.run("ddsperf", "-i", str(DOMAIN), "ping")
        started.append(pinger)

        def crossed() -> list[dict]:
            return [x for x in (ddsperf_lines.parse(o.get("text", "")) for o in list(pinger.all))
                    if x and x["peer"] == "overlay:0"]

        first = poll(crossed, 40, "a pong from B at A")[0]
        poll(lambda: sum(x["count"] for x in crossed()) >= 200, 30, "200 round trips")
    finally:
        for p in started:
            p.terminate(timeout=5)
    texts = [o.get("text", "") for o in list(pinger.all)]
    since = texts[next(i for i, t in enumerate(texts) if ddsperf_lines.parse(t) == first):]
    assert not [t for t in since if "ping timed out" in t], since
    assert not [t for t in since if "get_pong_writer" in t], since


def test_a_topic_with_another_type_at_another_site_is_refused_once(overlay):
    a, b = overlay["a"], overlay["b"]
    other = os.path.join(overlay["work"], "other_type.py")
    with open(other, "w") as f:  # the same topic name, another struct
        f.write(open(APP).read().replace('typename="demo::Reading"', 'typename="demo::Other"'))
    started = []
    try:
        started.append(app(a, "pub", str(DOMAIN), "a", "100000", "0.05"))
        p = b.run(PYTHON, other, "sub", str(DOMAIN))
        started.append(p)
        p.wait_for(lambda o: o.get("kind") == "started", 30, "the other type's reader")
        edge = overlay["edges"][a]
        poll(lambda: last_counters(edge).get("dds_type_conflicts", 0) >= 1, 30,
             "the conflict counted at A")
        n = len([o for o in list(edge.all) if o.get("kind") == "stats"])
        poll(lambda: len([o for o in list(edge.all) if o.get("kind") == "stats"]) >= n + 2, 10,
             "two more status lines")
        assert last_counters(edge)["dds_type_conflicts"] == 1
        edge.stderr.seek(0)
        log = edge.stderr.read()
        assert log.count("DDS topic 'readings' has another type") == 1, log[-2000:]
    finally:
        for p in started:
            p.terminate(timeout=5)


def frames(p: subprocess.Popen, kinds: set, timeout: float) -> list[tuple[str, bytes]]:
    """Frames from the DDS child until one of `kinds` arrives."""
    out, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        head = p.stdout.read(4)
        assert len(head) == 4, "the DDS child ended"
        body = p.stdout.read(struct.unpack(">I", head)[0])
        out.append((chr(body[0]), body[1:]))
        if chr(body[0]) in kinds:
            return out
    raise AssertionError(f"no frame of {kinds} in {timeout}s: {out}")


def sample_frame(key: str, cdr: bytes) -> bytes:
    k = key.encode()
    body = b"M" + struct.pack(">H", len(k)) + k + b"\x01" + cdr
    return struct.pack(">I", len(body)) + body


def test_malformed_samples_and_unknown_types_are_counted_and_dropped(overlay):
    b = overlay["b"]
    sub = app(b, "sub", str(DOMAIN))
    child = subprocess.Popen(["ip", "netns", "exec", b.ns, PYTHON, BRIDGE, "--domain",
                              str(DOMAIN), "--interface", "site"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert frames(child, {"R"}, 30)[-1][0] == "R"
        key = json.loads(frames(child, {"E"}, 30)[-1][1])["key"]
        assert key.startswith("dds/readings/demo::Reading/")
        child.stdin.write(sample_frame(key, b"\x00\x01\x00\x00\xff"))  # not a Reading
        child.stdin.write(sample_frame("dds/readings/demo::Nope/" + "0" * 28, b"\x00\x01\x00\x00"))
        child.stdin.flush()
        dropped = [f for f in frames(child, {"D"}, 10) if f[0] == "D"]
        dropped += [f for f in frames(child, {"D"}, 10) if f[0] == "D"]
        assert [d[1] for d in dropped] == [f"malformed: {key}".encode(),
                                           b"unknown_type: dds/readings/demo::Nope/" + b"0" * 28]
        assert seqs(sub, "a") == [] and seqs(sub, "b") == []  # nothing reached the reader
    finally:
        child.stdin.close()
        child.wait(timeout=10)
        sub.terminate(timeout=5)


@pytest.mark.parametrize("local,reason", [
    (f"dds:300", "cannot join DDS domain 300: domain ids are 0 to 232"),
    (f"dds:{DOMAIN}?interface=nosuch0", f"cannot join DDS domain {DOMAIN} on interface 'nosuch0'"),
])
def test_a_domain_that_cannot_be_joined_is_one_line_and_exit_1(overlay, local, reason):
    r = subprocess.run([NPS, "overlay", "edge-broker", "--zookeeper", overlay["zk"], "--local",
                        local, "--site", "x", "--listen", "127.0.0.1:0", "--insecure-datagrams",
                        *zk_auth()],
                       capture_output=True, text=True, timeout=90, env=dds_env())
    assert r.returncode == 1, r
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and reason in lines[0], r.stderr


def stats_lines(p: JsonLines) -> int:
    return len([o for o in list(p.all) if o.get("kind") == "stats"])


def test_a_late_transient_local_reader_at_another_site_receives_the_writers_depth(overlay):
    """A TRANSIENT_LOCAL writer at A with KEEP_LAST 5 writes 20 samples while no other site
    reads them; a TRANSIENT_LOCAL reader that joins at B later receives exactly the last 5, as
    one at A would (A's edge keeps them for the topic and replays them to B's edge)."""
    a, b = overlay["a"], overlay["b"]
    edge_a, edge_b = overlay["edges"][a], overlay["edges"][b]
    started = []
    try:
        before = last_counters(edge_a).get("local_messages", 0)
        pub = app(a, "pub", str(DOMAIN), "h", "20", "0.01", "history", "5")
        started.append(pub)
        pub.wait_for(lambda o: o.get("kind") == "done", 20, "the writer's 20 samples")
        # the edge has what it will get of them when its count holds for two status lines
        def settled():
            n = stats_lines(edge_a)
            seen = last_counters(edge_a).get("local_messages", 0)
            poll(lambda: stats_lines(edge_a) >= n + 2, 10, "two status lines")
            return seen >= before + 5 and last_counters(edge_a)["local_messages"] == seen
        poll(settled, 20, "A's edge holding the writer's history")
        sub = app(b, "sub", str(DOMAIN), "history", "100")
        started.append(sub)
        poll(lambda: len(seqs(sub, "h")) >= 5, 30, "the history at B")
        n = stats_lines(edge_b)
        poll(lambda: stats_lines(edge_b) >= n + 2, 10, "two more status lines at B")
        assert seqs(sub, "h") == [15, 16, 17, 18, 19]
        assert last_counters(edge_a).get("replayed", 0) >= 5
    finally:
        for p in started:
            p.terminate(timeout=5)


def misses(edge: JsonLines, prefix: str) -> list[dict]:
    return [o for o in list(edge.all)
            if o.get("kind") == "deadline-missed" and o["topic"].startswith(prefix)]


def test_a_readers_deadline_makes_a_deadline_topic_and_a_silence_one_miss(overlay):
    """A reader at B requests a 400 ms DEADLINE; the writer at A offers none: B's edge takes the
    topic as a deadline topic at run time (no --deadline) and reports the writer's silence after
    its 30 samples once; B's subscriber entry carries the 400 ms, so A's edge sends the topic on
    the direct path too (B's reader's deadline alone); when the reader goes, the topic is no
    deadline topic any more."""
    a, b = overlay["a"], overlay["b"]
    edge_a, edge_b = overlay["edges"][a], overlay["edges"][b]
    started = []
    try:
        sub = app(b, "sub", str(DOMAIN), "deadlined", "deadline=400")
        started.append(sub)
        poll(lambda: last_counters(edge_b).get("deadline_topics_added", 0) >= 1, 20,
             "the deadline topic at B")
        pub = app(a, "pub", str(DOMAIN), "d", "30", "0.05", "deadlined")  # offers none
        started.append(pub)
        poll(lambda: 29 in seqs(sub, "d"), 30, "the last sample at B")
        n = len(misses(edge_b, "dds/deadlined/"))  # late samples before it may be misses too
        miss = poll(lambda: misses(edge_b, "dds/deadlined/")[n:], 10, "the missed deadline")[0]
        assert miss["deadline_ms"] == 400 and miss["silent_ms"] > 400, miss
        poll(lambda: last_counters(edge_b).get("deadline_missed", 0) >= n + 1, 5,
             "the miss counted")
        assert last_counters(edge_a).get("direct_admitted", 0) >= 1
        assert last_counters(edge_a).get("sent_direct", 0) >= 1
        sub.terminate(timeout=5)
        poll(lambda: last_counters(edge_b).get("deadline_topics_removed", 0) >= 1, 20,
             "the deadline topic removed at B")
    finally:
        for p in started:
            p.terminate(timeout=5)


def test_an_mqtt_topic_reaches_a_dds_reader_of_the_opaque_type(overlay):
    """An MQTT site (Mosquitto and an edge in the root namespace) publishes plant/temp with QoS 1;
    an unmodified DDS reader of netpubsub::MqttMessage on the DDS topic plant/temp at B receives
    each payload as the octet sequence: from the first probe that crossed on, all 50 in order.
    The MQTT edge declares a deadline for the topic, so it also goes straight to B's edge (the
    routing brokers lose 3 % of what they relay, and a repaired loss arrives out of order)."""
    b = overlay["b"]
    work, root_ip = overlay["work"], overlay["a"].outer_ip
    port = free_port()
    conf = os.path.join(work, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\n")
    started = [JsonLines(["mosquitto", "-c", conf])]
    try:
        edge = JsonLines([NPS, "overlay", "edge-broker", "--zookeeper", overlay["zk"], "--local",
                          f"mqtt://127.0.0.1:{port}", "--site", "m", "--listen",
                          f"{root_ip}:{free_port()}", "--status-interval", "1s",
                          "--deadline", "plant/#=10s", *key_args(work), *zk_auth(), "--json"],
                         env=dds_env())
        started.append(edge)
        reader = app(b, "opaque", str(DOMAIN), "plant/temp")
        started.append(reader)
        edge.wait_for(lambda o: o.get("kind") == "edge-broker", 120, "the MQTT site's edge")
        got = lambda: [bytes.fromhex(o["payload"]) for o in list(reader.all)
                       if o.get("kind") == "opaque"]

        def pub(*payloads: bytes) -> None:
            subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-q", "1",
                            "-t", "plant/temp", "-l"], input=b"\n".join(payloads) + b"\n",
                           check=True, timeout=20)
        probes = iter(range(1000))
        poll(lambda: pub(b"probe-%d" % next(probes)) or got(), 40, "a probe at the DDS reader")
        sent = [b"m-%d %s" % (i, b"x" * i) for i in range(50)]
        pub(*sent)
        poll(lambda: sum(1 for g in got() if g.startswith(b"m-")) >= 50, 20, "the 50 messages")
        n = stats_lines(edge)
        poll(lambda: stats_lines(edge) >= n + 2, 10, "two more status lines")
        assert [g for g in got() if not g.startswith(b"probe-")] == sent
        assert last_counters(overlay["edges"][b]).get("dds_from_mqtt", 0) >= 50
    finally:
        for p in reversed(started):
            p.terminate(timeout=10)


MQTT_LOG_LINES = "log_dest topic\nlog_dest stderr\nlog_type subscribe\nlog_type unsubscribe\n" \
                 "log_type notice\n"  # how an MQTT site's edge learns its subscriptions


def test_a_dds_writer_of_the_opaque_type_reaches_mqtt_subscribers_as_bare_payloads(overlay):
    """The reverse of the above: an unmodified DDS writer of netpubsub::MqttMessage on plant/out
    at A, and `mosquitto_sub -t plant/out` at an MQTT site (Mosquitto and its edge in the root
    namespace): from the first probe that crossed on, mosquitto_sub receives exactly the payloads
    (binary, NUL and newline included), once each and in order. A's edge unwraps the CDR and
    publishes on the MQTT topic. The MQTT edge's --deadline puts its subscriber entry's deadline
    on the topic, so A's edge sends it straight there too (a repaired relay loss would arrive out
    of order)."""
    a = overlay["a"]
    work, root_ip = overlay["work"], a.outer_ip
    port = free_port()
    conf = os.path.join(work, "mosquitto-sub.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\n{MQTT_LOG_LINES}")
    started = [JsonLines(["mosquitto", "-c", conf])]
    try:
        edge = JsonLines([NPS, "overlay", "edge-broker", "--zookeeper", overlay["zk"], "--local",
                          f"mqtt://127.0.0.1:{port}", "--site", "n", "--listen",
                          f"{root_ip}:{free_port()}", "--status-interval", "1s",
                          "--deadline", "plant/#=10s", *key_args(work), *zk_auth(), "--json"],
                         env=dds_env())
        started.append(edge)
        edge.wait_for(lambda o: o.get("kind") == "edge-broker", 120, "the MQTT site's edge")
        sub = JsonLines(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-q", "1", "-t",
                         "plant/out", "-F", '{"hex":"%x"}'])
        started.append(sub)
        pub = a.run(PYTHON, APP, "opaque-pub", str(DOMAIN), "plant/out", stdin=True)
        started.append(pub)
        pub.wait_for(lambda o: o.get("kind") == "started", 30, "the opaque writer at A")
        got = lambda: [bytes.fromhex(o["hex"]) for o in list(sub.all) if "hex" in o]

        def write(*payloads: bytes) -> None:
            pub.proc.stdin.write("".join(p.hex() + "\n" for p in payloads))
            pub.proc.stdin.flush()
        probes = iter(range(1000))
        poll(lambda: write(b"probe-%d" % next(probes)) or got(), 40, "a probe at mosquitto_sub")
        sent = [b"d-%d:" % i + bytes([i, 0, 255, 10]) * (i % 5) for i in range(50)]
        write(*sent)
        poll(lambda: sum(1 for g in got() if g.startswith(b"d-")) >= 50, 20, "the 50 payloads")
        n = stats_lines(edge)
        poll(lambda: stats_lines(edge) >= n + 2, 10, "two more status lines")
        assert [g for g in got() if not g.startswith(b"probe-")] == sent
        assert last_counters(overlay["edges"][a]).get("dds_to_mqtt", 0) >= 50
        assert last_counters(overlay["edges"][a]).get("dropped.dds_opaque_malformed", 0) == 0
    finally:
        for p in reversed(started):
            p.terminate(timeout=10)


def test_a_reader_with_a_shorter_deadline_joining_later_receives_the_samples(overlay):
    """A reader at B with no DEADLINE makes B's DDS child create its writer for the key, offering
    none; a second reader requesting 300 ms joins later. DDS matches it only to a writer offering
    at most 300 ms, so the child replaces its writer (make before break): the late reader
    receives the stream, and the first one loses nothing and gets nothing twice across the
    replacement."""
    a, b = overlay["a"], overlay["b"]
    started = []
    try:
        first = app(b, "sub", str(DOMAIN), "lated")
        started.append(first)
        started.append(app(a, "pub", str(DOMAIN), "l", "100000", "0.05", "lated"))
        poll(lambda: seqs(first, "l"), 40, "a sample at B's first reader")
        late = app(b, "sub", str(DOMAIN), "lated", "deadline=300")
        started.append(late)
        poll(lambda: len(seqs(late, "l")) >= 20, 30, "20 samples at the late reader")
        mark = max(seqs(late, "l"))
        for sub, name in ((first, "first"), (late, "late")):  # repairs may still be on their way
            lowest = min(seqs(sub, "l"))
            poll(lambda: set(range(lowest, mark)) <= set(seqs(sub, "l")), 10,
                 f"every sample from the {name} reader's first to {mark}")
            got = seqs(sub, "l")
            assert len(got) == len(set(got)), f"duplicates at the {name} reader"
    finally:
        for p in started:
            p.terminate(timeout=5)


def test_a_new_topic_crosses_after_the_applications_of_another_have_stopped(overlay):
    """On an overlay kept across runs (docs/overlay-dds.md, Left out: a second run's new topics never
    got across): a pair of applications on one topic (reader at B, writer at A), stopped; then
    a pair on a new topic crosses as the first did, every sample once from the first that
    crossed."""
    a, b = overlay["a"], overlay["b"]
    firsts = {}
    for topic in (f"kept1_{os.getpid()}", f"kept2_{os.getpid()}"):
        started = []
        try:
            sub = app(b, "sub", str(DOMAIN), topic)
            started.append(sub)
            started.append(app(a, "pub", str(DOMAIN), "k", "100000", "0.02", topic, "matched"))
            poll(lambda: seqs(sub, "k"), 40, f"a sample of {topic} at B")
            poll(lambda: len(seqs(sub, "k")) >= 50, 20, f"50 samples of {topic}")
            firsts[topic], top = min(seqs(sub, "k")), max(seqs(sub, "k"))
            poll(lambda: set(range(firsts[topic], top)) <= set(seqs(sub, "k")), 10,
                 f"every sample of {topic} from the first that crossed")
            got = seqs(sub, "k")
            assert len(got) == len(set(got)), f"duplicates of {topic}"
        finally:
            for p in started:
                p.terminate(timeout=5)
    print(f"\nfirst samples to cross at B: {firsts}; load {open('/proc/loadavg').read().split()[:3]}")


def spans(nums: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for n in nums:
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def relayed(rb: JsonLines) -> int:
    return last_counters(rb).get("relayed", 0)


def test_a_1000_per_s_stream_to_two_sites_survives_the_kill_of_its_routing_broker(overlay):
    """The goal of issue 25: 15 000 reliable samples written at C at 1 000/s reach the readers at
    A and B exactly once each, from the first that crossed on, although the routing broker that
    relays them is killed (SIGKILL) mid-stream, and both routing brokers lose 3 % of what they
    relay: what the new one loses after the failover is repaired by NACK as well (C's edge once
    refused those NACKs while its view lacked the subscribers). The kill point follows the
    readers: the relay is killed once both readers have received a quarter of the stream (on a
    loaded machine they lag the writer by seconds; a kill at a fixed time or after a fixed number
    written came before they had caught up), while C is still writing. Last in this file: it kills
    a routing broker of the module's overlay."""
    a, b, c = overlay["a"], overlay["b"], overlay["c"]
    brokers, total = overlay["brokers"], 15000
    share = total // 4  # both readers have this much of the stream when the relay is killed
    started = []
    try:
        sub_a, sub_b = app(a, "sub", str(DOMAIN), "stream"), app(b, "sub", str(DOMAIN), "stream")
        started += [sub_a, sub_b]
        before = {name: relayed(rb) for name, rb in brokers.items()}
        pub = app(c, "pub", str(DOMAIN), "c", str(total), "0.001", "stream")
        started.append(pub)
        firsts = [poll(lambda: seqs(s, "c"), 60, "a sample of C")[0] for s in (sub_a, sub_b)]
        poll(lambda: all(max(seqs(s, "c")) >= share for s in (sub_a, sub_b)), 60,
             f"A and B receiving sample {share} of C")
        # the relay: the broker whose count grows with the stream (no other topic runs now)
        victim = poll(lambda: next((n for n, rb in brokers.items()
                                    if relayed(rb) - before[n] >= 1000), None), 20, "the relay")
        killed_at = min(max(seqs(s, "c")) for s in (sub_a, sub_b))
        writing = not any(o.get("kind") == "done" for o in list(pub.all))
        brokers[victim].proc.kill()
        assert writing, f"C had written all {total} before both readers had {share}"
        survivor = next(n for n in brokers if n != victim)
        pub.wait_for(lambda o: o.get("kind") == "done", 60, "the end of the stream")
        edge_counters = lambda: {s.ns: last_counters(overlay["edges"][s]) for s in (a, b, c)}
        for sub, first in zip((sub_a, sub_b), firsts):
            try:
                poll(lambda: len(seqs(sub, "c")) >= total - first, 60, "every sample")
            except SessionError:
                pass  # the assertions below say what is missing
        for sub, first in zip((sub_a, sub_b), firsts):
            got = seqs(sub, "c")
            assert len(got) == len(set(got)), "duplicates"
            missing = sorted(set(range(first, total)) - set(got))
            assert not missing, (f"{len(missing)} lost: {spans(missing)}; killed {victim} after "
                                 f"{killed_at}; {edge_counters()}")
            late = [x for i, x in enumerate(got) if i and x < got[i - 1]]
            assert not late, f"{len(late)} out of order, e.g. {late[:5]}"
        assert firsts[0] < killed_at < total - 1000, f"the kill came after {killed_at} of {total}"
        assert relayed(brokers[survivor]) > before[survivor] + 1000  # it took the stream over
        counters = [last_counters(overlay["edges"][s]) for s in (a, b)]
        at_c = last_counters(overlay["edges"][c])
        print(f"\n3 sites, {total} samples at 1000/s from C; killed {victim} after sample "
              f"{killed_at}; first crossed at A {firsts[0]}, at B {firsts[1]}; 0 lost, 0 duplicated;"
              f" recovered at A {counters[0].get('recovered')}, at B {counters[1].get('recovered')}; "
              f"C retransmitted {at_c.get('retransmitted')}, to subscribers its view had lost "
              f"{at_c.get('nacks_from_recent_subscriber', 0)}, refused "
              f"{at_c.get('dropped.nack_not_subscriber', 0)}; "
              f"load {open('/proc/loadavg').read().split()[:3]}")
    finally:
        for p in started:
            p.terminate(timeout=5)
