"""An ordinary Cyclone DDS application for the DDS overlay test (test_dds_overlay.py): it knows
nothing of netpubsub. `pub DOMAIN NAME COUNT INTERVAL [TOPIC]` writes COUNT Reading samples (seq
0..COUNT-1, sensor NAME) reliably, one every INTERVAL seconds on a fixed schedule (a late write does
not delay the ones after it), and says so every 500 samples; `sub DOMAIN [TOPIC [DEPTH]]` prints each Reading it receives as a JSON line.
TOPIC defaults to `readings`; a DEPTH makes the writer or the reader TRANSIENT_LOCAL with
KEEP_LAST DEPTH (a late-joining reader then receives the writer's last DEPTH samples).
Ping-pong (testbed/experiments/dds_latency.py): `pong DOMAIN PAIR` answers each Reading on
`ping_PAIR` with the same Reading on `pong_PAIR`; `ping DOMAIN COUNT PAIR...` sends COUNT pings per
PAIR, the pairs alternating, each after the previous one's pong (or a 2 s timeout), and prints the
round-trip times of each pair in microseconds as one JSON line.
An argument `deadline=MS` (anywhere) gives the pub's writer or the sub's reader a DEADLINE of MS.
Timestamped (testbed/experiments/overlay_dds.py, Figure 5's DDS series): `stamp-pub DOMAIN ROUNDS
INTERVAL TOPIC...` writes warm-up Readings (seq -1) on every TOPIC every 0.1 s until a line on stdin,
then ROUNDS rounds, one every INTERVAL seconds, each Reading's value its CLOCK_MONOTONIC write time;
`stamp-sub DOMAIN EXPECTED TOPIC...` says `ready` once every TOPIC sent it a warm-up Reading, and
prints the publish-to-take latencies of the timed ones (µs, each (topic, seq) once; the others
counted as duplicates) and the topics that warmed up when EXPECTED arrived or on a line on stdin
(Figure 7's DDS series, overlay_dds_multipath.py, gives its readers a `deadline=MS`).
`opaque DOMAIN TOPIC` reads netpubsub::MqttMessage (the overlay's type for MQTT messages, a
sequence of octets) on TOPIC and prints each payload as a JSON line (hex); `opaque-pub DOMAIN TOPIC`
writes one on TOPIC for each line of stdin (the payload in hex), reliably, and says so.
An argument `matched` (anywhere) makes the pub wait until its writer matched a reader before it
writes (a VOLATILE reader receives nothing written before it matched)."""

import json
import select
import sys
import time
from dataclasses import dataclass

from cyclonedds.core import (InstanceState, Policy, Qos, ReadCondition, SampleState, ViewState,
                             WaitSet)
from cyclonedds.domain import DomainParticipant
from cyclonedds.idl import IdlStruct
from cyclonedds.idl.types import sequence, uint8
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from cyclonedds.util import duration


@dataclass
class Reading(IdlStruct, typename="demo::Reading"):
    seq: int
    sensor: str
    value: float


@dataclass
class MqttMessage(IdlStruct, typename="netpubsub::MqttMessage"):
    payload: sequence[uint8]


RELIABLE = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.History.KeepAll)
DEADLINE = [a for a in sys.argv if a.startswith("deadline=")]
MATCHED = "matched" in sys.argv
sys.argv = [a for a in sys.argv if not a.startswith("deadline=") and a != "matched"]


def deadline() -> list:
    return [Policy.Deadline(duration(milliseconds=int(d[9:]))) for d in DEADLINE]


def qos(depth_at: int) -> Qos:
    if len(sys.argv) <= depth_at:
        return Qos(*RELIABLE, *deadline())
    return Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.Durability.TransientLocal,
               Policy.History.KeepLast(int(sys.argv[depth_at])), *deadline())


def opaque(dp: DomainParticipant, topic: str) -> None:
    r = DataReader(dp, Topic(dp, topic, MqttMessage), qos=RELIABLE)
    print(json.dumps({"kind": "started"}), flush=True)
    for s in r.take_iter(timeout=duration(days=1)):
        print(json.dumps({"kind": "opaque", "payload": bytes(s.payload).hex()}), flush=True)


def opaque_pub(dp: DomainParticipant, topic: str) -> None:
    w = DataWriter(dp, Topic(dp, topic, MqttMessage), qos=RELIABLE)
    print(json.dumps({"kind": "started"}), flush=True)
    for n, line in enumerate(sys.stdin):
        w.write(MqttMessage(list(bytes.fromhex(line.strip()))))
        print(json.dumps({"kind": "wrote", "n": n + 1}), flush=True)
    time.sleep(3600)  # stays until stopped: the samples keep their writer


def pong(dp: DomainParticipant, pair: str) -> None:
    r = DataReader(dp, Topic(dp, f"ping_{pair}", Reading), qos=RELIABLE)
    w = DataWriter(dp, Topic(dp, f"pong_{pair}", Reading), qos=RELIABLE)
    print(json.dumps({"kind": "started"}), flush=True)
    for s in r.take_iter(timeout=duration(days=1)):
        w.write(s)


