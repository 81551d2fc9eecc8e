"""Head to head (issue 26): netpubsub in the network vs Mosquitto, NATS (one server and a cluster
of three) and Zenoh (peer mode), on one Open vSwitch test bed, same quotes, same filters, one run.

Every client is Python (pubsub/peer_client.py): the same EventCodec bytes are carried by every
system and checked at every subscriber by netpubsub's own receive path (decode, exact filter),
so every system must hand the application exactly the events its filter matches; a system whose
process died or whose deliveries differ from `nps filter match` is refused, not reported.

    sudo flock /tmp/nps-ovs.lock testbed/.venv/bin/python testbed/experiments/peers.py
        [--systems netpubsub,netpubsub/noprefixes,nats,...] [--loads 8x1000x16,...]
        [--seconds 2] [--warmup 2] [--repeat 5] [--sweep] [--topo pleroma|fattree:4]

Every run publishes --warmup seconds of events first: checked, counted, not in the latencies.

Writes docs/results/peers.{json,md,png} (--out NAME for another name; --replot redraws).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from peers_report import markdown, plot  # noqa: E402
from nps_testbed.ovs import prefix_tracking_args  # noqa: E402
from pubsub import auth as auth_module  # noqa: E402
from pubsub import drops, linkstats, megaflows  # noqa: E402
from pubsub import peer_verdict as pv  # noqa: E402
from pubsub.demo import SUBSCRIPTIONS, learn_layout, quotes  # noqa: E402
from pubsub.session import (ROOT, Controller, JsonLines, SessionError, Testbed, build,  # noqa: E402
                            ground_truth, log, poll, wait_for_network)
from peers_clients import (JAVA_OPTS, SESSION_34_OPTS, JavaPub, JavaSub, in_host,  # noqa: E402
                           python_client)
from results import redraw, write  # noqa: E402

QUOTES = os.path.join(ROOT, "examples", "schemas", "quotes.yaml")
SYSTEMS = ["netpubsub", "mosquitto", "nats", "nats3", "zenoh", "netpubsub-py"]
# Variants, SYSTEM/V[/V…], alternating with SYSTEM in one run:
# noprefixes: OVS's default classifier (no prefix tracking on ipv6_dst: every content address its
#   own megaflow), as the test bed's bridges are outside this experiment;
# before: netpubsub's Java client of another build (--before-jar), read as `lines`;
# lines: `nps sub` printing a JSON line per delivery and the JVMs at C1 only (the harness until
#   session 34); c1: the JVMs at C1 only, with the summary; nojit: the summary and C2 without
#   `nps sub --jit-warmup` (the harness until session 35).
VARIANTS = {"noprefixes", "before", "lines", "c1", "nojit"}
JAVA_ONLY = {"before", "lines", "c1", "nojit"}
# Synthetic events each Java subscriber decodes and filters before subscribing, so that its
# receive path is compiled (C2) before the first event, as in a subscriber that has been running;
# the run's --warmup (~60 events per subscriber at 0.5 s) leaves it interpreted (peers-tail.md).
JIT_WARMUP = 20_000
BEFORE = "/before"
CLIENT_KIND = {"nats3": "nats", "netpubsub-py": "netpubsub"}  # peer_client.py's system names
PUBLISHER = "h1"
TICKS = os.sysconf("SC_CLK_TCK")
READY = 240  # s: a client JVM's start and subscription on a machine at load 30
IDLE = 2.0  # s: the links' background (LLDP probes, neighbour discovery) measured before a run
SWEEP = ["1x1000x16", "8x1000x16", "64x1000x16", "8x10000x16", "8x50000x16", "8x1000x1024"]


# ---- placement -------------------------------------------------------------------------------

def placement(state: dict, n: int) -> list[tuple[str, str]]:
    """n subscribers (host, filter): the demo's seven filters on h2…h8 in turn, then again."""
    hosts = [h["name"] for h in state["hosts"] if h["name"] != PUBLISHER]
    return [(hosts[i % len(hosts)], SUBSCRIPTIONS[i % len(SUBSCRIPTIONS)][1]) for i in range(n)]


