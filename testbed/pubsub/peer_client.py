"""One client of the head-to-head (experiments/peers.py), run inside a test-bed host: a
publisher or a subscriber of netpubsub, Mosquitto (MQTT), NATS or Zenoh, all in Python so that
the systems differ only in what carries the events.

Every system carries the same bytes: the event encoded by netpubsub's EventCodec (attributes,
publisher id, sequence, send time in ns, payload), as one UDP datagram (netpubsub) or as one
message body (the others, on topic/subject/key quotes.<exchange>.<symbol> in the system's
syntax). Every subscriber hands what arrives to netpubsub's own ReceivePath (decode, exact
filter, count), so the application gets the same events from every system, and records the
latency (receive time − send time, both CLOCK_REALTIME of one machine) in an HdrHistogram.

    peer_client.py sub SYSTEM --filter F [--keys K,...] [--servers S,...] ...
    peer_client.py pub SYSTEM --events FILE --rate R --payload N [--servers S,...] ...

JSON lines out. sub: ready, warm (brokers: the first control message came through), progress
(every 0.25 s), result (on SIGTERM). pub: ready; then reads stdin: "warm" sends one control
message, "go" publishes every event (paced) and prints published, "quit" closes and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "clients", "python"))
sys.path.insert(0, os.path.join(HERE, ".."))

from hdrh.histogram import HdrHistogram  # noqa: E402

from netpubsub import Filter, Publisher, Subscriber, parse_schema_yaml  # noqa: E402
from netpubsub.codec import EventCodec  # noqa: E402
from netpubsub.subscriber import ReceivePath  # noqa: E402
from pubsub.peer_verdict import max_by_tenth  # noqa: E402

WARMUP = "warmup"  # the control key every broker subscriber also subscribes to
ZENOH_PORT = 7447
MQTT_PORT = 1883
NATS_PORT = 4222
PROGRESS = 0.25


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def load_schema(path: str):
    with open(path) as f:
        return parse_schema_yaml(f.read(), path)


def topic(system: str, exchange: str, symbol: str) -> str:
    """The topic / subject / key expression of one quote in a system's syntax."""
    return f"quotes.{exchange}.{symbol}" if system == "nats" else f"quotes/{exchange}/{symbol}"


# ---- subscriber ------------------------------------------------------------------------------

