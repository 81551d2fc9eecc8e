"""A client that bypasses the API, inside a host namespace (test_ingress_ovs.py).

    ingress_peer.py send ADDR TAG COUNT [ADDR TAG COUNT ...]
        sends COUNT UDP datagrams "TAG-i" to each content address ADDR, port 7073, straight
        out of eth0 (no advertisement asked for them); prints one JSON line when done
    ingress_peer.py listen QUIET PORT[,PORT...] [GROUP ...]
        binds every PORT on ::, joins each multicast GROUP (content addresses) on eth0 on every
        socket, prints 'ready' and receives until stdin closes (the senders are done), then until
        nothing came for QUIET seconds; prints one JSON line {port: [payloads]}
"""

import json
import select
import socket
import struct
import sys

EVENT_PORT = 7073


def send(args: list[str]) -> None:
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, socket.if_nametoindex("eth0"))
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 64)
    sent = 0
    for i in range(0, len(args), 3):
        addr, tag, count = args[i], args[i + 1], int(args[i + 2])
        for n in range(count):
            s.sendto(f"{tag}-{n}".encode(), (addr, EVENT_PORT))
            sent += 1
    print(json.dumps({"sent": sent}), flush=True)


def listen(quiet: float, ports: list[int], groups: list[str]) -> None:
    eth0 = socket.if_nametoindex("eth0")
    socks = {}
    for port in ports:
        s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("::", port))
        for g in groups:
            mreq = socket.inet_pton(socket.AF_INET6, g) + struct.pack("@I", eth0)
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_JOIN_GROUP, mreq)
        socks[s] = port
    print("ready", flush=True)
    got = {str(p): [] for p in ports}
    done = False  # stdin closed: from then on, stop after QUIET seconds without a datagram
    while True:
        readable, _, _ = select.select(list(socks) + ([] if done else [sys.stdin]), [], [],
                                       quiet if done else None)
        if not readable:
            break
        for s in readable:
            if s is sys.stdin:
                done = not sys.stdin.readline()
            else:
                got[str(socks[s])].append(s.recv(2048).decode(errors="replace"))
    print(json.dumps(got), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "send":
        send(sys.argv[2:])
    else:
        listen(float(sys.argv[2]), [int(p) for p in sys.argv[3].split(",")], sys.argv[4:])