def graph(state: dict) -> dict[str, set[str]]:
    g = collections.defaultdict(set)
    for link in state["links"]:
        g[link["a"]].add(link["b"])
        g[link["b"]].add(link["a"])
    return g


def hops(state: dict, src: str) -> dict[str, int]:
    g, dist, todo = graph(state), {src: 0}, collections.deque([src])
    while todo:
        x = todo.popleft()
        for y in g[x]:
            if y not in dist:
                dist[y] = dist[x] + 1
                todo.append(y)
    return dist


def server_hosts(state: dict, count: int) -> list[str]:
    """One broker host (the last host), or `count` hosts on edge switches spread apart."""
    names = [h["name"] for h in state["hosts"]]
    if count == 1:
        return [names[-1]]
    edges = []  # edge switches in the order of their hosts; each one's last host
    for h in names:
        sw = next(x["a"] for x in state["links"] if x["b"] == h)
        if edges and edges[-1][0] == sw:
            edges[-1] = (sw, h)
        elif sw not in [e for e, _ in edges]:
            edges.append((sw, h))
    picks = sorted({round(j * (len(edges) - 1) / (count - 1)) for j in range(count)})
    return [edges[i][1] for i in picks]


def nearest(state: dict, host: str, servers: list[str]) -> str:
    d = hops(state, host)
    return min(servers, key=lambda s: (d.get(s, 1 << 30), servers.index(s)))


# ---- processes -------------------------------------------------------------------------------

