"""The MQTT load of mqtt_load.py as bare UDP datagrams, run inside a host namespace: what the
network alone does with the publisher's stream (a sender to one address, which the switches
replicate, and receivers), without brokers or edge agents. Same payload, schedule and
JSON lines as mqtt_load.py (paced_load.py), so the experiment drives both alike.

  pub  prints {"kind":"connected"}; stdin "warm" sends one datagram `warmup`, "go" sends the
       stream to --to on --port and prints {"kind":"published","messages","bytes","seconds"};
       then waits for "quit" or the end of stdin
  sub  binds [::]:--port, prints {"kind":"subscribed"}, {"kind":"warm"} on the first warm-up
       datagram, {"kind":"count","n"} at most every 0.5 s while data arrives, and on SIGTERM
       {"kind":"summary","received","unique","latency_us":[...]}
"""

import signal
import socket
import sys
import threading
import time

from paced_load import (Progress, Tally, command_line, emit, paced_stream, wait_for_quit,
                        warm_until_go)


def publish(args) -> int:
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    target = (args.to, args.port)
    emit({"kind": "connected"})
    warm_until_go(sys.stdin, lambda: s.sendto(b"warmup", target))
    emit(paced_stream(lambda _seq, body: s.sendto(body, target),
                      args.size, args.interval_ms, args.seconds))
    wait_for_quit(sys.stdin)
    return 0


def subscribe(args) -> int:
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.bind(("::", args.port))
    tally = Tally()

    def receive() -> None:
        while True:
            data = s.recv(65535)
            now = time.time_ns()
            if data == b"warmup":
                tally.warmed()
            else:
                tally.data(data, now)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    threading.Thread(target=receive, daemon=True).start()
    emit({"kind": "subscribed"})
    progress = Progress(tally)
    while not stop.wait(0.1):
        progress.tick()
    emit(tally.summary())
    return 0


def main() -> int:
    ap, p, s = command_line(__doc__)
    p.add_argument("--to", required=True, help="destination address (the group's send_to)")
    for x in (p, s):
        x.add_argument("--port", type=int, default=7447)
    args = ap.parse_args()
    return publish(args) if args.what == "pub" else subscribe(args)


if __name__ == "__main__":
    sys.exit(main())
