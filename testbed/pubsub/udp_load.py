"""The MQTT load of mqtt_load.py as bare UDP datagrams, run inside a host namespace: what the
network alone does with the publisher's stream (a sender to one address, which the switches
replicate, and receivers), without brokers or edge agents. Same payload (`SEQ SEND_NS ` padded
to --size bytes) and the same JSON lines as mqtt_load.py, so the experiment drives both alike.

  pub  prints {"kind":"connected"}; stdin "warm" sends one datagram `warmup`, "go" sends the
       stream to --to on --port and prints {"kind":"published","messages","bytes","seconds"};
       then waits for "quit" or the end of stdin
  sub  binds [::]:--port, prints {"kind":"subscribed"}, {"kind":"warm"} on the first warm-up
       datagram, {"kind":"count","n"} at most every 0.5 s while data arrives, and on SIGTERM
       {"kind":"summary","received","unique","latency_us":[...]}
"""

import argparse
import json
import signal
import socket
import sys
import threading
import time


def emit(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def publish(args) -> int:
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    target = (args.to, args.port)
    emit({"kind": "connected"})
    for line in sys.stdin:
        if line.strip() == "go":
            break
        s.sendto(b"warmup", target)
    period = args.interval_ms / 1000.0
    count = int(round(args.seconds / period))
    start, sent = time.monotonic(), 0
    for seq in range(count):
        delay = start + seq * period - time.monotonic()
        if delay > 0:
            time.sleep(delay)  # pacing the publisher on its schedule
        head = f"{seq} {time.time_ns()} ".encode()
        sent += s.sendto(head + b"x" * max(0, args.size - len(head)), target)
    emit({"kind": "published", "messages": count, "bytes": sent,
          "seconds": time.monotonic() - start})
    for line in sys.stdin:
        if line.strip() == "quit":
            break
    return 0


def subscribe(args) -> int:
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind(("::", args.port))
    lock = threading.Lock()
    seqs, latency, state = set(), [], {"received": 0, "warm": False}

    def receive() -> None:
        while True:
            data = s.recv(65535)
            now = time.time_ns()
            if data == b"warmup":
                if not state["warm"]:
                    state["warm"] = True
                    emit({"kind": "warm"})
                continue
            seq, sent = data.split(b" ", 2)[:2]
            with lock:
                state["received"] += 1
                seqs.add(int(seq))
                latency.append((now - int(sent)) // 1000)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    threading.Thread(target=receive, daemon=True).start()
    emit({"kind": "subscribed"})
    shown = 0
    while not stop.wait(0.5):
        if state["received"] != shown:
            shown = state["received"]
            emit({"kind": "count", "n": shown})
    with lock:
        emit({"kind": "summary", "received": state["received"], "unique": len(seqs),
              "latency_us": latency})
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("pub")
    p.add_argument("--to", required=True, help="destination address (the group's send_to)")
    p.add_argument("--size", type=int, required=True, help="datagram payload bytes")
    p.add_argument("--interval-ms", type=float, required=True)
    p.add_argument("--seconds", type=float, required=True)
    s = sub.add_parser("sub")
    for x in (p, s):
        x.add_argument("--port", type=int, default=7447)
    args = ap.parse_args()
    return publish(args) if args.what == "pub" else subscribe(args)


if __name__ == "__main__":
    sys.exit(main())
