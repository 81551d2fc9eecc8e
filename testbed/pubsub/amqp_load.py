"""The constant-rate load of mqtt_load.py over AMQP 0-9-1 (pika, Debian's python3-pika), run
inside a host namespace against the host's own RabbitMQ: the same payload, schedule and JSON lines
(paced_load.py), so the SNAPS experiment drives both alike.

  pub  declares the topic exchange --exchange, prints {"kind":"connected"}; stdin "warm"
       publishes one message with routing key `warmup`, "go" publishes --size-byte messages every
       --interval-ms for --seconds on an absolute schedule, message SEQ with routing key
       --keys[SEQ mod len] (default `data`), and prints
       {"kind":"published","messages","bytes","seconds"}; then waits for "quit"
  sub  waits until the exchange exists at its broker (the edge coordinator has the agents mirror
       it), binds an exclusive queue to `warmup` and every --binding (default `data`), prints
       {"kind":"subscribed"}, {"kind":"warm"} on the first warm-up message, {"kind":"count","n"}
       at most every 0.5 s while data arrives, and on SIGTERM
       {"kind":"summary","received","unique","seqs","latency_us"}
"""

import signal
import sys
import threading
import time

import pika

from paced_load import (Progress, Tally, command_line, emit, paced_stream, wait_for_quit,
                        warm_until_go)


def connect(port: int) -> pika.BlockingConnection:
    # no heartbeats: the publisher blocks on stdin between phases and cannot answer them
    return pika.BlockingConnection(pika.ConnectionParameters(
        host="127.0.0.1", port=port, heartbeat=0, connection_attempts=30, retry_delay=1))


def publish(args) -> int:
    conn = connect(args.port)
    ch = conn.channel()
    ch.exchange_declare(args.exchange, exchange_type="topic")
    emit({"kind": "connected"})
    warm_until_go(sys.stdin, lambda: ch.basic_publish(args.exchange, "warmup", b"warmup"))
    emit(paced_stream(
        lambda seq, body: ch.basic_publish(args.exchange, args.keys[seq % len(args.keys)], body),
        args.size, args.interval_ms, args.seconds))
    wait_for_quit(sys.stdin)
    conn.close()
    return 0


def exchange_exists(conn: pika.BlockingConnection, name: str) -> bool:
    ch = conn.channel()
    try:
        ch.exchange_declare(name, passive=True)
        ch.close()
        return True
    except pika.exceptions.ChannelClosedByBroker:  # 404: not (yet) mirrored here
        return False


def subscribe(args) -> int:
    conn = connect(args.port)
    deadline = time.monotonic() + args.timeout
    while not exchange_exists(conn, args.exchange):
        if time.monotonic() > deadline:
            emit({"kind": "error", "error": f"exchange {args.exchange} never appeared"})
            return 1
        conn.sleep(0.2)
    ch = conn.channel()
    queue = ch.queue_declare("", exclusive=True).method.queue
    for key in ["warmup", *args.binding]:
        ch.queue_bind(queue, args.exchange, routing_key=key)
    tally, stop = Tally(), threading.Event()

    def on_message(_ch, method, _props, body: bytes) -> None:
        if method.routing_key == "warmup":
            tally.warmed()
        else:
            tally.data(body, time.time_ns())

    ch.basic_consume(queue, on_message, auto_ack=True)
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    emit({"kind": "subscribed"})
    progress = Progress(tally)
    while not stop.is_set():
        conn.process_data_events(time_limit=0.1)
        progress.tick()
    emit(tally.summary(with_seqs=True))
    return 0


def main() -> int:
    ap, p, s = command_line(__doc__)
    p.add_argument("--keys", type=lambda v: v.split(","), default=["data"],
                   help="routing keys, comma-separated, used round-robin")
    s.add_argument("--binding", action="append", help="a binding pattern (repeatable)")
    s.add_argument("--timeout", type=float, default=90, help="seconds to wait for the exchange")
    for x in (p, s):
        x.add_argument("--exchange", default="snaps")
        x.add_argument("--port", type=int, default=5672)
    args = ap.parse_args()
    if args.what == "sub" and not args.binding:
        args.binding = ["data"]
    return publish(args) if args.what == "pub" else subscribe(args)


if __name__ == "__main__":
    sys.exit(main())
