"""A bare UDP receiver for the live tests, run inside a host namespace: listens on the given
ports and prints one JSON line per datagram with the port and the event header's publisher id,
sequence and timestamp (wall-clock ns at the publisher; EventCodec v1: version, flags, schema id (4), publisher id (8), sequence (8),
timestamp (8), big-endian). It never filters: it shows exactly what the network delivered."""

import json
import selectors
import socket
import struct
import sys


def main(ports: list[int]) -> None:
    sel = selectors.DefaultSelector()
    for p in ports:
        s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        s.bind(("::", p))
        sel.register(s, selectors.EVENT_READ, p)
    print(json.dumps({"kind": "listening", "ports": ports}), flush=True)
    while True:
        for key, _ in sel.select():
            data, _ = key.fileobj.recvfrom(65535)
            if len(data) < 30:
                print(json.dumps({"kind": "malformed", "port": key.data}), flush=True)
                continue
            _, _, _, publisher, sequence, sent = struct.unpack(">BBIQQQ", data[:30])
            print(json.dumps({"kind": "datagram", "port": key.data, "publisher": publisher,
                              "sequence": sequence, "sent_ns": sent}), flush=True)


if __name__ == "__main__":
    main([int(p) for p in sys.argv[1:]])
