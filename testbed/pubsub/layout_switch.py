"""The online layout switch on real OVS (issue 21): standing subscriptions, one publisher at a
steady rate, and in the middle `PUT /v1/pubsub/layout` to another layout. Every subscription is a
bare UDP receiver port (pubsub/receiver.py: it shows exactly what the network delivered); lost =
matching events that never arrived, duplicated = any event that arrived twice at one port.

Used by testbed/tests/test_layout_switch_ovs.py (small) and
testbed/experiments/layout_switch.py (the goal's 1 000 subscriptions at 1 000 events/s)."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import threading
import time

from .session import (TESTBED, Controller, JsonLines, PublisherProcess, Testbed, log, poll,
                      wait_for_network)

HERE = os.path.dirname(os.path.abspath(__file__))
MAX = 65535

SCHEMA = """name: switched
attributes:
  - name: a0
    type: int
    min: 0
    max: 65535
  - name: a1
    type: int
    min: 0
    max: 65535
index: [a0, a1]
"""

# the layout switched to: a0's bits first (a hierarchy), then a1, another dz length
NEW_SCHEMA = SCHEMA.replace("index: [a0, a1]\n", """index: [a0, a1]
layout:
  bits: ["a0:12", "a1:2"]
""")


def datapath_lost() -> int:
    """Packets the kernel datapath dropped on their way to ovs-vswitchd (upcall queue full)."""
    out = subprocess.run(["ovs-appctl", "dpctl/show"], capture_output=True, text=True,
                         timeout=30).stdout
    return sum(int(m) for m in re.findall(r"lost:(\d+)", out))


def receive_drops(testbed: Testbed, hosts: list[str]) -> int:
    """UDP datagrams the hosts' sockets dropped (receive buffer full), summed over the hosts."""
    total = 0
    for h in hosts:
        out = testbed.exec(h, "cat", "/proc/net/snmp6").stdout
        m = re.search(r"Udp6RcvbufErrors\s+(\d+)", out)
        total += int(m.group(1)) if m else 0
    return total


def phase(ms: float, switch: dict, grace_ms: int) -> str:
    """Which part of the switch a moment (ms after the switch call) fell in."""
    if ms < 0:
        return "before"
    if ms < switch["install_ms"]:
        return "install"
    if ms < switch["install_ms"] + grace_ms:
        return "grace"
    return "removal" if ms < switch["total_ms"] else "after"


def lost_events(lost: list[int], sent_ns: dict[int, int], switch_ns: int, moved_after: int | None,
                switch: dict, grace_ms: int) -> list[dict]:
    """Per lost sequence: when it was sent, relative to the switch call (interpolated between the
    nearest sequences that arrived anywhere, as the lost one did not), the switch's phase then, and
    whether the publisher addressed it under the old index or the new one (`moved_after`: the
    events it had published when it took the new index; None: it never did)."""
    known = sorted(sent_ns)
    out = []
    for s in lost:
        lower = max((k for k in known if k < s), default=None)
        upper = min((k for k in known if k > s), default=None)
        if lower is None or upper is None:
            at = sent_ns[lower if upper is None else upper] if known else switch_ns
        else:
            at = sent_ns[lower] + (sent_ns[upper] - sent_ns[lower]) * (s - lower) // (upper - lower)
        ms = (at - switch_ns) / 1e6
        out.append({"sequence": s, "sent_ms_after_switch_call": round(ms, 1),
                    "phase": phase(ms, switch, grace_ms),
                    "index": "new" if moved_after is not None and s > moved_after else "old"})
    return out


def filters(r: random.Random, n: int, width: int) -> list[tuple[int, int]]:
    """n ranges of a0, each `width` values wide (each matches width/65536 of the events)."""
    out = []
    for _ in range(n):
        lo = r.randint(0, MAX - width)
        out.append((lo, lo + width - 1))
    return out


