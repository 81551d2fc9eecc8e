"""The controller's pub/sub REST API (docs/pubsub.md) over the standard library's HTTP client.

Retries what a retry can fix, as the Java ``ControllerClient``: 429 after its ``Retry-After``
(seconds or an HTTP date; 200 ms when missing; each wait at most 2 s; 10 times), and 409 "host
not known" by announcing the host and trying again with backoff (50 ms doubling to 500 ms) for
5 s from the first 409; 409 with ``Nps-Index-Version`` (this client's index is stale: the
controller switched its layout) by refetching ``GET /v1/pubsub`` and retrying once. Every request
carries the index version last fetched. Everything else is a :class:`ControllerError` carrying the status, the
controller's ``error`` text and its whole JSON error object.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import os
import ssl
import time
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from . import host as hosts
from .config import PubSubConfig
from .errors import ControllerError


VERSION_HEADER = "Nps-Index-Version"
"""The index version a request is made with, and the current one in a 409 "stale index"."""


@dataclass(frozen=True)
class Registration:
    """A live advertisement or subscription, as the controller answered its POST."""

    id: str
    host: str
    filter: str
    port: int
    cells: int
    flow_changes: int
    switches: int
    response_ms: float


@dataclass(frozen=True)
class Removal:
    id: str
    flow_changes: int
    switches: int
    response_ms: float


def parse_url(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of ``http://HOST:PORT``; ValueError with the expected form."""
    usage = ("the controller URL must be http://HOST:PORT, e.g. http://[fd6e:7073:ffff::c0]:8080,"
             f" not '{url}'")
    try:
        u = urlsplit(url.strip())
        port = u.port
    except ValueError:
        raise ValueError(usage) from None
    if u.scheme not in ("http", "https") or not u.hostname or u.path not in ("", "/") or u.query:
        raise ValueError(usage)
    return u.scheme, u.hostname, port or (443 if u.scheme == "https" else 80)


