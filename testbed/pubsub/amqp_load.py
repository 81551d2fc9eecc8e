"""The constant-rate load of mqtt_load.py over AMQP 0-9-1 (pika, Debian's python3-pika), run
inside a host namespace against the host's own RabbitMQ: the same payload (`SEQ SEND_NS ` padded
to --size bytes) and the same JSON lines, so the SNAPS experiment drives both alike.

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

import argparse
import json
import signal
import sys
import time

import pika


def emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def connect(port: int) -> pika.BlockingConnection:
    # no heartbeats: the publisher blocks on stdin between phases and cannot answer them
    return pika.BlockingConnection(pika.ConnectionParameters(
        host="127.0.0.1", port=port, heartbeat=0, connection_attempts=30, retry_delay=1))


def publish(args) -> int:
    conn = connect(args.port)
    ch = conn.channel()
    ch.exchange_declare(args.exchange, exchange_type="topic")
    emit({"kind": "connected"})
    for line in sys.stdin:
        if line.strip() == "go":
            break
        ch.basic_publish(args.exchange, "warmup", b"warmup")
    period = args.interval_ms / 1000.0
    count = int(round(args.seconds / period))
    start, sent = time.monotonic(), 0
    for seq in range(count):
        delay = start + seq * period - time.monotonic()
        if delay > 0:
            time.sleep(delay)  # pacing the publisher on its schedule
        head = f"{seq} {time.time_ns()} ".encode()
        body = head + b"x" * max(0, args.size - len(head))
        ch.basic_publish(args.exchange, args.keys[seq % len(args.keys)], body)
        sent += len(body)
    emit({"kind": "published", "messages": count, "bytes": sent,
          "seconds": time.monotonic() - start})
    for line in sys.stdin:
        if line.strip() == "quit":
            break
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
    seqs, latency, state = set(), [], {"received": 0, "warm": False, "stop": False}

    def on_message(_ch, method, _props, body: bytes) -> None:
        now = time.time_ns()
        if method.routing_key == "warmup":
            if not state["warm"]:
                state["warm"] = True
                emit({"kind": "warm"})
            return
        seq, sent = body.split(b" ", 2)[:2]
        state["received"] += 1
        seqs.add(int(seq))
        latency.append((now - int(sent)) // 1000)

    ch.basic_consume(queue, on_message, auto_ack=True)
    signal.signal(signal.SIGTERM, lambda *_: state.update(stop=True))
    emit({"kind": "subscribed"})
    shown, next_count = 0, time.monotonic() + 0.5
    while not state["stop"]:
        conn.process_data_events(time_limit=0.1)
        if time.monotonic() >= next_count and state["received"] != shown:
            shown = state["received"]
            emit({"kind": "count", "n": shown})
            next_count = time.monotonic() + 0.5
    emit({"kind": "summary", "received": state["received"], "unique": len(seqs),
          "seqs": sorted(seqs), "latency_us": latency})
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("pub")
    p.add_argument("--size", type=int, required=True, help="message bytes")
    p.add_argument("--interval-ms", type=float, required=True)
    p.add_argument("--seconds", type=float, required=True)
    p.add_argument("--keys", type=lambda v: v.split(","), default=["data"],
                   help="routing keys, comma-separated, used round-robin")
    s = sub.add_parser("sub")
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
