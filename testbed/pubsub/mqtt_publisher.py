"""The broker baseline's publisher, run inside a host namespace: reads events (JSON lines) and
publishes each, paced at a rate, to the MQTT topic quotes/<exchange>/<symbol> with QoS 0 through
paho-mqtt. The payload is compact text, `index send_ns symbol price volume exchange` (about as
long as netpubsub's binary event), so that bytes on the links compare routing, not encodings.
Prints one JSON line when connected and one when done."""

import argparse
import json
import sys
import time

import paho.mqtt.client as mqtt


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--broker", required=True)
    ap.add_argument("--events", required=True)
    ap.add_argument("--rate", type=float, required=True)
    args = ap.parse_args()
    events = [json.loads(line)["attributes"] for line in open(args.events) if line.strip()]
    client = mqtt.Client(client_id="nps-baseline-publisher", protocol=mqtt.MQTTv311)
    client.connect(args.broker, 1883)
    client.loop_start()
    print(json.dumps({"kind": "connected"}), flush=True)
    for line in sys.stdin:  # one line per go: warm-up probes, then "go"
        if line.strip() == "go":
            break
        client.publish("quotes/warmup", "warmup", qos=0)
    period = 1.0 / args.rate
    start = time.monotonic()
    for i, e in enumerate(events):
        delay = start + i * period - time.monotonic()
        if delay > 0:
            time.sleep(delay)  # pacing the publisher
        payload = f"{i} {time.time_ns()} {e['symbol']} {e['price']} {e['volume']} {e['exchange']}"
        client.publish(f"quotes/{e['exchange']}/{e['symbol']}", payload, qos=0)
    client.loop_stop()
    client.disconnect()
    print(json.dumps({"kind": "published", "events": len(events),
                      "seconds": time.monotonic() - start}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