class ControllerClient:
    """One controller; each request opens its own connection, so it is thread-safe."""

    def __init__(self, url: str, timeout: float = 30.0, host_unknown_window: float = 5.0,
                 rate_limit_retries: int = 10, max_retry_after: float = 2.0, announcer=None,
                 token: str | None = None, ca: str | None = None,
                 ssl_context: ssl.SSLContext | None = None):
        """``token``: the bearer token of a controller started with ``--auth``
        (docs/security-rest.md); default: the NPS_TOKEN environment variable, else none.
        For an https URL, ``ca`` is the CA certificate file (PEM) that signed the controller's
        certificate (default: the NPS_CA environment variable, else the system's CAs), or
        ``ssl_context`` a context of one's own."""
        self.scheme, self.hostname, self.port = parse_url(url)
        ca = os.environ.get("NPS_CA") or None if ca is None else ca
        if ssl_context is None and ca:
            ssl_context = ssl.create_default_context(cafile=ca)
        self.ssl_context = ssl_context
        token = os.environ.get("NPS_TOKEN") if token is None else token
        token = (token or "").strip()
        if any(not 0x21 <= ord(c) <= 0x7e for c in token):
            raise ValueError("a token is printable ASCII without spaces")
        self.token = token or None
        self.url = url.strip().rstrip("/")
        self.timeout = timeout
        self.host_unknown_window = host_unknown_window
        self.rate_limit_retries = rate_limit_retries
        self.max_retry_after = max_retry_after
        self.announce = announcer or hosts.announce
        self.index_version = 0  # of the last GET /v1/pubsub; 0: none yet
        self._index_listeners = []

    def pubsub_config(self) -> PubSubConfig:
        """``GET /v1/pubsub``: the schema and index, to address events as the controller does.

        When its index version differs from the last one fetched, the listeners of
        :meth:`on_index_change` get the new configuration."""
        answer = self.call("GET", "/v1/pubsub")
        try:
            config = PubSubConfig.from_answer(answer)
        except ValueError as e:
            raise ControllerError("GET /v1/pubsub", 200, f"unusable answer: {e}") from None
        version = int((answer.get("index") or {}).get("version", 0))
        before, self.index_version = self.index_version, version
        if before and before != version:
            for listener in list(self._index_listeners):
                listener(config)
        return config

    def on_index_change(self, listener):
        """Calls ``listener(config)`` when a fetch finds a new index version; returns the
        function that unregisters it."""
        self._index_listeners.append(listener)
        return lambda: self._index_listeners.remove(listener)

    def advertise(self, host: str, filter: str) -> Registration:
        answer = self.call("POST", "/v1/advertisements", {"host": host, "filter": filter}, host)
        return _registration(answer, -1, "POST /v1/advertisements")

    def subscribe(self, host: str, filter: str, port: int) -> Registration:
        if not 1 <= port <= 65535:
            raise ValueError(f"port {port} is not a UDP port")
        answer = self.call("POST", "/v1/subscriptions",
                           {"host": host, "filter": filter, "port": port}, host)
        return _registration(answer, port, "POST /v1/subscriptions")

    def report_stats(self, id: str, received: int, false_positives: int) -> None:
        """``POST /v1/subscriptions/{id}/stats``: what the subscriber received and dropped as
        false positives since it subscribed (cumulative; the controller keeps the last)."""
        self.call("POST", "/v1/subscriptions/" + quote(id, safe="") + "/stats",
                  {"received": received, "false_positives": false_positives})

    def unadvertise(self, id: str) -> Removal:
        return self._removal(id, "/v1/advertisements/")

    def unsubscribe(self, id: str) -> Removal:
        return self._removal(id, "/v1/subscriptions/")

    def _removal(self, id: str, prefix: str) -> Removal:
        n = self.call("DELETE", prefix + quote(id, safe=""))
        return Removal(str(n.get("id", id)), int(n.get("flow_changes", 0)),
                       int(n.get("switches", 0)), float(n.get("response_ms", 0.0)))

    def call(self, method: str, path: str, body: dict | None = None, host: str | None = None):
        """One request with the retries; the answer's JSON object."""
        request = f"{method} {path}"
        announce_deadline = None
        backoff = 0.05
        rate_limited = 0
        refetched = False
        while True:
            status, headers, text = self._send(method, path, body, request)
            if 200 <= status < 300:
                try:
                    answer = json.loads(text)
                except ValueError as e:
                    raise ControllerError(request, status, f"malformed JSON answer: {e}") from None
                if not isinstance(answer, dict):
                    raise ControllerError(request, status, "the answer is not a JSON object")
                return answer
            if status == 429:
                wait = self._retry_after(rate_limited, headers.get("Retry-After"))
                rate_limited += 1
                if wait is None:
                    raise ControllerError.from_answer(request, status, text)
                time.sleep(wait)
                continue
            if status == 409 and headers.get(VERSION_HEADER) is not None:
                if refetched:  # stale again: not a host to announce
                    raise ControllerError.from_answer(request, status, text)
                refetched = True  # a stale index: fetch the current one, retry once
                self.pubsub_config()
                continue
            if status == 409 and host is not None:
                now = time.monotonic()
                if announce_deadline is None:
                    announce_deadline = now + self.host_unknown_window
                if now < announce_deadline:
                    self.announce(host)
                    time.sleep(max(0.001, min(backoff, announce_deadline - now)))
                    backoff = min(backoff * 2, 0.5)
                    continue
            raise ControllerError.from_answer(request, status, text)

    def _retry_after(self, attempt: int, header: str | None) -> float | None:
        if attempt >= self.rate_limit_retries:
            return None
        wait = 0.2
        if header:
            try:
                wait = float(header)
            except ValueError:
                try:
                    wait = email.utils.parsedate_to_datetime(header).timestamp() - time.time()
                except (TypeError, ValueError):
                    wait = 0.2
        return min(max(wait, 0.0), self.max_retry_after)

    def _send(self, method: str, path: str, body: dict | None, request: str):
        if self.scheme == "https":
            connection = http.client.HTTPSConnection(self.hostname, self.port,
                                                     timeout=self.timeout, context=self.ssl_context)
        else:
            connection = http.client.HTTPConnection(self.hostname, self.port, timeout=self.timeout)
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.index_version:
            headers[VERSION_HEADER] = str(self.index_version)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            return response.status, response.headers, response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException) as e:
            raise ControllerError(request, ControllerError.UNREACHABLE,
                                  f"{self.url}: {e or type(e).__name__}") from None
        finally:
            connection.close()


def _registration(n: dict, port: int, request: str) -> Registration:
    if n.get("id") is None:
        raise ControllerError(request, 200, "the answer has no 'id'")
    return Registration(str(n["id"]), str(n.get("host", "")), str(n.get("filter", "")),
                        int(n.get("port", port)), int(n.get("cells", 0)),
                        int(n.get("flow_changes", 0)), int(n.get("switches", 0)),
                        float(n.get("response_ms", 0.0)))
