"""An ordinary Cyclone DDS application for the DDS overlay test (test_dds_overlay.py): it knows
nothing of netpubsub. `pub DOMAIN NAME COUNT INTERVAL` writes COUNT Reading samples (seq 0..COUNT-1,
sensor NAME) reliably; `sub DOMAIN` prints each Reading it receives as a JSON line."""

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


RELIABLE = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.History.KeepLast(1000))


def main():
    mode, domain = sys.argv[1], int(sys.argv[2])
    dp = DomainParticipant(domain)
    topic = Topic(dp, "readings", Reading)
    if mode == "pub":
        name, count, interval = sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
        w = DataWriter(dp, topic, qos=RELIABLE)
        print(json.dumps({"kind": "started"}), flush=True)
        for i in range(count):
            w.write(Reading(i, name, i * 0.5))
            time.sleep(interval)
        print(json.dumps({"kind": "done"}), flush=True)
        time.sleep(3600)  # stays until the test stops it: the samples keep their writer
    else:
        r = DataReader(dp, topic, qos=RELIABLE)
        print(json.dumps({"kind": "started"}), flush=True)
        for s in r.take_iter(timeout=duration(days=1)):
            print(json.dumps({"kind": "sample", "seq": s.seq, "sensor": s.sensor}), flush=True)


if __name__ == "__main__":
    main()
