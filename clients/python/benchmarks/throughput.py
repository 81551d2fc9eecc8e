"""Publish and receive throughput of the Python client on one core (thread CPU time, so that
other work on the machine does not count; process CPU time and wall time are printed too),
against the Java client's (nps-cli's ClientOracle ``bench``: the same steps as Java's
Publisher.publish and Subscriber's receive path, on the same events). Run: scripts/bench-python.
Prints one JSON line.

- publish: ``Publisher.publish(attrs)`` unbuffered (``batch=False`` since stop 33): stamp,
  check the advertisement, encode, one UDP datagram to a fixed destination (``destination``
  override, as ``nps pub --to``: no content address);
  publish_buffered (stop 33): the same ``publish`` calls on a buffered publisher (the default:
  sendmmsg batches of 64), its last ``flush()`` included; publish_many: the same events in one
  ``publish_many`` call;
- publish_addressed, publish_addressed_buffered, publish_many_addressed: the same with the content
  address computed and formatted for sendto (or packed as a sockaddr for sendmmsg), as Java's
  bench does; the datagram still goes to the fixed destination, as Java's does: the destination
  the publisher computed and cached for an address is replaced by the sink's (see _ToSink);
- publish_buffered_256: the buffered fixed case with batches of 256 instead of 64;
- decode: ``Subscriber.handle``: decode, exact filter, the Delivery;
- reference: a fixed pure-Python loop, no client code: the machine's speed at that moment.

``--net`` says where the datagrams go (netns.py):
- ``loopback``: to a bound loopback socket nobody reads; the sending system call also runs the
  receiving side (the softirq's IP and UDP input, the socket's drop when its buffer is full), so
  a publisher is charged for a receiver's work as well.
- ``dummy``: in a network namespace of its own whose only device beside lo drops every datagram
  it transmits, as a NIC's driver takes it (fd00::2 behind it): the kernel's cost is the
  transmit path alone, as a publisher's on a real network.

Every case runs ``--repeats`` times after one warm-up run, the cases interleaved (each repeat
runs every case once, starting at a different case each time), and the median per case is
reported with its spread: one process's figures then do not hang on one moment of the machine.
Beside each case, ``softirq_elsewhere``: the CPU time ksoftirqd of this CPU spent during the
case, as a share of the case's thread CPU time (packet work the thread did not pay for).

The events are the same 1000 random ones, cycled, for every client and for Java; the publisher's
cache of formatted destinations (by content address, at most 65 536) is warm after the first
round, as in any run, and no client caches anything by attribute values.
"""

from __future__ import annotations

import argparse
import inspect
import ipaddress
import json
import os
import random
import socket
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import netns  # noqa: E402
import oracle  # noqa: E402
from randoms import schema_yaml  # noqa: E402

from netpubsub import (ControllerClient, Event, Filter, PubSubConfig, Publisher,  # noqa: E402
                       Registration, Schema)
from netpubsub.subscriber import ReceivePath  # noqa: E402

SCHEMA = Schema.of("quotes", [("symbol", "string", 8), ("price", "int", 0, 100000),
                              ("volume", "int", 0, 1000000), ("exchange", "string", 4)],
                   ["price", "volume"])
ADVERTISE = "price >= 0"
FILTER = 'price > 50000 && symbol prefix "A"'
COUNT = int(os.environ.get("NPS_BENCH_EVENTS", "100000"))


class _Offline(ControllerClient):
    """No controller: the advertisement is accepted locally (only the data path is measured)."""

    def advertise(self, host, filter):
        return Registration("a-1", host, filter, -1, 1, 0, 0, 0.0)

    def unadvertise(self, id):
        return None


def events(n: int) -> list[list]:
    r = random.Random(1)
    return [[r.choice(["ACME", "AB", "GOOGL", "XYZ"]), r.randint(0, 100000),
             r.randint(0, 1000000), r.choice(["XNYS", "XNAS"])] for _ in range(n)]