def ping(dp: DomainParticipant, count: int, pairs: list[str]) -> None:
    ends = {}
    for pair in pairs:
        w = DataWriter(dp, Topic(dp, f"ping_{pair}", Reading), qos=RELIABLE)
        r = DataReader(dp, Topic(dp, f"pong_{pair}", Reading), qos=RELIABLE)
        ws = WaitSet(dp)
        ws.attach(ReadCondition(r, SampleState.Any | ViewState.Any | InstanceState.Any))
        ends[pair] = (w, r, ws)
    print(json.dumps({"kind": "started"}), flush=True)

    def one(pair: str, seq: int, timeout: float) -> float | None:
        w, r, ws = ends[pair]
        start = time.perf_counter()
        w.write(Reading(seq, pair, 0.0))
        while (left := start + timeout - time.perf_counter()) > 0:
            ws.wait(duration(microseconds=int(left * 1e6)))
            if any(s.seq == seq for s in r.take(N=64)):
                return time.perf_counter() - start
        return None

    for pair in pairs:  # warm-up, not recorded: until 50 pongs came back in a row
        n, seq = 0, -1
        while n < 50:
            n = n + 1 if one(pair, seq, 0.5) is not None else 0
            seq -= 1
    rtts = {pair: [] for pair in pairs}
    timeouts = {pair: 0 for pair in pairs}
    for i in range(count):
        for pair in pairs:
            rtt = one(pair, i, 2.0)
            if rtt is None:
                timeouts[pair] += 1
            else:
                rtts[pair].append(round(rtt * 1e6))
    print(json.dumps({"kind": "rtts", "rtt_us": rtts, "timeouts": timeouts}), flush=True)


def stamp_pub(dp: DomainParticipant, rounds: int, interval: float, topics: list[str]) -> None:
    ws = [DataWriter(dp, Topic(dp, t, Reading), qos=RELIABLE) for t in topics]
    print(json.dumps({"kind": "started"}), flush=True)
    while not select.select([sys.stdin], [], [], 0.1)[0]:
        for w in ws:
            w.write(Reading(-1, "warm-up", time.monotonic()))
    start = time.monotonic()
    for i in range(rounds):
        for w in ws:
            w.write(Reading(i, "stamp", time.monotonic()))
        time.sleep(max(0.0, start + (i + 1) * interval - time.monotonic()))
    print(json.dumps({"kind": "done"}), flush=True)
    time.sleep(3600)  # stays until stopped: the samples keep their writer


def stamp_sub(dp: DomainParticipant, expected: int, topics: list[str]) -> None:
    reliable = Qos(*RELIABLE, *deadline())
    readers = {t: DataReader(dp, Topic(dp, t, Reading), qos=reliable) for t in topics}
    ws = WaitSet(dp)
    for r in readers.values():
        ws.attach(ReadCondition(r, SampleState.Any | ViewState.Any | InstanceState.Any))
    print(json.dumps({"kind": "started"}), flush=True)
    warm, us, seen, duplicates = set(), [], set(), 0
    while True:
        ws.wait(duration(milliseconds=100))
        before = len(us)
        for t, r in readers.items():
            for s in r.take(N=256):
                if not isinstance(s, Reading):  # an instance's state change, no data
                    continue
                if s.seq < 0:
                    if t not in warm and len(warm) == len(topics) - 1:
                        print(json.dumps({"kind": "ready"}), flush=True)
                    warm.add(t)
                elif (t, s.seq) in seen:
                    duplicates += 1
                else:
                    seen.add((t, s.seq))
                    us.append(round((time.monotonic() - s.value) * 1e6))
        asked = select.select([sys.stdin], [], [], 0)[0] and sys.stdin.readline()
        if asked or (before < expected <= len(us)):
            print(json.dumps({"kind": "latencies", "us": us, "duplicates": duplicates,
                              "warm": sorted(warm)}), flush=True)


def main():
    mode, domain = sys.argv[1], int(sys.argv[2])
    dp = DomainParticipant(domain)
    if mode == "pong":
        return pong(dp, sys.argv[3])
    if mode == "ping":
        return ping(dp, int(sys.argv[3]), sys.argv[4:])
    if mode == "stamp-pub":
        return stamp_pub(dp, int(sys.argv[3]), float(sys.argv[4]), sys.argv[5:])
    if mode == "stamp-sub":
        return stamp_sub(dp, int(sys.argv[3]), sys.argv[4:])
    if mode == "opaque":
        return opaque(dp, sys.argv[3])
    if mode == "opaque-pub":
        return opaque_pub(dp, sys.argv[3])
    topic_at = 6 if mode == "pub" else 3
    topic = Topic(dp, sys.argv[topic_at] if len(sys.argv) > topic_at else "readings", Reading)
    if mode == "pub":
        name, count, interval = sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
        w = DataWriter(dp, topic, qos=qos(7))
        print(json.dumps({"kind": "started"}), flush=True)
        until = time.monotonic() + 60
        while MATCHED and not w.matched_sub and time.monotonic() < until:
            time.sleep(0.01)
        start = time.monotonic()
        for i in range(count):
            w.write(Reading(i, name, i * 0.5))
            if i % 500 == 499:
                print(json.dumps({"kind": "wrote", "seq": i}), flush=True)
            time.sleep(max(0.0, start + (i + 1) * interval - time.monotonic()))
        print(json.dumps({"kind": "done"}), flush=True)
        time.sleep(3600)  # stays until the test stops it: the samples keep their writer
    else:
        r = DataReader(dp, topic, qos=qos(4))
        print(json.dumps({"kind": "started"}), flush=True)
        for s in r.take_iter(timeout=duration(days=1)):
            print(json.dumps({"kind": "sample", "seq": s.seq, "sensor": s.sensor}), flush=True)


if __name__ == "__main__":
    main()
