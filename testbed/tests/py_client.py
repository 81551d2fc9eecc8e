"""The Python client (clients/python) in a test-bed host, for test_python_client_ovs.py.

    py_client.py sub URL HOST FILTER        JSON lines: subscribed, then one per delivery;
                                            on SIGTERM it unsubscribes and prints its stats
    py_client.py pub URL HOST ADVERTISE FILE RATE
                                            publishes the file's {"attributes": …} lines,
                                            event i at start + i/RATE; prints advertised, published
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "clients", "python"))

from netpubsub import Publisher, Subscriber  # noqa: E402


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def sub(url: str, host: str, filter_text: str) -> None:
    s = Subscriber(url, filter_text, host=host)
    signal.signal(signal.SIGTERM, lambda *_: s.stop())
    emit(kind="subscribed", id=s.subscription.id, port=s.port)
    for d in s:
        emit(kind="delivery", attributes=d.event.attrs, sequence=d.event.sequence,
             publisher=d.event.publisher)
    s.close()  # the loop ended on SIGTERM: withdraw the subscription
    emit(kind="stats", **s.stats.as_dict())


def pub(url: str, host: str, advertise: str, path: str, rate: float) -> None:
    with open(path) as f:
        events = [json.loads(line)["attributes"] for line in f if line.strip()]
    with Publisher(url, host=host) as p:
        p.advertise(advertise)
        emit(kind="advertised", id=p.advertisement.id)
        start = time.monotonic()
        for i, attrs in enumerate(events):
            due = start + i / rate
            while time.monotonic() < due:
                time.sleep(max(0.0, due - time.monotonic()))
            p.publish(attrs)
    emit(kind="published", events=len(events))


if __name__ == "__main__":
    if sys.argv[1] == "sub":
        sub(*sys.argv[2:5])
    else:
        pub(*sys.argv[2:6], float(sys.argv[6]))