def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its descendants (0 for those already gone)."""
    children = collections.defaultdict(list)
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/stat") as f:
                    line = f.read()
                children[int(line[line.rindex(")") + 2:].split()[1])].append(int(p))
            except (OSError, ValueError):
                pass
    total, todo = 0.0, [pid]
    while todo:
        x = todo.pop()
        try:
            with open(f"/proc/{x}/stat") as f:
                total += pv.cpu_seconds(f.read(), TICKS)
        except OSError:
            pass
        todo += children.get(x, [])
    return total


def datapath() -> dict[str, int]:
    r = subprocess.run(["ovs-appctl", "dpif-netdev/pmd-stats-show"], capture_output=True,
                       text=True, timeout=30)
    return pv.datapath_counts(r.stdout)


def prefix_tracking(state: dict, on: bool) -> None:
    """OVS's classifier prefix tracking on ipv6_dst/ipv6_src in every table of every bridge, as
    the test bed makes them (megaflows match only the destination bits a prefix needs), or OVS's
    default (off: the megaflows match whole IPv6 addresses)."""
    for sw in state["switches"]:
        b = sw["bridge"]
        cmd = ["ovs-vsctl", "clear", "Bridge", b, "flow_tables"]
        if on:
            cmd = ["ovs-vsctl", *prefix_tracking_args(b)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            raise SessionError(f"{' '.join(cmd[:6])}… failed: {r.stderr.strip()}")


def ovs_pid() -> int:
    with open("/var/run/openvswitch/ovs-vswitchd.pid") as f:
        return int(f.read().strip())


def alive(p: JsonLines, what: str) -> bool:
    """True while the process runs; SessionError with its error output once it has exited."""
    if p.proc.poll() is not None:
        raise SessionError(f"{what} exited with {p.proc.returncode}: {p.error_text()[-400:]}")
    return True


def start_brokers(tb: Testbed, system: str, work: str) -> tuple[list[str], list[JsonLines]]:
    """The broker processes of a system (none for netpubsub and Zenoh peers), listening."""
    if system == "mosquitto":
        [host] = server_hosts(tb.state, 1)
        conf = os.path.join(work, "mosquitto.conf")
        with open(conf, "w") as f:  # no per-client queue limit: nothing dropped by the broker
            f.write("listener 1883 ::\nallow_anonymous true\nmax_queued_messages 0\n")
        procs = [JsonLines(in_host(host, "mosquitto", "-c", conf))]
        hosts, port = [host], 1883
    elif system in ("nats", "nats3"):
        hosts = server_hosts(tb.state, 1 if system == "nats" else 3)
        addr = {h: tb.host(h)["address"] for h in hosts}
        procs = []
        for h in hosts:
            cluster = [] if len(hosts) == 1 else [
                "--cluster_name", "nps", "--cluster", f"nats://[{addr[h]}]:6222", "--routes",
                ",".join(f"nats://[{addr[o]}]:6222" for o in hosts if o != h)]
            procs.append(JsonLines(in_host(h, "nats-server", "-a", "::", "-p", "4222", *cluster)))
        port = 4222
    else:
        return [], []
    for h, p in zip(hosts, procs):
        poll(lambda: p.proc.poll() is not None or tb.exec(
            h, "sh", "-c", f"ss -ltn | grep -q ':{port} '").returncode == 0, 20,
             f"{system} listening on {h}")
        if p.proc.poll() is not None:
            raise SessionError(f"{system} on {h} exited: {p.error_text()}")
    return hosts, procs


def variant(text: str) -> tuple[str, set[str]]:
    """(system, variants) of SYSTEM[/VARIANT…]; SystemExit naming what is not known."""
    base, *flags = text.split("/")
    if base not in SYSTEMS:
        raise SystemExit(f"--systems: unknown system {text!r} (one of {', '.join(SYSTEMS)})")
    for f in flags:
        if f not in VARIANTS:
            raise SystemExit(f"--systems: {text!r}: unknown variant {f!r} (one of "
                             f"{', '.join(sorted(VARIANTS))})")
        if f in JAVA_ONLY and base != "netpubsub":
            raise SystemExit(f"--systems: {text!r}: /{f} is the Java client's (netpubsub/{f})")
    return base, set(flags)


def flush_megaflows() -> None:
    """Every datapath flow deleted: each run starts from an empty megaflow cache, whatever ran
    before it, and its warm-up fills the cache again (the same for every system)."""
    r = subprocess.run(["ovs-appctl", "dpctl/del-flows"], capture_output=True, text=True,
                       timeout=30)
    if r.returncode != 0:
        raise SessionError(f"ovs-appctl dpctl/del-flows failed: {r.stderr.strip()}")


class Run:
    """One system under one load: brokers, subscribers and the publisher, measured."""

    def __init__(self, ctx: dict, system: str, load: dict, events_file: str,
                 truth: list[set[int]]):
        self.variant = system
        system, flags = variant(system)
        self.before = ctx.get("before_jar") if "before" in flags else None
        self.prefixes = "noprefixes" not in flags
        self.lines = bool(flags & {"before", "lines"})
        self.java_opts = SESSION_34_OPTS if flags & {"before", "lines", "c1"} else JAVA_OPTS
        self.jit_warmup = 0 if flags & JAVA_ONLY else JIT_WARMUP
        self.tb, self.controller, self.system, self.load = ctx["tb"], ctx["controller"], system, load
        self.ctx, self.events_file, self.truth = ctx, events_file, truth
        self.java = system == "netpubsub"  # netpubsub-py: the Python client

    def subscriber(self, host: str, text: str, brokers: list[str]):
        if self.java:
            return JavaSub(self.tb, host, text, jar=self.before, warmup=self.load["warmup"],
                           lines=self.lines, java_opts=self.java_opts,
                           jit_warmup=self.jit_warmup)
        kind = CLIENT_KIND.get(self.system, self.system)
        keys = [] if kind == "netpubsub" else pv.topic_filters(kind, text)
        return python_client(self.tb, "sub", kind, host, self.ctx["schema"], "--filter", text,
                             "--keys", ",".join(keys), "--warmup", str(self.load["warmup"]),
                             "--servers", self.servers_for(host, brokers))

    def publisher(self, brokers: list[str]):
        if self.java:
            return JavaPub(self.tb, PUBLISHER, self.events_file, self.load["rate"],
                           self.load["payload"], jar=self.before, java_opts=self.java_opts)
        kind = CLIENT_KIND.get(self.system, self.system)
        return python_client(self.tb, "pub", kind, PUBLISHER, self.ctx["schema"], "--events",
                             self.events_file, "--rate", str(self.load["rate"]), "--payload",
                             str(self.load["payload"]), "--servers",
                             self.servers_for(PUBLISHER, brokers))

    def servers_for(self, host: str, brokers: list[str]) -> str:
        if self.system == "zenoh":  # the entry peer: the publisher (gossip finds the rest)
            return self.tb.host(PUBLISHER)["address"]
        return self.tb.host(nearest(self.tb.state, host, brokers))["address"] if brokers else ""

    def dump_path(self, when: str) -> str:
        """Where the run's raw datapath dumps go (the work directory: not committed)."""
        name = self.variant.replace("/", "-")
        return os.path.join(self.ctx["work"], f"megaflows-{name}-{self.ctx.get('rep', 0)}-{when}.txt")

    def go(self) -> dict:
        # the test bed's bridges keep OVS's default (docs/testbed.md, "The switches"); a run
        # with prefix tracking turns it on for itself and off again after
        if self.prefixes:
            prefix_tracking(self.tb.state, True)
        try:
            row = self.run()
        finally:
            if self.prefixes:
                prefix_tracking(self.tb.state, False)
        row["system"] = self.variant
        return row

    def run(self) -> dict:
        spec = placement(self.tb.state, self.load["subscribers"])
        brokers, bprocs = start_brokers(self.tb, self.system, self.ctx["work"])
        subs, pub = [], None
        try:
            subs = [self.subscriber(host, text, brokers) for host, text in spec]
            for s, (h, _) in zip(subs, spec):
                alive(s, f"{self.system} subscriber on {h}")
                try:
                    poll(lambda: s.ready() or not alive(s, f"{self.system} subscriber on {h}"),
                         READY, f"{self.system} subscriber on {h} ready")
                except SessionError as e:  # say what it was doing
                    raise SessionError(f"{e}: {s.error_text()[-300:]!r}") from None
            pub = self.publisher(brokers)
            poll(lambda: pub.ready() or not alive(pub, f"{self.system} publisher"), 120,
                 f"{self.system} publisher ready")

            def warm() -> bool:  # the control message reached every subscriber (interest live)
                if not all(s.warm() for s in subs):
                    pub.command("warm")
                    return False
                return True

            poll(warm, 60, f"every {self.system} subscriber warm", interval=0.3)
            return self.measure(spec, subs, pub, brokers, bprocs)
        finally:
            if pub is not None:
                pub.command("quit")
                pub.terminate()
            for s in subs:
                s.terminate()
            for b in bprocs:
                b.terminate()

    def measure(self, spec, subs, pub, brokers, bprocs) -> dict:
        roles = {"subscribers": [s.proc.pid for s in subs],
                 "broker": [b.proc.pid for b in bprocs], "ovs-vswitchd": [ovs_pid()]}
        if self.system.startswith("netpubsub"):
            roles["broker"] = [self.controller.proc.pid]  # the control plane, nothing on the path
        flush_megaflows()
        idle0, t_idle = linkstats.snapshot(self.tb.state), time.monotonic()
        time.sleep(IDLE)  # nothing published yet: what the links carry anyway, per second
        idle1 = linkstats.snapshot(self.tb.state)
        idle_rate = (sum(linkstats.link_bytes(self.tb.state, idle0, idle1).values())
                     / (time.monotonic() - t_idle))
        cpu0 = {r: sum(tree_cpu(p) for p in ps) for r, ps in roles.items()}
        links0, t0 = linkstats.snapshot(self.tb.state), time.monotonic()
        dp0 = datapath()
        hosts = {h: s.proc.pid for (h, _), s in zip(spec, subs)}
        kernel0 = {**drops.switch_ports(), **drops.host_udp(hosts)}
        if isinstance(pub, JavaPub) and not pub.prestarted:  # the before's JVM starts now: its
            # CPU counts from its first event
            pub.command("go")
            poll(lambda: pub.started() or not alive(pub, "nps pub"), 120, "nps pub advertised")
            roles["publisher"] = [pub.proc.pid]
            cpu0["publisher"] = tree_cpu(pub.proc.pid)
        else:
            roles["publisher"] = [pub.proc.pid]
            cpu0["publisher"] = tree_cpu(pub.proc.pid)
            pub.command("go")
        # the warm-up's end by the publisher's pace: the upcalls after it are the measured part's
        time.sleep(max(0.0, self.load["warmup"] / self.load["rate"]))
        dp_warm = datapath()
        mf_warm = megaflows.snapshot(self.dump_path("warm"))
        n = self.load["events"]
        summary = pub.wait_for(lambda o: o.get("kind") == "published",
                               60 + 5 * n / self.load["rate"], f"{self.system} publisher")
        want = [len(t) for t in self.truth]

        try:  # until every subscriber has its events, or nothing has arrived for 3 s
            seen = {"t": time.monotonic(), "n": -1}

            def settled() -> bool:
                now = sum(s.counts()[0] for s in subs)
                if now != seen["n"]:
                    seen.update(t=time.monotonic(), n=now)
                return (all(s.counts()[1] >= w for s, w in zip(subs, want))
                        or time.monotonic() - seen["t"] > 3)

            poll(settled, 120, f"{self.system} deliveries", interval=0.25)
        except SessionError:
            pass
        cpu1 = {r: sum(tree_cpu(p) for p in ps) for r, ps in roles.items()}
        links1, window = linkstats.snapshot(self.tb.state), time.monotonic() - t0
        dp1 = datapath()
        mf_end = megaflows.snapshot(self.dump_path("end"))
        hosts[PUBLISHER] = pub.proc.pid
        kernel = drops.delta(kernel0, {**drops.switch_ports(), **drops.host_udp(hosts)})
        died = [f"broker on {h}" for h, b in zip(brokers, bprocs) if b.proc.poll() is not None]
        died += [f"subscriber {i} on {h}" for i, ((h, _), s) in enumerate(zip(spec, subs))
                 if s.proc.poll() is not None]
        if pub.proc.poll() not in (None, 0):  # `nps pub` exits 0 once it has published all
            died.append(f"publisher on {PUBLISHER} (exit {pub.proc.returncode})")
        results = []
        for s in subs:
            s.terminate()
            results.append(s.result())
        names = [f"subscriber {i} on {h} ({t!r})" for i, (h, t) in enumerate(spec)]
        got = [None if r is None else r["sequences"] for r in results]
        v = pv.verdict(self.system, self.truth, got, names, died)
        links = linkstats.link_bytes(self.tb.state, links0, links1)
        packets = linkstats.link_bytes(self.tb.state, links0, links1, packets=True)
        ok = [r for r in results if r is not None]
        n_delivered = sum(r["delivered"] for r in ok)
        cpu = {r: cpu1[r] - cpu0[r] for r in roles}
        row = {"system": self.system, **v, "load": self.load, "brokers": brokers,
               "prefix_tracking": self.prefixes,
               "publish_rate": summary.get("rate"), "delivered": n_delivered,
               "expected": sum(want), "received": sum(r["received"] for r in ok),
               "dropped_by_filter": sum(r["false_positives"] for r in ok),
               "malformed": sum(r["malformed"] for r in ok),
               "latency_us": pv.merged_latency([r["histogram"] for r in ok]),
               "total_bytes": sum(links.values()), "total_packets": sum(packets.values()),
               "links": links, "datapath": {k: dp1[k] - dp0[k] for k in dp0},
               "datapath_measured": {k: dp1[k] - dp_warm[k] for k in dp0},
               "megaflows_measured": megaflows.compare(mf_warm[0], mf_end[0], mf_warm[1],
                                                       mf_end[1]),
               "kernel_drops": kernel, "window_s": window,
               "max_by_tenth_us": [max(t) for t in zip(*[r["max_by_tenth"] for r in ok
                                                          if r.get("max_by_tenth")])],
               "background_bytes": round(idle_rate * window),
               "close_seconds": summary.get("close_seconds"),
               "cpu_s": cpu, "cpu_s_per_1000": pv.per_thousand(cpu, n_delivered),
               "loadavg": open("/proc/loadavg").read().split()[:3]}
        if not v["reported"]:
            log(pv.refusal_text(v))
        if kernel:  # where datagrams died: a switch port's input queue, a host's socket
            log(f"  kernel drops: {kernel}")
        return row


