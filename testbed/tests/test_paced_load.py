"""Pure tests of what the load clients share (testbed/pubsub/paced_load.py): the payload, the
absolute schedule and the receiver's tally."""

import io
import json
from contextlib import redirect_stdout

from pubsub import paced_load


def test_payload_is_padded_and_parses_back():
    body = paced_load.payload(42, 100, now_ns=123456789)
    assert len(body) == 100
    assert paced_load.parse(body) == (42, 123456789)
    assert paced_load.payload(7, 1, now_ns=5) == b"7 5 "  # never truncated below its header


class FakeClock:
    def __init__(self):
        self.now, self.slept = 0.0, []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 9))
        self.now += seconds


def test_stream_keeps_an_absolute_schedule_and_never_skips_a_late_message():
    clock, sent = FakeClock(), []

    def send(seq: int, body: bytes) -> None:
        sent.append(seq)
        if seq == 1:
            clock.now += 0.025  # a send that takes 2.5 periods

    line = paced_load.paced_stream(send, 64, interval_ms=10, seconds=0.05,
                                   clock=clock, sleep=clock.sleep)
    assert sent == [0, 1, 2, 3, 4]
    # message 1 sent at 10 ms overran to 35 ms: 2 and 3 go at once, 4 waits for its 40 ms slot
    assert clock.slept == [0.01, 0.005]
    assert line["messages"] == 5 and line["bytes"] == 5 * 64
    assert line["kind"] == "published"


def test_tally_counts_duplicates_once_in_unique_and_reports_latency():
    tally = paced_load.Tally()
    out = io.StringIO()
    with redirect_stdout(out):
        tally.warmed()
        tally.warmed()
        tally.data(paced_load.payload(3, 32, now_ns=1_000_000), 3_000_000)
        tally.data(paced_load.payload(3, 32, now_ns=1_000_000), 4_000_000)
        tally.data(paced_load.payload(1, 32, now_ns=2_000_000), 2_500_000)
    assert [json.loads(x) for x in out.getvalue().splitlines()] == [{"kind": "warm"}]
    assert tally.summary() == {"kind": "summary", "received": 3, "unique": 2,
                               "latency_us": [2000, 3000, 500]}
    assert tally.summary(with_seqs=True)["seqs"] == [1, 3]


def test_progress_prints_only_when_the_count_moved_and_at_most_twice_a_second():
    tally, clock, out = paced_load.Tally(), FakeClock(), io.StringIO()
    progress = paced_load.Progress(tally, clock=clock)
    with redirect_stdout(out):
        tally.received = 5
        progress.tick()  # too early
        clock.now = 0.5
        progress.tick()
        clock.now = 0.7
        tally.received = 6
        progress.tick()  # too soon after the last line
        clock.now = 1.0
        progress.tick()
        clock.now = 2.0
        progress.tick()  # nothing new
    assert [json.loads(x)["n"] for x in out.getvalue().splitlines()] == [5, 6]


def test_command_line_gives_pub_the_streams_options_and_both_sides_the_clients_own():
    ap, pub, sub = paced_load.command_line("doc")
    for x in (pub, sub):
        x.add_argument("--port", type=int, default=1)
    args = ap.parse_args(["pub", "--size", "10", "--interval-ms", "0.5", "--seconds", "2"])
    assert (args.what, args.size, args.interval_ms, args.seconds, args.port) == ("pub", 10, 0.5, 2.0, 1)
    assert ap.parse_args(["sub", "--port", "7"]).port == 7
