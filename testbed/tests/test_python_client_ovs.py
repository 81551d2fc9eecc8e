"""The Python client (clients/python) against the Java one through real Open vSwitch (root;
issue: a Python client): on a tree of four switches, a Python publisher and Java subscribers
(`nps sub`), then a Java publisher (`nps pub`) and Python subscribers. Every subscriber must
receive exactly the events that direct evaluation (`nps filter match`) says match its filter,
each once: the two clients agree on the codec and on the content addresses the switches
forward by. Last, the example of docs/clients.md runs as it is written there."""

from __future__ import annotations

import json
import os
import random
import re
import sys
import tempfile

import pytest

from live import needs_root
from pubsub import auth
from pubsub.session import (TESTBED, Controller, JsonLines, SubscriberProcess, Testbed, build,
                            ground_truth_soon, poll, publish, stop_all,
                            wait_for_network)

SEED = int(os.environ.get("NPS_TEST_SEED", "20261127"))
CLIENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "py_client.py")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = os.path.join(ROOT, "examples", "schemas", "quotes.yaml")  # the docs' example's schema
EVENTS = 200


def random_filter(r: random.Random) -> str:
    atoms = [lambda: f"price {r.choice(['<', '>='])} {r.randint(0, 100000)}",
             lambda: f"volume in [{(lo := r.randint(0, 600000))}, {lo + r.randint(0, 400000)}]",
             lambda: f'symbol prefix "{r.choice("AB")}"',
             lambda: f'exchange == "{r.choice(["XNYS", "XNAS"])}"']
    text = " && ".join(r.choice(atoms)() for _ in range(r.randint(1, 2)))
    return text if r.random() < 0.7 else f"({text}) || {r.choice(atoms)()}"


def random_events(r: random.Random) -> list[dict]:
    return [{"kind": "event", "attributes": {"symbol": r.choice(["AA", "AB", "BA", "B", ""]),
                                             "price": r.randint(0, 100000),
                                             "volume": r.randint(0, 1000000),
                                             "exchange": r.choice(["XNYS", "XNAS", ""])}}
            for _ in range(EVENTS)]


@pytest.fixture(scope="module")
def session():
    work = tempfile.mkdtemp(prefix="nps-python-client-")
    path = SCHEMA
    build()
    controller = Controller(path, log_path=os.path.join(work, "controller.log"))
    testbed = None
    try:
        testbed = Testbed("tree:2,3", controller)
        wait_for_network(controller, testbed, links=3)
        yield {"controller": controller, "testbed": testbed, "schema_path": path, "work": work,
               "random": random.Random(SEED)}
    finally:
        if testbed is not None:
            testbed.down()
        controller.terminate()


class PythonClient(JsonLines):
    """py_client.py in a host's namespace, with the test's own interpreter."""

    def __init__(self, tb: Testbed, host: str, *args: str):
        self.host = host
        address = tb.host(host)["address"]
        super().__init__([TESTBED, "exec", host, "--", sys.executable, CLIENT, args[0],
                          tb.api_for_hosts, address, *args[1:]],
                         env=auth.client_env(dict(os.environ), address))  # its token: NPS_TOKEN


def write_events(session, name: str) -> tuple[str, list[dict]]:
    events = random_events(session["random"])
    path = os.path.join(session["work"], name)
    with open(path, "w") as f:
        f.writelines(json.dumps(e) + "\n" for e in events)
    return path, events


def check_exact(name: str, filter_text: str, deliveries: list[dict], events: list[dict],
                want: set[int]) -> None:
    """Deliveries are identified by sequence (1, 2, … per publisher) and checked against the
    published attributes, so a corrupted event cannot pass as another."""
    got = []
    for d in deliveries:
        i = d["sequence"] - 1
        assert 0 <= i < len(events) and d["attributes"] == events[i]["attributes"], d
        got.append(i)
    assert len(got) == len(set(got)), f"{name}: duplicates"
    assert set(got) == want, (f"{name} {filter_text!r}: missing {sorted(want - set(got))[:5]}, "
                              f"extra {sorted(set(got) - want)[:5]}")


