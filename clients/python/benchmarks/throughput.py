"""Publish and receive throughput of the Python client on one core (thread CPU time, so that
other work on the machine does not count; process CPU time and wall time are printed too),
against the Java client's in the same run (nps-cli's ClientOracle ``bench``: the same steps as Java's Publisher.publish and
Subscriber's receive path, on the same events). Run: scripts/bench-python. Prints one JSON line.

- publish: ``Publisher.publish(attrs)`` unbuffered (``batch=False`` since stop 33): stamp,
  check the advertisement, encode, one UDP datagram to a loopback port nobody reads
  (``destination`` override, as ``nps pub --to``: no content address);
  publish_buffered (stop 33): the same ``publish`` calls on a buffered publisher (the default:
  sendmmsg batches of 64), its last ``flush()`` included; publish_many: the same events in one
  ``publish_many`` call;
- publish_addressed, publish_addressed_buffered, publish_many_addressed: the same with the content
  address computed and formatted for sendto (or packed as a sockaddr for sendmmsg), as Java's
  bench does; the datagram still goes to the loopback port (no multicast route there): the
  destination the publisher computed and cached for an address is replaced by the sink's;
- decode: ``Subscriber.handle``: decode, exact filter, the Delivery.

The events are the same 1000 random ones, cycled, for every client and for Java; the publisher's
cache of formatted destinations (by content address, at most 65 536) is warm after the first
round, as in any run, and no client caches anything by attribute values.
"""

from __future__ import annotations

import inspect
import json
import os
import random
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

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
COUNT = int(os.environ.get("NPS_BENCH_EVENTS", "200000"))


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
    no multicast route). Its sendto parses the address as a real one would."""

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
        real, sink_name = pub._sockaddr, sockaddr(1, sink[1])  # ::1

        def to_sink(address):
            real(address)
            pub._sockaddrs[address] = sink_name
            return sink_name
        pub._sockaddr = to_sink


def _timed(rates: dict, key: str, run):
    """run() twice (the second is reported): events per second of this thread's CPU time (the
    key itself), of the process's CPU time and of wall time."""
    for _ in range(2):
        wall, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
        run()
        rates[key] = COUNT / (time.thread_time() - cpu)
        rates[key.replace("_per_s", "_process_per_s")] = COUNT / (time.process_time() - process)
        rates[key.replace("_per_s", "_wall_per_s")] = COUNT / (time.perf_counter() - wall)


def _each(call, items):
    """call(item) for every item, results dropped (as an application's publish loop)."""
    def run():
        for item in items:
            call(item)
    return run


def python_rates(sample: list[list]) -> dict:
    config = PubSubConfig(SCHEMA, 34)
    sink = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    sink.bind(("::1", 0))
    names = [a.name for a in SCHEMA.attributes]
    attrs = [dict(zip(names, v)) for v in sample]
    batch = [attrs[i % len(attrs)] for i in range(COUNT)]
    rates = {}
    to = ("::1", sink.getsockname()[1])
    unbuffered, buffered = _buffering({"batch": False}), _buffering({"batch": 64})
    for suffix, addressed in (("", False), ("_addressed", True)):
        # publish: to a fixed destination (as nps pub --to), no content address;
        # publish_addressed: with the content address, as Java's bench does.
        def publisher(options):
            pub = Publisher(_Offline("http://[::1]:1"), host="::1", config=config, linger=0,
                            destination=None if addressed else to, **(options or {}))
            if addressed:
                _addressed(pub, to)
            pub.advertise(ADVERTISE)
            return pub

        pub = publisher(unbuffered)
        _timed(rates, f"publish{suffix}_per_s", _each(pub.publish, batch))
        if hasattr(pub, "publish_many"):  # since stop 32
            _timed(rates, f"publish_many{suffix}_per_s", lambda: pub.publish_many(batch))
        pub.close()
        if buffered is not None:
            pub = publisher(buffered)
            each = _each(pub.publish, batch)

            def run():
                each()
                pub.flush()
            _timed(rates, f"publish{suffix}_buffered_per_s", run)
            pub.close()
    sink.close()
    path = ReceivePath(SCHEMA, Filter(SCHEMA, FILTER))  # a Subscriber's, without its socket
    encoded = [pub.codec.encode(Event(SCHEMA, v, b"", 7, i, time.time_ns()))
               for i, v in enumerate(sample)]
    datagrams = [encoded[i % len(encoded)] for i in range(COUNT)]
    now = time.time_ns()
    _timed(rates, "decode_per_s", _each(lambda d: path.handle(d, now), datagrams))
    return rates


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main():
    """``--python-only``: no Java side (scripts/bench-python's old/new alternation)."""
    sample = events(1000)
    before = load()
    python = python_rates(sample)
    out = {"events": COUNT, "load_before": before, "load_after": load(),
           "python": {k: round(v) for k, v in python.items()}}
    if "--python-only" not in sys.argv[1:]:
        java = oracle.ask([{"op": "bench", "schema": schema_yaml(SCHEMA), "events": sample,
                            "count": COUNT, "length": 34, "advertise": ADVERTISE,
                            "filter": FILTER}])[0]
        out["java"] = {k: round(java[k]) for k in ("publish_per_s", "decode_per_s")}
        out["ratio_python_to_java"] = {
            k: round(python[k] / java[k.split("_")[0] + "_per_s"], 3)
            for k in sorted(python) if "_process_" not in k and "_wall_" not in k}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
