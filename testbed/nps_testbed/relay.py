"""The controller API relay: hosts connect to [fd6e:7073:ffff::c0]:PORT on the management network,
and `up` forwards each TCP connection to the controller's REST API (127.0.0.1:8080 by default).

Why: the controller binds its API to loopback, which a network namespace cannot reach; the relay
lets it keep doing so, and works whichever of the two starts first.
"""

from __future__ import annotations

import socket
import threading

from .system import log


class ApiRelay:
    """Accepts on (listen_address, port) and pipes every connection to (target_host, target_port)."""

    def __init__(self, listen_address: str, port: int, target_host: str, target_port: int):
        self.target = (target_host, target_port)
        family = socket.AF_INET6 if ":" in listen_address else socket.AF_INET
        self.server = socket.socket(family, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind((listen_address, port))
        self.server.listen(64)
        self.closed = False
        threading.Thread(target=self._accept, name="api-relay", daemon=True).start()

    def close(self) -> None:
        self.closed = True
        try:
            self.server.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.server.close()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(self.target, timeout=5)
        except OSError as e:
            log(f"api relay: controller API {self.target[0]}:{self.target[1]} unreachable: {e}")
            client.close()
            return
        upstream.settimeout(None)
        done = _Countdown(2, (client, upstream))
        threading.Thread(target=_pipe, args=(upstream, client, done), daemon=True).start()
        _pipe(client, upstream, done)


class _Countdown:
    """Closes a connection's two sockets once both directions have finished."""

    def __init__(self, count: int, sockets: tuple[socket.socket, socket.socket]):
        self.count, self.sockets, self.lock = count, sockets, threading.Lock()

    def finished(self) -> None:
        with self.lock:
            self.count -= 1
            if self.count == 0:
                for s in self.sockets:
                    s.close()


def _pipe(source: socket.socket, sink: socket.socket, done: _Countdown) -> None:
    """Copies until EOF, then half-closes the sink so the other direction can still finish."""
    try:
        while data := source.recv(65536):
            sink.sendall(data)
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
    finally:
        done.finished()
