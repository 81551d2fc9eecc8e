"""Runs inside a host namespace: counts the UDP datagrams that arrive on PORT during WINDOW
seconds and checks each one's UDP checksum on the raw frame captured at eth0 (a rewritten
destination address must come with a recomputed checksum). Prints 'ready', then one JSON line.

usage: udp_count.py PORT WINDOW_SECONDS
"""

import json
import socket
import sys
import time

from udp_probe import checksum_ok


def main() -> None:
    port, window = int(sys.argv[1]), float(sys.argv[2])
    raw = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x86DD))
    raw.bind(("eth0", 0))
    udp = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    udp.bind(("::", port))
    print("ready", flush=True)
    payloads, deadline = [], time.monotonic() + window
    while (left := deadline - time.monotonic()) > 0:
        udp.settimeout(left)
        try:
            payloads.append(udp.recv(2048).decode())
        except socket.timeout:
            break
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