# ---- the experiment --------------------------------------------------------------------------

def parse_load(text: str, seconds: float, warmup: float) -> dict:
    """A load; its first `warmup` seconds of events (published before the measured ones, the
    same for every system) are delivered and checked but left out of the latency histograms."""
    try:
        subs, rate, payload = (int(x) for x in text.split("x"))
    except ValueError:
        raise SystemExit(f"--loads: {text!r} is not SUBSxRATExPAYLOAD (e.g. 8x1000x16)") from None
    first = int(rate * warmup)
    return {"subscribers": subs, "rate": rate, "payload": payload, "warmup": first,
            "events": first + max(1000, int(rate * seconds))}


def versions() -> dict:
    def first(cmd):
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
            return (r.stdout or r.stderr).strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "?"
    import importlib.metadata as md
    return {"ovs": first(["ovs-vswitchd", "--version"]), "mosquitto": first(["mosquitto", "-h"]),
            "nats-server": first(["nats-server", "--version"]),
            "eclipse-zenoh": md.version("eclipse-zenoh"), "nats-py": md.version("nats-py"),
            "paho-mqtt": md.version("paho-mqtt"), "python": platform.python_version(),
            "machine": f"{platform.node()}: {os.cpu_count()} cores, Linux {platform.release()}"}


def session(args, out: dict, loads: list[dict], systems: list[str], schema: str, work: str,
            all_events: list[dict], truth_by_filter: dict) -> None:
    """One controller (on `schema`) and test bed: every load, repeat and system in turn."""
    controller = Controller(schema, "--max-requests-per-second", "100000", "--burst", "100000",
                            log_path=os.path.join(work, "controller.log"))
    tb = None
    try:
        tb = Testbed(args.topo, controller)
        wait_for_network(controller, tb, links=sum(
            1 for x in tb.state["links"] if x["kind"] == "switch"))
        ctx = {"tb": tb, "controller": controller, "schema": QUOTES, "work": work,
               "before_jar": args.before_jar}
        for li, load in enumerate(loads):
            events_file = os.path.join(work, f"quotes-{load['events']}.jsonl")
            with open(events_file, "w") as f:
                f.writelines(json.dumps(e) + "\n" for e in all_events[:load["events"]])
            spec = placement(tb.state, load["subscribers"])
            truth = [{i for i in truth_by_filter[t] if i < load["events"]} for _, t in spec]
            for rep in range(args.repeat):
                ctx["rep"] = rep
                # who goes first rotates between repeats
                order = systems[rep % len(systems):] + systems[:rep % len(systems)]
                for system in order:
                    log(f"load {li + 1}/{len(loads)} ({load['subscribers']} subs, "
                        f"{load['rate']}/s, {load['payload']} B), repeat {rep + 1}/"
                        f"{args.repeat}: {system}")
                    try:
                        row = Run(ctx, system, load, events_file, truth).go()
                    except SessionError as e:
                        row = {"system": system, "load": load, "reported": False,
                               "reasons": [f"did not run: {e}"[:500]]}
                        log(pv.refusal_text(row))
                    row["repeat"] = rep
                    row["topology"] = args.topo
                    out["runs"].append(row)
                    with open(os.path.join(work, "partial.json"), "w") as f:  # if stopped early
                        json.dump(out, f)
                    if row["reported"]:
                        lat = row["latency_us"]
                        log(f"  {system}: {row['delivered']}/{row['expected']} delivered, "
                            f"p50/p99/p99.9 {lat['p50']}/{lat['p99']}/{lat['p99.9']} µs, "
                            f"{row['total_bytes']:,} B on links, publisher "
                            f"{row['publish_rate']:.0f}/s")
    finally:
        if tb is not None:
            tb.down()
        controller.terminate()