class _ToSink:
    """The socket of a publisher without ``destination``: content addresses are computed (and
    formatted for sendto) as on a network, the datagram goes to the sink instead (loopback has
    no multicast route, and Java's bench sends there too). Its sendto parses the address as a
    real one would."""

    def __init__(self, real, sink):
        self.real, self.sink = real, sink

    def sendto(self, data, to):
        return self.real.sendto(data, self.sink)

    def close(self):
        self.real.close()


def _buffering(options: dict) -> dict | None:
    """``options`` if this client's Publisher takes them (stop 33 on), else None."""
    return options if "batch" in inspect.signature(Publisher).parameters else None


def _addressed(pub, sink):
    """Content addresses computed as on a network, datagrams to the sink (see _ToSink). A
    batching publisher's packed destinations are cached per address: the sink's replaces each,
    after the real one was computed."""
    pub._socket = _ToSink(pub._socket, sink)
    pub._sendto = pub._socket.sendto  # where the socket's bound method is kept (stop 32)
    if hasattr(pub, "_sockaddr"):  # stop 33: sendmmsg batches, sockaddrs cached per address
        from netpubsub.datagrams import sockaddr
        real, sink_name = pub._sockaddr, sockaddr(int(ipaddress.IPv6Address(sink[0])), sink[1])

        def to_sink(address):
            real(address)
            pub._sockaddrs[address] = sink_name
            return sink_name
        pub._sockaddr = to_sink


def _each(call, items):
    """call(item) for every item, results dropped (as an application's publish loop)."""
    def run():
        for item in items:
            call(item)
    return run


def _cases(net: str, sample: list[list], publishers: list) -> list[tuple[str, object]]:
    """(key, run) per case; the publishers made are appended to ``publishers`` (closed later)."""
    config = PubSubConfig(SCHEMA, 34)
    names = [a.name for a in SCHEMA.attributes]
    attrs = [dict(zip(names, v)) for v in sample]
    batch = [attrs[i % len(attrs)] for i in range(COUNT)]
    if net == "loopback":
        sink = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        sink.bind(("::1", 0))
        publishers.append(sink)
        host, to = "::1", ("::1", sink.getsockname()[1])
    else:
        host, to = netns.HOST, netns.SINK
    cases = []
    unbuffered, buffered = _buffering({"batch": False}), _buffering({"batch": 64})
    for suffix, addressed in (("", False), ("_addressed", True)):
        def publisher(options):
            pub = Publisher(_Offline("http://[::1]:1"), host=host, config=config, linger=0,
                            destination=None if addressed else to, **(options or {}))
            if addressed:
                _addressed(pub, to)
            pub.advertise(ADVERTISE)
            publishers.append(pub)
            return pub

        pub = publisher(unbuffered)
        cases.append((f"publish{suffix}_per_s", _each(pub.publish, batch)))
        if hasattr(pub, "publish_many"):  # since stop 32
            cases.append((f"publish_many{suffix}_per_s",
                          lambda pub=pub: pub.publish_many(batch)))
        if buffered is not None:
            buffered_pub = publisher(buffered)

            def run(each=_each(buffered_pub.publish, batch), pub=buffered_pub):
                each()
                pub.flush()
            cases.append((f"publish{suffix}_buffered_per_s", run))
        if buffered is not None and not addressed:
            # Would a larger default batch pay (fewer sendmmsg calls and flusher wake-ups)?
            large = publisher({"batch": 256})

            def run(each=_each(large.publish, batch), pub=large):
                each()
                pub.flush()
            cases.append(("publish_buffered_256_per_s", run))
    path = ReceivePath(SCHEMA, Filter(SCHEMA, FILTER))  # a Subscriber's, without its socket
    codec = publishers[-1].codec
    encoded = [codec.encode(Event(SCHEMA, v, b"", 7, i, time.time_ns()))
               for i, v in enumerate(sample)]
    datagrams = [encoded[i % len(encoded)] for i in range(COUNT)]
    now = time.time_ns()
    cases.append(("decode_per_s", _each(lambda d: path.handle(d, now), datagrams)))
    cases.append(("reference_per_s", _reference))
    return cases


