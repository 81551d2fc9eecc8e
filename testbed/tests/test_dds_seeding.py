"""The DDS child's replaced writer keeps its TRANSIENT_LOCAL history (issue 25, docs/overlay-dds.md
"Seeding a replaced writer"), on real Cyclone DDS.

The DDS child (nps_dds_bridge.py) runs alone in a network namespace of its own, driven through its
frames as an edge broker drives it: samples "from other sites" are M frames. Unmodified readers
(dds_app.py) sit in the same namespace. A VOLATILE reader without a DEADLINE makes the child create
its writer, offering none; 600 samples are written; a VOLATILE reader requesting a DEADLINE of
300 ms joins, so the child replaces its writer (make before break) and seeds the new one with the
old one's history; 500 more are written. A TRANSIENT_LOCAL reader requesting 300 ms (so it can
only match the new writer) then joins and receives exactly the last 1 024 samples (the depth of
the child's writers' history), in order; the first reader received every sample exactly once
(none of the seeds twice), the second none written before it joined. A last sample written after
the history arrived is a barrier: every reader takes a writer's samples in order, so once it has
arrived nothing earlier is still on its way."""

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

import pytest
from cyclonedds.idl import IdlStruct

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]
from pubsub.dds_sites import Site  # noqa: E402
from pubsub.session import poll  # noqa: E402
from test_dds_overlay import APP, BRIDGE, app, frames, sample_frame, seqs  # noqa: E402

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("ip"),
                                reason="network namespaces need root and iproute2")
DOMAIN = "9"
HISTORY = 1024  # nps_dds_bridge.HISTORY


@pytest.fixture
def site():
    s = Site(str(os.getpid() % 100000) + "s", 100 + (os.getpid() + 3) % 150)
    try:
        yield s
    finally:
        s.delete()


@dataclass
class Reading(IdlStruct, typename="demo::Reading"):  # dds_app.py's type
    seq: int
    sensor: str
    value: float


def reading(seq: int) -> bytes:
    return Reading(seq, "s", 0.0).serialize()


def test_a_writer_replaced_for_a_shorter_deadline_keeps_its_history(site):
    child = subprocess.Popen(["ip", "netns", "exec", site.ns, sys.executable, BRIDGE, "--domain",
                              DOMAIN, "--interface", "site"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    started = []

    def write(nums: range) -> None:
        child.stdin.write(b"".join(sample_frame(key, reading(i)) for i in nums))
        child.stdin.flush()

    def announced(what) -> None:
        poll(lambda: what(json.loads(frames(child, {"E"}, 30)[-1][1])), 30, "an E frame")

    try:
        assert frames(child, {"R"}, 30)[-1][0] == "R"
        # a lease of 1 s (Cyclone's default is 10 s): its end is seen soon after it is killed
        first = site.run(sys.executable, APP, "sub", DOMAIN, "seeded", env=dict(
            os.environ, CYCLONEDDS_URI="<CycloneDDS><Domain Id='any'><Discovery><LeaseDuration>"
                                      "1s</LeaseDuration></Discovery></Domain></CycloneDDS>"))
        first.wait_for(lambda o: o.get("kind") == "started", 30, "the first reader")
        key = json.loads(frames(child, {"E"}, 30)[-1][1])["key"]
        assert key.startswith("dds/seeded/demo::Reading/")
        write(range(0, 600))
        poll(lambda: len(seqs(first, "s")) >= 600, 20, "600 samples at the first reader")
        first.terminate(timeout=5)
        announced(lambda e: not e["present"])  # the child saw the reader go
        # TRANSIENT_LOCAL, KEEP_LAST 5000, 300 ms: the child replaces its writer for it
        restarted = app(site, "sub", DOMAIN, "seeded", "5000", "deadline=300")
        started.append(restarted)
        announced(lambda e: e.get("deadline_ms") == 300)
        write(range(600, 1100))
        poll(lambda: 1099 in seqs(restarted, "s"), 20, "the last sample at the restarted reader")
        late = app(site, "sub", DOMAIN, "seeded", "5000", "deadline=300")
        started.append(late)
        poll(lambda: len(seqs(late, "s")) >= HISTORY, 20, "the history at the late reader")
        write(range(1100, 1101))  # the barrier
        for p in (restarted, late):
            poll(lambda: 1100 in seqs(p, "s"), 20, "the barrier sample")
        assert seqs(restarted, "s") == list(range(0, 1101))  # the seeds once, then the rest
        assert seqs(late, "s") == list(range(1100 - HISTORY, 1101))
    finally:
        child.stdin.close()
        child.wait(timeout=10)
        for p in started:
            p.terminate(timeout=5)