def run(work: str, subscriptions: int, rate: float, seconds: float, switch_after: float,
        grace_ms: int, seed: int = 1, width: int = 64, old_index: str = "[a0, a1]") -> dict:
    """Brings up the PLEROMA test bed, subscribes, publishes `rate` events/s for `seconds`,
    switches the layout `switch_after` seconds in; returns the counts and the switch's times.
    `old_index` is the index before the switch (round-robin over it, 16 bits): `[a0]` keeps the
    false positives few, which many subscriptions at a high rate need (the receivers print every
    datagram)."""
    r = random.Random(seed)
    schema = os.path.join(work, "schema.yaml")
    with open(schema, "w") as f:
        f.write(SCHEMA.replace("index: [a0, a1]", f"index: {old_index}"))
    controller = Controller(schema, "--max-requests-per-second", "100000", "--burst", "100000",
                            "--dz-length", "16", log_path=os.path.join(work, "controller.log"))
    testbed = receivers = None
    try:
        testbed = Testbed("pleroma", controller)
        wait_for_network(controller, testbed, links=16)
        hosts = testbed.hosts
        pub_host, sub_hosts = hosts[0], hosts[1:]
        ranges = filters(r, subscriptions, width)
        ports: dict[str, list[int]] = {h["name"]: [] for h in sub_hosts}
        where = []  # per subscription: (host name, port)
        for i in range(subscriptions):
            h = sub_hosts[i % len(sub_hosts)]
            port = 41000 + i // len(sub_hosts)
            ports[h["name"]].append(port)
            where.append((h["name"], port))
        receivers = {name: JsonLines([TESTBED, "exec", name, "--", "python3",
                                      os.path.join(HERE, "receiver.py"), *map(str, p)])
                     for name, p in ports.items()}
        for name, p in receivers.items():
            p.wait_for(lambda o: o.get("kind") == "listening", 60, f"receiver on {name}")
        # Advertised before the subscriptions, reading its events from stdin (its clock starts at
        # the first): advertised after, it set up 1 000 paths in one request, which a loaded
        # machine did not finish within the client's 30 s.
        pub = PublisherProcess(testbed, pub_host["name"], "-", rate=rate)  # polls the index 1/s
        pub.wait_advertised()
        t = time.monotonic()
        for (lo, hi), (name, port) in zip(ranges, where):
            status, body = controller.call("POST", "/v1/subscriptions", {
                "host": testbed.host(name)["address"], "filter": f"a0 in [{lo}, {hi}]",
                "port": port})
            assert status == 201, (status, body)
        subscribe_s = time.monotonic() - t
        log(f"{subscriptions} subscriptions in {subscribe_s:.1f} s")

        n = int(rate * seconds)
        events = [{"kind": "event", "attributes": {"a0": r.randint(0, MAX),
                                                   "a1": r.randint(0, MAX)}} for _ in range(n)]
        path = os.path.join(work, "events.jsonl")
        with open(path, "w") as f:
            f.writelines(json.dumps(e) + "\n" for e in events)
        expected = {w: set() for w in where}
        for seq, e in enumerate(events, start=1):
            a0 = e["attributes"]["a0"]
            for (lo, hi), w in zip(ranges, where):
                if lo <= a0 <= hi:
                    expected[w].add(seq)
        before = int(rate * switch_after)  # switch once this many events were delivered
        threshold = sum(1 for w in where for s in expected[w] if s <= before)

        def delivered_so_far() -> int:
            return sum(1 for p in receivers.values() for o in p.all if o.get("kind") == "datagram")

        lost_before = datapath_lost()
        drops_before = receive_drops(testbed, list(receivers))
        def feed() -> None:
            with open(path) as f:
                pub.proc.stdin.write(f.read())
            pub.proc.stdin.close()

        threading.Thread(target=feed, daemon=True).start()
        published_from = time.monotonic()
        poll(lambda: delivered_so_far() >= threshold, seconds + 60, "deliveries before the switch")
        with open(os.path.join(work, "new-schema.yaml"), "w") as f:
            f.write(NEW_SCHEMA)
        loadavg = open("/proc/loadavg").read().split()[:3]
        seen_at_switch = max((o["sequence"] for p in receivers.values() for o in p.all
                              if o.get("kind") == "datagram"), default=0)
        t = time.monotonic()
        switch_ns = time.time_ns()  # the publisher stamps events with the same wall clock
        switch_started_s = t - published_from
        status, switched = controller.call("PUT", "/v1/pubsub/layout",
                                           {"schema": NEW_SCHEMA, "grace_ms": grace_ms})
        switch_s = time.monotonic() - t
        assert status == 200, (status, switched)
        log(f"layout switched: {switched}")
        # its summary; it exits 1 when its unadvertisement meets a switch still running (503)
        summary = pub.wait_for(lambda o: o.get("kind") == "published", seconds * 10 + 120,
                               f"publisher on {pub.host}")
        publisher_exit = pub.proc.wait(timeout=60)
        ports_after = controller.get("/v1/pubsub")["event_port"]

        def got() -> dict:
            out = {w: [] for w in where}
            for name, p in receivers.items():
                for o in p.all:
                    if o.get("kind") == "datagram" and (name, o["port"]) in out:
                        out[(name, o["port"])].append(o["sequence"])
            return out

        def complete() -> bool:
            g = got()
            return all(expected[w] <= set(g[w]) for w in where)

        try:
            poll(complete, 30, "every matching event")
        except Exception:  # noqa: BLE001 - the counts below say what is missing
            pass
        g = got()
        datapath_lost_during = datapath_lost() - lost_before
        receive_drops_during = receive_drops(testbed, list(receivers)) - drops_before
        lost = sum(len(expected[w] - set(g[w])) for w in where)
        lost_sequences = sorted({s for w in where for s in expected[w] - set(g[w])})
        sent_ns = {o["sequence"]: o["sent_ns"] for p in receivers.values() for o in p.all
                   if o.get("kind") == "datagram"}
        moved = next((o for o in pub.all if o.get("kind") == "index"), None)
        moved_after = moved["published"] if moved else None
        duplicated = sum(len(g[w]) - len(set(g[w])) for w in where)
        delivered = sum(len(g[w]) for w in where)
        wanted = sum(len(expected[w]) for w in where)
        return {"subscriptions": subscriptions, "rate": rate, "events": n,
                "published": summary.get("events"), "publish_rate": summary.get("rate"),
                "publisher_exit": publisher_exit,
                "wanted": wanted, "delivered": delivered, "lost": lost,
                "duplicated": duplicated, "lost_sequences": lost_sequences[:100],
                "lost_events": lost_events(lost_sequences[:100], sent_ns, switch_ns, moved_after,
                                           switched, grace_ms),
                "publisher_moved_after_event": moved_after,
                "publisher_moved_ms_after_switch_call": (
                    round((sent_ns[moved_after + 1] - switch_ns) / 1e6, 1)
                    if moved_after is not None and moved_after + 1 in sent_ns else None),
                "last_sequence_seen_at_switch": seen_at_switch, "switch": switched, "switch_call_s": round(switch_s, 3),
                "grace_ms": grace_ms, "event_port_after": ports_after,
                "subscribe_s": round(subscribe_s, 2),
                "switch_started_s_after_advertised": round(switch_started_s, 3),
                "datapath_lost": datapath_lost_during,
                "receive_buffer_drops": receive_drops_during, "loadavg_at_switch": loadavg,
                "tables_match_switches": controller.tables_match_switches()}
    finally:
        for p in (receivers or {}).values():
            p.terminate()
        if testbed is not None:
            testbed.down()
        controller.terminate()
