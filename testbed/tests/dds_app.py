"""An ordinary Cyclone DDS application for the DDS overlay test (test_dds_overlay.py): it knows
nothing of netpubsub. `pub DOMAIN NAME COUNT INTERVAL [TOPIC]` writes COUNT Reading samples (seq
0..COUNT-1, sensor NAME) reliably, one every INTERVAL seconds on a fixed schedule (a late write does
not delay the ones after it), and says so every 500 samples; `sub DOMAIN [TOPIC [DEPTH]]` prints each Reading it receives as a JSON line.
TOPIC defaults to `readings`; a DEPTH makes the writer or the reader TRANSIENT_LOCAL with
KEEP_LAST DEPTH (a late-joining reader then receives the writer's last DEPTH samples)."""

import json
import sys
import time
from dataclasses import dataclass

from cyclonedds.core import Policy, Qos
from cyclonedds.domain import DomainParticipant
from cyclonedds.idl import IdlStruct
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from cyclonedds.util import duration


@dataclass
class Reading(IdlStruct, typename="demo::Reading"):
    seq: int
    sensor: str
    value: float


RELIABLE = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.History.KeepAll)


def qos(depth_at: int) -> Qos:
    if len(sys.argv) <= depth_at:
        return RELIABLE
    return Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.Durability.TransientLocal,
               Policy.History.KeepLast(int(sys.argv[depth_at])))


def main():
    mode, domain = sys.argv[1], int(sys.argv[2])
    dp = DomainParticipant(domain)
    topic_at = 6 if mode == "pub" else 3
    topic = Topic(dp, sys.argv[topic_at] if len(sys.argv) > topic_at else "readings", Reading)
    if mode == "pub":
        name, count, interval = sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
        w = DataWriter(dp, topic, qos=qos(7))
        print(json.dumps({"kind": "started"}), flush=True)
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