def _reference():
    """The same pure-Python work in every process and client (COUNT small dict and arithmetic
    steps): how fast this CPU ran the interpreter at that moment, to tell a slower machine from
    a slower client."""
    d = {}
    for i in range(COUNT):
        d[i & 1023] = (i * 7 + 3) % 1000



def _ksoftirqd_ticks() -> int | None:
    """utime + stime of the ksoftirqd of the one CPU this process is pinned to, else None."""
    cpus = os.sched_getaffinity(0)
    if len(cpus) != 1:
        return None
    name = f"(ksoftirqd/{next(iter(cpus))})"
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().split()
        except (OSError, ValueError):
            continue
        if len(fields) > 15 and fields[1] == name:
            return int(fields[13]) + int(fields[14])
    return None


def python_rates(net: str, sample: list[list], repeats: int) -> dict:
    publishers = []
    cases = _cases(net, sample, publishers)
    seen: dict[str, list[tuple[float, float, float]]] = {key: [] for key, _ in cases}
    elsewhere: dict[str, list[float]] = {key: [] for key, _ in cases}
    tick = os.sysconf("SC_CLK_TCK")
    for rep in range(repeats + 1):  # the first is the warm-up
        for key, run in cases[rep % len(cases):] + cases[:rep % len(cases)]:
            soft = _ksoftirqd_ticks()
            wall, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
            run()
            cpu, process = time.thread_time() - cpu, time.process_time() - process
            wall = time.perf_counter() - wall
            if rep:
                seen[key].append((COUNT / cpu, COUNT / process, COUNT / wall))
                if soft is not None:
                    elsewhere[key].append((_ksoftirqd_ticks() - soft) / tick / cpu)
    for pub in publishers:
        pub.close()
    rates = {}
    for key, runs in seen.items():
        thread = [r[0] for r in runs]
        rates[key] = statistics.median(thread)
        rates[key.replace("_per_s", "_spread")] = [round(min(thread)), round(max(thread))]
        rates[key.replace("_per_s", "_process_per_s")] = statistics.median(r[1] for r in runs)
        rates[key.replace("_per_s", "_wall_per_s")] = statistics.median(r[2] for r in runs)
        if elsewhere[key]:
            rates[key.replace("_per_s", "_softirq_elsewhere")] = round(
                statistics.median(elsewhere[key]), 3)
    return rates


def java_rates(net: str, sample: list[list]) -> dict:
    request = {"op": "bench", "schema": schema_yaml(SCHEMA), "events": sample, "count": COUNT,
               "length": 34, "advertise": ADVERTISE, "filter": FILTER}
    if net == "dummy":
        request["sink"] = list(netns.SINK)
    java = oracle.ask([request])[0]
    return {k: round(java[k]) for k in ("publish_per_s", "decode_per_s")}


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    side = ap.add_mutually_exclusive_group()
    side.add_argument("--python-only", action="store_true", help="no Java side")
    side.add_argument("--java-only", action="store_true", help="no Python side")
    ap.add_argument("--net", choices=("loopback", "dummy"), default="loopback")
    ap.add_argument("--repeats", type=int, default=3, help="measured runs per case (median)")
    args = ap.parse_args()
    if args.net == "dummy":
        netns.enter()  # re-executes this process in its namespace (no return the first time)
    sample = events(1000)
    out = {"net": args.net, "events": COUNT, "repeats": args.repeats, "load_before": load()}
    if not args.java_only:
        python = python_rates(args.net, sample, args.repeats)
        out["python"] = {k: v if isinstance(v, list) or "softirq" in k else round(v)
                         for k, v in python.items()}
    if not args.python_only:
        out["java"] = java_rates(args.net, sample)
    if "python" in out and "java" in out:
        out["ratio_python_to_java"] = {
            k: round(out["python"][k] / out["java"][k.split("_")[0] + "_per_s"], 3)
            for k in sorted(out["python"]) if k.endswith("_per_s") and "_process_" not in k
            and "_wall_" not in k and k.split("_")[0] + "_per_s" in out["java"]}
    out["load_after"] = load()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
