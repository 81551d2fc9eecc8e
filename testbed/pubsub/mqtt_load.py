"""Constant-rate MQTT load for the SNAPS test-bed experiment, run inside a host namespace with
paho-mqtt (QoS 0, MQTT 3.1.1). Every message carries `SEQ SEND_NS ` and is padded to --size
bytes; hosts share the kernel's clock, so a receiver's latency is its time_ns() minus SEND_NS.

  pub  connects, prints {"kind":"connected"}; then each stdin line "warm" publishes one message
       to TOPIC/warmup (so the caller can wait until every subscriber is reachable), and "go"
       publishes --size-byte messages to TOPIC/data every --interval-ms for --seconds, on an
       absolute schedule (a late message is sent at once, never skipped), and prints
       {"kind":"published","messages","bytes","seconds"}.
  sub  subscribes to every --topic and prints {"kind":"subscribed"} on SUBACK, {"kind":"warm"} on
       the first warm-up message, {"kind":"count","n"} at most every 0.5 s while data arrives,
       and on SIGTERM {"kind":"summary","received","unique","latency_us":[...]}.

The subscriber takes several topic filters because a federated broker republishes what it pulls
over a bridge under a prefix (see snaps_testbed.py); a warm-up or data message is recognised by
the last topic level, whatever the prefix.
"""

import signal
import sys
import threading
import time

import paho.mqtt.client as mqtt

from paced_load import (Progress, Tally, command_line, emit, paced_stream, wait_for_quit,
                        warm_until_go)


def connect(broker: str, port: int, name: str) -> mqtt.Client:
    client = mqtt.Client(client_id=name, protocol=mqtt.MQTTv311)
    client.max_queued_messages_set(0)  # unlimited: a slow network delays, never drops, here
    client.connect(broker, port, keepalive=60)
    client.loop_start()
    return client


def publish(args) -> int:
    client = connect(args.broker, args.port, args.name)
    emit({"kind": "connected"})
    warm_until_go(sys.stdin, lambda: client.publish(f"{args.topic}/warmup", b"warmup", qos=0))
    emit(paced_stream(lambda _seq, body: client.publish(f"{args.topic}/data", body, qos=0),
                      args.size, args.interval_ms, args.seconds))
    wait_for_quit(sys.stdin)  # paho drains its queue meanwhile
    client.loop_stop()
    client.disconnect()
    return 0


def subscribe(args) -> int:
    tally = Tally()

    def on_message(_client, _userdata, msg) -> None:
        now = time.time_ns()
        last = msg.topic.rsplit("/", 1)[-1]
        if last == "warmup":
            tally.warmed()
        elif last == "data":
            tally.data(msg.payload, now)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    client = mqtt.Client(client_id=args.name, protocol=mqtt.MQTTv311)
    client.on_message = on_message
    client.on_subscribe = lambda *_: emit({"kind": "subscribed"})
    client.on_connect = lambda c, *_: c.subscribe([(t, 0) for t in args.topic])
    client.connect(args.broker, args.port, keepalive=60)
    client.loop_start()
    progress = Progress(tally)
    while not stop.wait(0.1):
        progress.tick()
    client.loop_stop()
    emit(tally.summary())
    return 0


def main() -> int:
    ap, p, s = command_line(__doc__)
    p.add_argument("--topic", default="snaps")
    s.add_argument("--topic", action="append", required=True, help="a topic filter (repeatable)")
    for x in (p, s):
        x.add_argument("--broker", required=True)
        x.add_argument("--port", type=int, default=1883)
        x.add_argument("--name", required=True, help="MQTT client id")
    args = ap.parse_args()
    return publish(args) if args.what == "pub" else subscribe(args)


if __name__ == "__main__":
    sys.exit(main())
