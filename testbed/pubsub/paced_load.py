"""What the load clients (mqtt_load.py, udp_load.py, amqp_load.py) share, so the SNAPS experiment
drives MQTT, AMQP and bare UDP alike: the payload (`SEQ SEND_NS ` padded to the message size;
hosts share the kernel's clock, so a receiver's latency is its time_ns() minus SEND_NS), the
publisher's stdin phases ("warm" lines until "go", then "quit"), the stream on an absolute
schedule, the receiver's tally and the JSON lines both sides print. Runs under /usr/bin/python3
(standard library only): the clients import it as a sibling module.
"""

import argparse
import json
import threading
import time
from typing import Callable, Iterable


def command_line(doc: str) -> tuple[argparse.ArgumentParser, argparse.ArgumentParser,
                                     argparse.ArgumentParser]:
    """(the parser, its `pub` with the stream's --size, --interval-ms and --seconds, its `sub`):
    each client adds its own options to both."""
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    pub = sub.add_parser("pub")
    pub.add_argument("--size", type=int, required=True, help="message bytes")
    pub.add_argument("--interval-ms", type=float, required=True)
    pub.add_argument("--seconds", type=float, required=True)
    return ap, pub, sub.add_parser("sub")


def emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def payload(seq: int, size: int, now_ns: int | None = None) -> bytes:
    head = f"{seq} {time.time_ns() if now_ns is None else now_ns} ".encode()
    return head + b"x" * max(0, size - len(head))


def parse(body: bytes) -> tuple[int, int]:
    """(SEQ, SEND_NS) of a payload."""
    seq, sent = body.split(b" ", 2)[:2]
    return int(seq), int(sent)


def warm_until_go(lines: Iterable[str], warm: Callable[[], None]) -> None:
    """Each stdin line before "go" asks for one warm-up message (the caller polls the receivers)."""
    for line in lines:
        if line.strip() == "go":
            return
        warm()


def wait_for_quit(lines: Iterable[str]) -> None:
    """Stays until told (or stdin closes), so a client library can drain its queue."""
    for line in lines:
        if line.strip() == "quit":
            return


def paced_stream(send: Callable[[int, bytes], None], size: int, interval_ms: float,
                 seconds: float, clock=time.monotonic, sleep=time.sleep) -> dict:
    """Sends message SEQ at start + SEQ × interval (a late one at once, never skipped) and returns
    the {"kind":"published"} line."""
    period = interval_ms / 1000.0
    count = int(round(seconds / period))
    start, sent = clock(), 0
    for seq in range(count):
        delay = start + seq * period - clock()
        if delay > 0:
            sleep(delay)  # pacing the publisher on its schedule
        body = payload(seq, size)
        send(seq, body)
        sent += len(body)
    return {"kind": "published", "messages": count, "bytes": sent, "seconds": clock() - start}


class Tally:
    """Counts a receiver's data messages and their latencies; thread-safe, since client libraries
    deliver on their own threads. The first warm-up message prints {"kind":"warm"}."""

    def __init__(self):
        self.lock = threading.Lock()
        self.seqs: set[int] = set()
        self.received = 0
        self.latency_us: list[int] = []
        self.warm = False

    def warmed(self) -> None:
        if not self.warm:
            self.warm = True
            emit({"kind": "warm"})

    def data(self, body: bytes, now_ns: int) -> None:
        seq, sent = parse(body)
        with self.lock:
            self.received += 1
            self.seqs.add(seq)
            self.latency_us.append((now_ns - sent) // 1000)

    def summary(self, with_seqs: bool = False) -> dict:
        with self.lock:
            out = {"kind": "summary", "received": self.received, "unique": len(self.seqs)}
            if with_seqs:
                out["seqs"] = sorted(self.seqs)
            out["latency_us"] = list(self.latency_us)
            return out


class Progress:
    """{"kind":"count","n"} at most every 0.5 s, and only when the count moved."""

    def __init__(self, tally: Tally, clock=time.monotonic):
        self.tally, self.clock = tally, clock
        self.shown, self.next = 0, clock() + 0.5

    def tick(self) -> None:
        if self.clock() >= self.next and self.tally.received != self.shown:
            self.shown = self.tally.received
            emit({"kind": "count", "n": self.shown})
            self.next = self.clock() + 0.5
