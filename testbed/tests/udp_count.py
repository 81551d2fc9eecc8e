"""Runs inside a host namespace: counts the UDP datagrams that arrive on PORT until WINDOW
seconds after a line (or the end) of its standard input, which the test writes once the sender is
done, and checks each one's UDP checksum on the raw frame captured at eth0 (a rewritten
destination address must come with a recomputed checksum). Prints 'ready', then one JSON line.

The window runs from the end of sending, not from 'ready': the test starts one counter per host,
one after another, and on a loaded machine the first ones were ready seconds before the sender
ran, so a window counted from 'ready' closed before their datagrams came (h5 got none of a round
its switch had delivered).

usage: udp_count.py PORT WINDOW_SECONDS
"""

import json
import os
import select
import socket
import sys
import time

from udp_probe import checksum_ok

# never waits longer for the sender than this (a test that died leaves no counter behind)
MAX_WAIT = 300.0


def main() -> None:
    port, window = int(sys.argv[1]), float(sys.argv[2])
    raw = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x86DD))
    raw.bind(("eth0", 0))
    udp = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    udp.bind(("::", port))
    print("ready", flush=True)
    payloads, deadline, sending = [], time.monotonic() + MAX_WAIT, True
    while (left := deadline - time.monotonic()) > 0:
        readable, _, _ = select.select([udp, 0] if sending else [udp], [], [], left)
        if udp in readable:
            payloads.append(udp.recv(2048).decode())
        if sending and 0 in readable:
            os.read(0, 1024)  # a line or the end of input: the sender is done
            sending, deadline = False, time.monotonic() + window
    raw.setblocking(False)
    checksums = []
    try:
        while True:
            ip = raw.recv(65535)[14:]
            if len(ip) >= 48 and ip[6] == 17 and int.from_bytes(ip[42:44], "big") == port:
                checksums.append(checksum_ok(ip))
    except BlockingIOError:
        pass
    print(json.dumps({"payloads": payloads, "checksums_ok": all(checksums)}), flush=True)


if __name__ == "__main__":
    main()
