"""An unmodified AMQP 0-9-1 application (pika, Debian's python3-pika) for the test bed, run with
/usr/bin/python3 inside a host namespace against the host's own RabbitMQ. JSON lines on stdout.

  pub  declares the topic exchange --exchange, prints {"kind":"connected"}; stdin "warm" publishes
       one message with routing key --warm-key, "go" publishes --count messages round-robin over
       --keys (body `SEQ KEY`) and prints {"kind":"published","messages"}; then waits for "quit"
  sub  waits until the exchange exists at its broker (the edge coordinator has the agents mirror
       it), binds an exclusive queue with every --binding, prints {"kind":"subscribed"},
       {"kind":"warm"} on the first warm-up message, {"kind":"count","n"} while data arrives, and
       on SIGTERM {"kind":"summary","received":[[SEQ, KEY], ...]}
"""

import argparse
import json
import signal
import sys
import time

import pika

WARM = b"warm"


def emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def connect(port: int) -> pika.BlockingConnection:
    params = pika.ConnectionParameters(host="127.0.0.1", port=port, connection_attempts=30,
                                       retry_delay=1)
    return pika.BlockingConnection(params)


def publish(args) -> int:
    conn = connect(args.port)
    ch = conn.channel()
    ch.exchange_declare(args.exchange, exchange_type="topic")
    emit({"kind": "connected"})
    for line in sys.stdin:
        command = line.strip()
        if command == "warm":
            ch.basic_publish(args.exchange, args.warm_key, WARM)
        elif command == "go":
            for seq in range(args.count):
                key = args.keys[seq % len(args.keys)]
                ch.basic_publish(args.exchange, key, f"{seq} {key}".encode())
            emit({"kind": "published", "messages": args.count})
        elif command == "quit":
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
        conn.sleep(0.2)  # polls the broker; pika keeps the connection serviced meanwhile
    ch = conn.channel()
    queue = ch.queue_declare("", exclusive=True).method.queue
    for binding in args.binding:
        ch.queue_bind(queue, args.exchange, routing_key=binding)
    received, state = [], {"warm": False, "stop": False}

    def on_message(_ch, method, _props, body: bytes) -> None:
        if body == WARM:
            if not state["warm"]:
                state["warm"] = True
                emit({"kind": "warm"})
            return
        seq, key = body.decode().split(" ", 1)
        received.append([int(seq), key])

    ch.basic_consume(queue, on_message, auto_ack=True)
    signal.signal(signal.SIGTERM, lambda *_: state.update(stop=True))
    emit({"kind": "subscribed"})
    shown = 0
    while not state["stop"]:
        conn.process_data_events(time_limit=0.5)
        if len(received) != shown:
            shown = len(received)
            emit({"kind": "count", "n": shown})
    emit({"kind": "summary", "received": received})
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("pub")
    p.add_argument("--keys", type=lambda s: s.split(","), required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--warm-key", required=True)
    s = sub.add_parser("sub")
    s.add_argument("--binding", action="append", required=True)
    s.add_argument("--timeout", type=float, default=60)
    for x in (p, s):
        x.add_argument("--exchange", required=True)
        x.add_argument("--port", type=int, default=5672)
    args = ap.parse_args()
    return publish(args) if args.what == "pub" else subscribe(args)


if __name__ == "__main__":
    sys.exit(main())
