"""dds_app.py's timestamped modes, which overlay_dds.py (Figure 5's DDS series) times samples with:
within one DDS domain (no overlay, no root), a reader says ready once every topic sent it a warm-up
sample, and reports exactly the timed samples, each latency non-negative. About 1 s."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pubsub.session import JsonLines  # noqa: E402

APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dds_app.py")


def test_a_reader_gets_every_timed_sample_of_every_topic_once_after_the_warm_up():
    domain = str(150 + os.getpid() % 80)  # not the other DDS tests' 7, 9, 21-23
    started = []
    try:
        sub = JsonLines([sys.executable, APP, "stamp-sub", domain, "6", "ta", "tb"], stdin=True)
        started.append(sub)
        pub = JsonLines([sys.executable, APP, "stamp-pub", domain, "3", "0.02", "ta", "tb"],
                        stdin=True)
        started.append(pub)
        sub.wait_for(lambda o: o.get("kind") == "ready", 30, "the warm-up of both topics")
        pub.proc.stdin.write("go\n")
        pub.proc.stdin.flush()
        got = sub.wait_for(lambda o: o.get("kind") == "latencies", 30, "the latencies")
        assert len(got["us"]) == 6  # 3 rounds x 2 topics, no warm-up sample among them
        assert got["duplicates"] == 0
        assert all(0 <= u < 10_000_000 for u in got["us"])
    finally:
        for p in started:
            p.terminate(timeout=5)
