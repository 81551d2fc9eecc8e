"""The clients of the head-to-head (peers.py) behind one interface: the Python client of every
system (pubsub/peer_client.py) and netpubsub's Java CLI (`nps sub`, `nps pub`), which is the
client that addresses the demo's learned index layout (the Python client refuses it)."""

from __future__ import annotations

import base64
import json
import os
import sys
import threading

from hdrh.histogram import HdrHistogram

from pubsub import peer_verdict as pv
from pubsub.session import TESTBED, JsonLines, PublisherProcess, SubscriberProcess

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLIENT = os.path.join(TESTBED_DIR, "pubsub", "peer_client.py")


def in_host(host: str, *cmd: str) -> list[str]:
    return [TESTBED, "exec", host, "--", *cmd]


def _kind(proc: JsonLines, kind: str) -> list[dict]:
    return [o for o in proc.all if o.get("kind") == kind]


class PySub(JsonLines):
    """peer_client.py sub: ready, warm, progress lines; its result on SIGTERM."""

    def __init__(self, argv: list[str]):
        super().__init__(argv)

    def ready(self) -> bool:
        return bool(_kind(self, "ready"))

    def warm(self) -> bool:
        return bool(_kind(self, "warm"))

    def counts(self) -> tuple[int, int]:
        p = _kind(self, "progress")
        return (p[-1]["received"], p[-1]["delivered"]) if p else (0, 0)

    def result(self) -> dict | None:
        r = _kind(self, "result")
        return r[-1] if r else None


# The client JVMs of the head-to-head: C2 allowed (the test bed's CLIENT_JAVA_OPTS stop at C1 for
# a quick start, which its functional tests want; a benchmark's clients run as a deployment's
# would), serial GC and a small heap as on the test bed. SESSION_34_OPTS: as the harness ran them
# until session 34 (the /lines and /c1 variants, for the before and after in one run).
JAVA_OPTS = "-Xmx192m -XX:+UseSerialGC"
SESSION_34_OPTS = "-Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"


class JavaSub(SubscriberProcess):
    """`nps sub --json --stats --summary --warmup N`: progress lines, then the sequences, the
    latency HdrHistogram (µs; events 1…N left out, as peer_client.py's --warmup) and the highest
    latency per tenth recorded in the client, as the Python clients do. `lines`: a JSON line per
    delivery instead (another build's client, or the /lines variant), from which the harness
    builds the same histogram."""

    def __init__(self, *args, warmup: int = 0, lines: bool = False,
                 java_opts: str = JAVA_OPTS, jit_warmup: int = 0, **kwargs):
        extra = () if lines else ("--summary", "--warmup", str(warmup))
        if jit_warmup:  # the receive path compiled before subscribing (nps sub --jit-warmup)
            extra += ("--jit-warmup", str(jit_warmup))
        super().__init__(*args, extra=extra, java_opts=java_opts, **kwargs)
        self.warmup, self.per_delivery = warmup, lines

    def ready(self) -> bool:
        return bool(_kind(self, "subscribed"))

    warm = ready  # the subscription's flows are acknowledged when it prints subscribed

    def counts(self) -> tuple[int, int]:
        if self.per_delivery:
            n = len(self.deliveries())
            return n, n
        p = _kind(self, "progress")
        return (p[-1]["received"], p[-1]["delivered"]) if p else (0, 0)

    def result(self) -> dict | None:
        stats = _kind(self, "stats")
        if not stats:
            return None
        counts = {k: stats[-1].get(k, 0) for k in (
            "received", "delivered", "false_positives", "malformed")}
        if not self.per_delivery:
            summary = _kind(self, "latency")
            return None if not summary else {
                "sequences": summary[-1]["sequences"], "histogram": summary[-1]["histogram"],
                "max_by_tenth": summary[-1]["max_by_tenth"], **counts}
        h = HdrHistogram(1, 60_000_000, 3)
        for d in self.deliveries():
            if d["sequence"] > self.warmup:
                h.record_value(max(1, int(d["latency_us"])))
        return {"sequences": [d["sequence"] for d in self.deliveries()],
                "histogram": h.encode().decode(), "max_by_tenth": pv.max_by_tenth(
                    [(d["sequence"], d["latency_us"]) for d in self.deliveries()]), **counts}


class PyPub(JsonLines):
    """peer_client.py pub: stdin commands warm, go, quit."""

    def __init__(self, argv: list[str]):
        super().__init__(argv, stdin=True)

    def ready(self) -> bool:
        return bool(_kind(self, "ready"))

    def command(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            pass


class JavaPub:
    """`nps pub --rate R`. This build's is started before the run (`--from -`): its JVM start and
    advertisement (flows acknowledged) fall outside the window, as the peers' connections and
    interest do, and "go" writes the events to its stdin (it paces from the first one read).
    Another build's (`jar`, the before) is started on "go" with `--from FILE`, as the harness did
    then: it paces from its advertisement, so it must not wait for the harness after that. The
    events carry the payload, base64 in their JSON lines. `started()` once it is publishing."""

    def __init__(self, testbed, host: str, events_file: str, rate: float, payload: int,
                 jar: str | None = None, java_opts: str = JAVA_OPTS):
        self.testbed, self.host, self.rate, self.jar = testbed, host, rate, jar
        self.java_opts = java_opts
        self.file = events_file + f".payload{payload}"
        data = base64.b64encode(bytes(payload)).decode()
        with open(events_file) as f, open(self.file, "w") as out:
            for line in f:
                if line.strip():
                    e = json.loads(line)
                    e["payload"] = data
                    out.write(json.dumps(e) + "\n")
        self.prestarted = jar is None
        self.p: PublisherProcess | None = None
        if self.prestarted:
            self.p = PublisherProcess(testbed, host, "-", rate, java_opts=java_opts)

    def ready(self) -> bool:
        return not self.prestarted or self.started()

    def command(self, line: str) -> None:
        if line != "go":
            return
        if self.p is None:
            self.p = PublisherProcess(self.testbed, self.host, self.file, self.rate, jar=self.jar,
                                      java_opts=self.java_opts)
        elif self.prestarted:  # a thread: the pipe fills while the JVM paces
            threading.Thread(target=self._feed, daemon=True).start()

    def _feed(self) -> None:
        try:
            with open(self.file) as f:
                for line in f:
                    self.p.proc.stdin.write(line)
            self.p.proc.stdin.close()
        except (BrokenPipeError, ValueError, OSError):
            pass

    def started(self) -> bool:
        return self.p is not None and bool(_kind(self.p, "advertised"))

    @property
    def proc(self):
        return self.p.proc

    def wait_for(self, *args):
        return self.p.wait_for(*args)

    def error_text(self) -> str:
        return self.p.error_text() if self.p else ""

    def terminate(self) -> int | None:
        return self.p.terminate() if self.p else None


def python_client(tb, role: str, system: str, host: str, schema: str, *extra: str):
    argv = in_host(host, sys.executable, CLIENT, role, system, "--schema", schema,
                   "--controller", tb.api_for_hosts, "--host", tb.host(host)["address"], *extra)
    return PySub(argv) if role == "sub" else PyPub(argv)
