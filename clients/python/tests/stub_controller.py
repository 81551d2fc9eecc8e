"""A stand-in for the controller's pub/sub REST API (docs/pubsub.md) for the client's unit
tests: it registers requests without switches. The real controller is used end to end on the
test bed (testbed/tests/test_python_client_ovs.py)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import socket
import ssl

from randoms import schema_yaml


class _Server(ThreadingHTTPServer):
    address_family = socket.AF_INET6
    daemon_threads = True


class StubController:
    def __init__(self, schema, length=16, routing="pleroma", tls=None):
        """``tls``: (certificate file, key file) to serve HTTPS instead of HTTP."""
        self.schema, self.length, self.routing = schema, length, routing
        self.registrations = {}
        self.stats = {}  # the last stats report per subscription id
        self.requests = []
        self.authorizations = []  # each request's Authorization header (None without one)
        self.refusals = []  # (status, body, headers) answered before the next requests
        self.index_version = 1
        self.versions_sent = []  # the Nps-Index-Version header of every request (None: absent)
        self._next = 0
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, status, body, headers=()):
                data = json.dumps(body).encode()
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self):
                size = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(size)) if size else None
                stub.requests.append((self.command, self.path, body))
                stub.authorizations.append(self.headers.get("Authorization"))
                stub.versions_sent.append(self.headers.get("Nps-Index-Version"))
                refusal = stub.refusals.pop(0) if stub.refusals else None  # None: route it
                if refusal is not None:
                    self._answer(*refusal)
                    return
                self._answer(*stub.route(self.command, self.path, body))

            do_GET = do_POST = do_DELETE = _handle

        self.server = _Server(("::1", 0), Handler)
        scheme = "http"
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
            scheme = "https"
        self.url = f"{scheme}://[::1]:{self.server.server_address[1]}"
        # shutdown() waits for the poll: 0.5 s by default, half a second per test.
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,),
                                       daemon=True)
        self.thread.start()

    def route(self, method, path, body):
        if (method, path) == ("GET", "/v1/pubsub"):
            return 200, {"schema": schema_yaml(self.schema), "schema_id": f"{self.schema.id:08x}",
                         "index": {"version": self.index_version, "length": self.length,
                                   "dimensions": [a.name for a in self.schema.index]},
                         "event_port": 7073, "max_cells": 64, "routing": self.routing}
        if method == "POST" and path in ("/v1/advertisements", "/v1/subscriptions"):
            self._next += 1
            rid = ("a-" if "advert" in path else "s-") + str(self._next)
            self.registrations[rid] = body
            return 201, dict(body, id=rid, cells=1, flow_changes=0, switches=0, response_ms=0.1)
        if method == "POST" and path.startswith("/v1/subscriptions/") and path.endswith("/stats"):
            rid = path.split("/")[3]
            if rid not in self.registrations:
                return 404, {"error": f"no subscription {rid}"}
            self.stats[rid] = body
            return 200, dict(body, id=rid)
        if method == "DELETE":
            rid = path.rsplit("/", 1)[1]
            if self.registrations.pop(rid, None) is None:
                return 404, {"error": f"no request {rid}"}
            return 200, {"id": rid, "flow_changes": 0, "switches": 0, "response_ms": 0.1}
        return 404, {"error": "no route"}

    def close(self):
        self.server.shutdown()
        self.server.server_close()