class Recorder:
    """The application side of every subscriber: netpubsub's receive path, the delivered
    sequence numbers and the latency histogram (µs)."""

    def __init__(self, schema, filter_text: str, warmup: int = 0):
        self.path = ReceivePath(schema, Filter(schema, filter_text))
        self.warmup = warmup  # events 1…warmup: delivered and checked, not in the histogram
        self.sequences: list[int] = []
        self.latencies: list[int] = []  # µs, in the order of self.sequences
        self.hist = HdrHistogram(1, 60_000_000, 3)
        self.warm = threading.Event()
        self.lock = threading.Lock()

    def data(self, data: bytes, received_ns: int) -> None:
        with self.lock:
            d = self.path.handle(data, received_ns)
            if d is not None:
                self.record(d)

    def record(self, d) -> None:
        self.sequences.append(d.event.sequence)
        self.latencies.append(max(1, d.latency_ns // 1000))
        if d.event.sequence > self.warmup:
            self.hist.record_value(self.latencies[-1])

    def control(self) -> None:
        if not self.warm.is_set():
            self.warm.set()
            emit(kind="warm")

    def progress(self) -> None:
        s = self.path.stats
        emit(kind="progress", received=s.received, delivered=s.delivered)

    def result(self) -> None:
        with self.lock:
            # HdrHistogram's own compressed, base64 form: the harness decodes and merges them
            emit(kind="result", sequences=self.sequences, histogram=self.hist.encode().decode(),
                 max_by_tenth=max_by_tenth(list(zip(self.sequences, self.latencies))),
                 **self.path.stats.as_dict())


def run_until_term(rec: Recorder, stop: threading.Event) -> None:
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    while not stop.wait(PROGRESS):
        rec.progress()
    rec.progress()


def sub_netpubsub(args, rec: Recorder) -> None:
    stop = threading.Event()
    s = Subscriber(args.controller, args.filter, host=args.host)
    rec.path = s.path  # the client's own receive path: the same code, its own counters

    def receive():
        while not stop.is_set():
            d = s.receive(timeout=0.2)
            if d is not None:
                with rec.lock:
                    rec.record(d)

    t = threading.Thread(target=receive, daemon=True)
    t.start()
    emit(kind="ready", pid=os.getpid())
    rec.control()  # the subscription's flows are acknowledged: nothing more to wait for
    run_until_term(rec, stop)
    s.stop()
    t.join(timeout=5)
    rec.result()
    s.close()


def sub_mosquitto(args, rec: Recorder) -> None:
    import paho.mqtt.client as mqtt
    stop = threading.Event()
    c = mqtt.Client(protocol=mqtt.MQTTv311)

    def on_message(_c, _u, msg):
        if msg.topic == WARMUP:
            rec.control()
        else:
            rec.data(msg.payload, time.time_ns())

    subscribed = threading.Event()
    c.on_message = on_message
    c.on_subscribe = lambda *_: subscribed.set()
    c.connect(args.servers[0], MQTT_PORT)
    c.subscribe([(k, 0) for k in args.keys] + [(WARMUP, 0)])
    c.loop_start()
    if not subscribed.wait(30):
        raise SystemExit("no SUBACK from the broker in 30 s")
    emit(kind="ready", pid=os.getpid())
    run_until_term(rec, stop)
    rec.result()  # first: closing a connection may hang, the result must not wait for it
    c.loop_stop()
    c.disconnect()


def sub_nats(args, rec: Recorder) -> None:
    import nats

    async def main():
        nc = await nats.connect(servers=[f"nats://[{s}]:{NATS_PORT}" for s in args.servers],
                                allow_reconnect=False, max_reconnect_attempts=0)

        async def on_msg(msg):
            rec.data(msg.data, time.time_ns())

        async def on_control(_msg):
            rec.control()

        for k in args.keys:
            await nc.subscribe(k, cb=on_msg, pending_msgs_limit=1_000_000)
        await nc.subscribe(WARMUP, cb=on_control)
        await nc.flush()
        emit(kind="ready", pid=os.getpid())
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        while not stop.is_set():
            try:
                await asyncio.wait_for(stop.wait(), PROGRESS)
            except asyncio.TimeoutError:
                rec.progress()
        rec.progress()
        rec.result()
        await nc.close()

    asyncio.run(main())


def zenoh_session(connect: list[str], listen: list[str] | None = None):
    """A Zenoh session in peer mode (the documented default for one local network); the
    entry point is given (gossip scouting), since the test bed has no IPv4 multicast."""
    import zenoh
    conf = zenoh.Config()
    conf.insert_json5("mode", '"peer"')
    conf.insert_json5("scouting/multicast/enabled", "false")
    conf.insert_json5("connect/endpoints", json.dumps(connect))
    if listen:
        conf.insert_json5("listen/endpoints", json.dumps(listen))
    return zenoh.open(conf)


def sub_zenoh(args, rec: Recorder) -> None:
    stop = threading.Event()
    session = zenoh_session([f"tcp/[{s}]:{ZENOH_PORT}" for s in args.servers])
    subs = [session.declare_subscriber(
        k, lambda sample: rec.data(sample.payload.to_bytes(), time.time_ns())) for k in args.keys]
    subs.append(session.declare_subscriber(WARMUP, lambda _s: rec.control()))
    emit(kind="ready", pid=os.getpid())
    run_until_term(rec, stop)
    rec.result()
    for s in subs:
        s.undeclare()
    session.close()


# ---- publisher -------------------------------------------------------------------------------

def paced(events: list, rate: float):
    """(index, values) at start + index / rate (sleeping while ahead; never skipping)."""
    start = time.monotonic()
    for i, values in enumerate(events):
        ahead = start + i / rate - time.monotonic()
        if ahead > 0:
            time.sleep(ahead)
        yield i, values
    emit(kind="published", events=len(events), seconds=time.monotonic() - start,
         rate=len(events) / max(1e-9, time.monotonic() - start))


def commands():
    """The harness's stdin lines, one at a time."""
    for line in sys.stdin:
        line = line.strip()
        if line:
            yield line


def pub(args) -> None:
    schema = load_schema(args.schema)
    names = [a.name for a in schema.attributes]
    with open(args.events) as f:
        events = [[json.loads(line)["attributes"][n] for n in names] for line in f if line.strip()]
    payload = bytes(args.payload)
    codec = EventCodec(schema)
    sym, exch = names.index("symbol"), names.index("exchange")
    publisher_id = 0x6E7073
    if args.system == "netpubsub":
        # One datagram per event, sent before publish returns (as every run before stop 33):
        # a buffered publisher would add up to its 1 ms flush delay to paced events' latency.
        p = Publisher(args.controller, host=args.host, batch=False)
        p.advertise("true")
        send = lambda i, v: p.publish_values(v, payload)  # noqa: E731
        control, close = (lambda: None), p.close
    elif args.system == "mosquitto":
        import paho.mqtt.client as mqtt
        c = mqtt.Client(protocol=mqtt.MQTTv311)
        c.connect(args.servers[0], MQTT_PORT)
        c.loop_start()
        last = []

        def send(i, v):
            data = codec.encode_values(v, payload, publisher_id, i + 1, time.time_ns())
            last[:] = [c.publish(topic("mosquitto", v[exch], v[sym]), data, qos=0)]

        control = lambda: c.publish(WARMUP, b"w", qos=0)  # noqa: E731

        def close():
            if last:
                last[0].wait_for_publish(30)
            c.loop_stop()
            c.disconnect()
    elif args.system == "zenoh":
        import zenoh
        session = zenoh_session([], [f"tcp/[{args.host}]:{ZENOH_PORT}"])
        pubs = {}

        def send(i, v):
            key = topic("zenoh", v[exch], v[sym])
            p = pubs.get(key)
            if p is None:  # reliable and blocking, as the other systems are over TCP
                p = pubs[key] = session.declare_publisher(
                    key, congestion_control=zenoh.CongestionControl.BLOCK)
            p.put(codec.encode_values(v, payload, publisher_id, i + 1, time.time_ns()))

        control = lambda: session.put(WARMUP, b"w")  # noqa: E731
        close = session.close
    elif args.system == "nats":
        return pub_nats(args, events, codec, payload, publisher_id, sym, exch)
    else:
        raise SystemExit(f"unknown system {args.system}")
    emit(kind="ready", pid=os.getpid())
    for cmd in commands():
        if cmd == "warm":
            control()
        elif cmd == "go":
            for i, v in paced(events, args.rate):
                send(i, v)
        elif cmd == "quit":
            break
    close()


def pub_nats(args, events, codec, payload, publisher_id, sym, exch) -> None:
    import nats

    async def main():
        nc = await nats.connect(servers=[f"nats://[{s}]:{NATS_PORT}" for s in args.servers],
                                allow_reconnect=False, max_reconnect_attempts=0)
        emit(kind="ready", pid=os.getpid())
        loop = asyncio.get_running_loop()
        lines = asyncio.Queue()
        threading.Thread(target=lambda: [loop.call_soon_threadsafe(lines.put_nowait, c)
                                         for c in commands()], daemon=True).start()
        while True:
            cmd = await lines.get()
            if cmd == "warm":
                await nc.publish(WARMUP, b"w")
                await nc.flush()
            elif cmd == "go":
                start = time.monotonic()
                for i, v in enumerate(events):
                    ahead = start + i / args.rate - time.monotonic()
                    if ahead > 0:
                        await asyncio.sleep(ahead)
                    data = codec.encode_values(v, payload, publisher_id, i + 1, time.time_ns())
                    await nc.publish(topic("nats", v[exch], v[sym]), data)
                await nc.flush()
                took = time.monotonic() - start
                emit(kind="published", events=len(events), seconds=took,
                     rate=len(events) / max(1e-9, took))
            elif cmd == "quit":
                break
        await nc.close()

    asyncio.run(main())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("role", choices=["pub", "sub"])
    ap.add_argument("system", choices=["netpubsub", "mosquitto", "nats", "zenoh"])
    ap.add_argument("--schema", required=True)
    ap.add_argument("--controller", help="netpubsub: the controller's URL")
    ap.add_argument("--host", help="this host's address")
    ap.add_argument("--servers", type=lambda s: s.split(","), default=[],
                    help="broker addresses (NATS: any of the cluster; Zenoh: the entry peer)")
    ap.add_argument("--filter", help="sub: the application's exact filter")
    ap.add_argument("--keys", type=lambda s: s.split(","), default=[],
                    help="sub: the topic filters / subjects / key expressions to subscribe")
    ap.add_argument("--events", help="pub: JSON lines of {'attributes': ...}")
    ap.add_argument("--rate", type=float, default=1000)
    ap.add_argument("--payload", type=int, default=16)
    ap.add_argument("--warmup", type=int, default=0,
                    help="sub: events 1…N are the warm-up, left out of the latency histogram")
    args = ap.parse_args()
    if args.role == "pub":
        pub(args)
        return 0
    rec = Recorder(load_schema(args.schema), args.filter, args.warmup)
    {"netpubsub": sub_netpubsub, "mosquitto": sub_mosquitto, "nats": sub_nats,
     "zenoh": sub_zenoh}[args.system](args, rec)
    return 0


if __name__ == "__main__":
    sys.exit(main())
