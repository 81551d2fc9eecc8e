"""Publish and receive throughput of the Python client on one core (thread CPU time, so that
other work on the machine does not count), against the Java client's in
the same run (nps-cli's ClientOracle ``bench``: the same steps as Java's Publisher.publish and
Subscriber's receive path, on the same events). Run: scripts/bench-python. Prints one JSON line.

- publish: ``Publisher.publish(attrs)``: stamp, check the advertisement, content address,
  encode, one UDP datagram to a loopback port nobody reads (``destination`` override, as
  ``nps pub --to``; content addresses need switches);
- decode: ``Subscriber.handle``: decode, exact filter, the Delivery.
"""

from __future__ import annotations

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


def python_rates(sample: list[list]) -> dict:
    config = PubSubConfig(SCHEMA, 34)
    sink = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    sink.bind(("::1", 0))
    pub = Publisher(_Offline("http://[::1]:1"), host="::1", config=config,
                    destination=("::1", sink.getsockname()[1]), linger=0)
    pub.advertise(ADVERTISE)
    names = [a.name for a in SCHEMA.attributes]
    attrs = [dict(zip(names, v)) for v in sample]
    rates = {}
    for _ in range(2):  # the second round is reported
        start = time.thread_time()
        for i in range(COUNT):
            pub.publish(attrs[i % len(attrs)])
        rates["publish_per_s"] = COUNT / (time.thread_time() - start)
    pub.close()
    sink.close()
    path = ReceivePath(SCHEMA, Filter(SCHEMA, FILTER))  # a Subscriber's, without its socket
    encoded = [pub.codec.encode(Event(SCHEMA, v, b"", 7, i, time.time_ns()))
               for i, v in enumerate(sample)]
    for _ in range(2):
        start = time.thread_time()
        handle, now = path.handle, time.time_ns()
        for i in range(COUNT):
            handle(encoded[i % len(encoded)], now)
        rates["decode_per_s"] = COUNT / (time.thread_time() - start)
    return rates


def main():
    sample = events(1000)
    python = python_rates(sample)
    java = oracle.ask([{"op": "bench", "schema": schema_yaml(SCHEMA), "events": sample,
                        "count": COUNT, "length": 34, "advertise": ADVERTISE, "filter": FILTER}])[0]
    out = {"events": COUNT, "python": {k: round(v) for k, v in python.items()},
           "java": {k: round(java[k]) for k in ("publish_per_s", "decode_per_s")}}
    out["ratio_python_to_java"] = {k: round(python[k] / java[k], 3) for k in python}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