def experiment(args) -> dict:
    loads = [parse_load(x, args.seconds, args.warmup) for x in (SWEEP if args.sweep else args.loads)]
    work = tempfile.mkdtemp(prefix="nps-peers-")
    n_max = max(x["events"] for x in loads)
    all_events = quotes(n_max, 11)
    full = os.path.join(work, "quotes.jsonl")
    with open(full, "w") as f:
        f.writelines(json.dumps(e) + "\n" for e in all_events)
    filters = [t for _, t in SUBSCRIPTIONS]
    truth_by_filter = dict(zip(filters, ground_truth(QUOTES, full, filters)))
    out = {"versions": versions(), "topology": args.topo, "command": " ".join(sys.argv),
           "auth": auth_module.enabled(),
           "loadavg_before": open("/proc/loadavg").read().split()[:3], "runs": []}
    # one controller and test bed for every system, netpubsub's Java and Python clients
    # interleaved with the peers (the Python client addresses learned layouts since session 33)
    schema = QUOTES
    if any(s.startswith("netpubsub") for s in args.systems):  # as `make demo`: `nps index design` on another sample
        design = learn_layout(work, full, n_max, 11)
        schema = os.path.join(work, "quotes-learned.yaml")
        with open(schema, "w") as f:
            f.write(design["schema_yaml"])
        out["index_layout"] = design["layout"]
        log(f"learned index layout: {' '.join(design['layout']['segments'])}")
    session(args, out, loads, args.systems, schema, work, all_events, truth_by_filter)
    out["loadavg_after"] = open("/proc/loadavg").read().split()[:3]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--topo", default="pleroma")
    ap.add_argument("--systems", type=lambda s: s.split(","), default=SYSTEMS)
    ap.add_argument("--loads", type=lambda s: s.split(","), default=["8x1000x16"],
                    help="SUBSCRIBERSxRATExPAYLOAD_BYTES, comma-separated")
    ap.add_argument("--sweep", action="store_true", help=f"the loads {' '.join(SWEEP)}")
    ap.add_argument("--seconds", type=float, default=3.0, help="measured publishing time per run")
    # 2 s since session 36 (0.5 before): the megaflow cache holds one entry per content address
    # per last-hop rewrite, so a short warm-up leaves many first packets in the measured part
    ap.add_argument("--warmup", type=float, default=2.0,
                    help="seconds of events published first in every run, not in the latencies")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--out", default="peers", help="docs/results/OUT.{json,md,png}")
    ap.add_argument("--append", action="store_true",
                    help="add these runs to docs/results/OUT.json instead of replacing it")
    ap.add_argument("--replot", action="store_true", help="redraw from the committed JSON")
    ap.add_argument("--before-jar", help=f"the CLI jar of netpubsub{BEFORE} (another build)")
    args = ap.parse_args()
    for s in args.systems:
        if "before" in variant(s)[1] and not args.before_jar:
            raise SystemExit(f"--systems: {s!r}: {BEFORE} needs --before-jar")
    if args.replot:
        redraw(args.out, plot, markdown)
        return 0
    if any("before" in variant(s)[1] for s in args.systems) and auth_module.enabled():
        # a build before the test bed's tokens (fd83d15) is refused with 401: the session runs
        # without them for every system (the peers have none either)
        log("netpubsub/before: the test bed's token authentication off (NPS_TESTBED_AUTH=0)")
        os.environ["NPS_TESTBED_AUTH"] = "0"
    build()
    r = experiment(args)
    if args.append:  # another invocation's loads, kept: one report of several runs
        with open(os.path.join(ROOT, "docs", "results", args.out + ".json")) as f:
            old = json.load(f)
        r["runs"] = old["runs"] + r["runs"]
        r["command"] = old["command"] + " ; " + r["command"]
        r["loadavg_before"] = old["loadavg_before"]
    write(args.out, r, plot, markdown)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SessionError as e:
        log(f"peers failed: {e}")
        sys.exit(1)