@needs_root
def test_python_publisher_java_subscribers(session):
    r, tb = session["random"], session["testbed"]
    hosts = [h["name"] for h in tb.hosts]
    filters = [random_filter(r) for _ in range(4)]
    subs = [SubscriberProcess(tb, hosts[3 + i], filters[i]) for i in range(4)]
    try:
        for s in subs:
            s.wait_subscribed()
        path, events = write_events(session, "python-published.jsonl")
        truths = ground_truth_soon(session["schema_path"], path, filters)
        pub = PythonClient(tb, hosts[0], "pub", "true", path, "200")
        pub.wait_for(lambda o: o.get("kind") == "published", 120, "the Python publisher")
        assert pub.proc.wait(timeout=60) == 0, pub.error_text()
        truths = truths.result()
        for s, f, want in zip(subs, filters, truths):
            poll(lambda: len(s.deliveries()) >= len(want), 20, f"deliveries at {s.host}")
            check_exact(s.host, f, s.deliveries(), events, want)
        assert sum(len(w) for w in truths) > 0
    finally:
        stop_all(subs)


@needs_root
def test_java_publisher_python_subscribers(session):
    r, tb = session["random"], session["testbed"]
    hosts = [h["name"] for h in tb.hosts]
    filters = [random_filter(r) for _ in range(4)]
    subs = [PythonClient(tb, hosts[5 + i], "sub", filters[i]) for i in range(4)]
    try:
        for s in subs:
            s.wait_for(lambda o: o.get("kind") == "subscribed", 60, f"Python subscriber {s.host}")
        path, events = write_events(session, "java-published.jsonl")
        truths = ground_truth_soon(session["schema_path"], path, filters)
        publish(tb, hosts[1], path, rate=200)
        truths = truths.result()
        for s, f, want in zip(subs, filters, truths):
            deliveries = lambda: [o for o in s.all if o.get("kind") == "delivery"]  # noqa: E731
            poll(lambda: len(deliveries()) >= len(want), 20, f"deliveries at {s.host}")
            check_exact(s.host, f, deliveries(), events, want)
        assert sum(len(w) for w in truths) > 0
    finally:
        stats = []
        stop_all(subs)
        for s in subs:
            stats += [o for o in s.all if o.get("kind") == "stats"]
    assert len(stats) == 4 and all(st["malformed"] == 0 for st in stats), stats
    assert all(st["delivered"] == len(w) for st, w in zip(stats, truths)), stats


@needs_root
def test_the_docs_example_works_as_written(session):
    tb, c = session["testbed"], session["controller"]
    with open(os.path.join(ROOT, "docs", "clients.md")) as f:
        docs = f.read()
    code = re.search(r"## Python\n.*?```python\n(.*?)```", docs, re.S).group(1)
    assert len(code.strip().splitlines()) <= 10
    path = os.path.join(session["work"], "example.py")
    with open(path, "w") as f:
        f.write(code.replace("http://[fd6e:7073:ffff::c0]:8080", tb.api_for_hosts))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "clients", "python"))
    hosts = [h["name"] for h in tb.hosts]
    address = tb.host(hosts[2])["address"]
    sub = JsonLines([TESTBED, "exec", hosts[2], "--", sys.executable, path, "sub"],
                    env=auth.client_env(env, address))
    try:

        def subscribed() -> bool:
            assert sub.proc.poll() is None, f"the example's subscriber ended: {sub.error_text()}"
            return any(s["host"] == address for s in c.get("/v1/subscriptions")["subscriptions"])

        poll(subscribed, 60, "the example's subscription")
        token = auth.client_env({}, tb.host(hosts[0])["address"])  # NPS_TOKEN, with auth on
        pub = tb.exec(hosts[0], "env", f"PYTHONPATH={env['PYTHONPATH']}",
                      *(f"{k}={v}" for k, v in token.items()), sys.executable, path, "pub")
        assert pub.returncode == 0, pub.stderr
        line = sub.wait_for(lambda o: o.get("kind") == "text", 20, "the example's delivery")
        assert line["text"].startswith("{'symbol': 'ACME', 'price': 600, 'volume': 7, "
                                       "'exchange': 'XNYS'} b'hi' "), line
    finally:
        sub.terminate()
