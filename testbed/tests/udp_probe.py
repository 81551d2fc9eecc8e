"""Runs inside a host namespace: receives one UDP datagram on ADDR PORT and checks, on the raw frame
captured at eth0, that its UDP checksum is valid. Prints 'ready', then one JSON line.

usage: udp_probe.py ADDR PORT TIMEOUT_SECONDS
"""

import json
import socket
import struct
import sys


def checksum_ok(ip: bytes) -> bool:
    """IPv6 UDP checksum (RFC 8200 §8.1): the one's complement sum over pseudo-header and segment is 0xffff."""
    length = struct.unpack("!H", ip[4:6])[0]
    segment = ip[40:40 + length]
    data = ip[8:40] + struct.pack("!I", length) + b"\0\0\0\x11" + segment
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return total == 0xFFFF


def main() -> None:
    addr, port, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    raw = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x86DD))
    raw.bind(("eth0", 0))
    udp = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    udp.bind((addr, port))
    udp.settimeout(timeout)
    print("ready", flush=True)
    try:
        payload = udp.recv(2048).decode()
    except socket.timeout:
        payload = None
    raw.settimeout(0.5)
    valid = None
    try:
        while True:
            ip = raw.recv(65535)[14:]
            if len(ip) >= 48 and ip[6] == 17 and struct.unpack("!H", ip[42:44])[0] == port:
                valid = checksum_ok(ip)
                break
    except socket.timeout:
        pass
    print(json.dumps({"payload": payload, "checksum_ok": valid}), flush=True)


if __name__ == "__main__":
    main()
