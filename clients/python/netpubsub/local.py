"""A host of a local network (``nps local``, docs/local.md): loopback cannot carry multicast
content addresses and a process without root cannot give itself a host address, so the local
switch hands out both: one datagram ``nps-local attach [ADDRESS]`` to it, answered with
``nps-local host ADDRESS PORT`` (the host address, and the loopback UDP port of the host's cable,
where its events enter the switch) or ``nps-local error REASON``. As the Java
``LocalAttachment``."""

from __future__ import annotations

import socket

TRIES = 3
WAIT = 1.0


def parse_switch(text: str) -> tuple[str, int]:
    """``[::1]:PORT`` as ``GET /v1/pubsub`` gives ``local_switch``."""
    host, sep, port = text.rpartition(":")
    if not sep or not host.startswith("[") or not host.endswith("]") or not port.isdigit():
        raise ValueError(f"local_switch must be [ADDRESS]:PORT, not {text!r}")
    return host[1:-1], int(port)


def attach(switch: tuple[str, int], host: str | None = None) -> tuple[str, tuple[str, int]]:
    """(host address, cable address) of ``host``, or of a new host when None. ValueError with the
    switch's reason when it refuses; TimeoutError when it does not answer."""
    request = ("nps-local attach" + (f" {host}" if host else "")).encode()
    with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as s:
        s.settimeout(WAIT)
        for _ in range(TRIES):
            s.sendto(request, switch)
            try:
                reply = s.recv(512).decode("utf-8", "replace").strip()
            except socket.timeout:
                continue
            words = reply.split(" ", 3)
            if words[:2] == ["nps-local", "error"]:
                raise ValueError("the local switch refused: " + reply[len("nps-local error "):])
            if len(words) != 4 or words[:2] != ["nps-local", "host"] or not words[3].isdigit():
                raise ValueError(f"unexpected answer of the local switch: {reply!r}")
            return words[2], (switch[0], int(words[3]))
    raise TimeoutError(f"the local switch at {switch} does not answer")
