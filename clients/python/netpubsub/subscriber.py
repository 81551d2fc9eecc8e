"""A subscriber: binds a UDP port, subscribes its filter for it, and checks the exact filter on
what arrives, as the Java ``Subscriber``. Iterate over it, or give ``on_delivery``.

Every datagram is decoded; one that does not decode (truncated, another schema, a bad varint …)
is counted as ``malformed`` and skipped, never raised into the application's loop. An event the
filter does not match (the subscription's cells are coarser than the filter) is counted as a
false positive and skipped. Every ``stats_interval`` seconds (default 5; 0: never) and when closed,
the subscriber reports received and false positives to the controller (``POST
/v1/subscriptions/{id}/stats``), which shows what the network lets through.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from typing import NamedTuple

from . import host as hosts
from . import local
from .codec import EventCodec
from .controller import ControllerClient, Registration
from .errors import DecodeError
from .evaluator import Filter
from .event import Event

LOG = logging.getLogger("netpubsub")
RECEIVE_BUFFER = 4 << 20
STATS_INTERVAL = 5.0
_POLL = 0.2  # how often a blocked receive looks at close()


class Delivery(NamedTuple):
    """Immutable; a named tuple rather than a frozen dataclass, whose __init__ costs twice as
    much per delivered event."""

    event: Event
    latency_ns: int  # receive time - the publisher's timestamp, both wall clock
    received_at_ns: int


class Stats:
    __slots__ = ("received", "delivered", "false_positives", "malformed")

    def __init__(self):
        self.received = self.delivered = self.false_positives = self.malformed = 0

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}

    def __repr__(self):
        return f"Stats({self.as_dict()})"


class ReceivePath:
    """What a subscriber does with each datagram, without I/O: decode, exact filter, count."""

    def __init__(self, schema, filter: Filter):
        self.codec = EventCodec(schema)
        self.filter = filter
        self.stats = Stats()
        # The generated decoder and the compiled filter themselves: one call each per datagram.
        self._decode = self.codec._decode
        self._match = filter._match

    def handle(self, data: bytes, received_at: int) -> Delivery | None:
        stats = self.stats
        stats.received += 1
        try:
            event = self._decode(data)
        except DecodeError as e:
            stats.malformed += 1
            LOG.debug("malformed datagram: %s", e)
            return None
        if not self._match(event.values):
            stats.false_positives += 1
            return None
        stats.delivered += 1
        return Delivery(event, received_at - event.timestamp_ns, received_at)


class Subscriber:
    """``Subscriber(url, filter)``: live (subscribed, flows acknowledged) once constructed."""

    def __init__(self, controller, filter: str, host: str | None = None, port: int = 0,
                 on_delivery=None, config=None, receive_buffer: int = RECEIVE_BUFFER,
                 stats_interval: float = STATS_INTERVAL):
        if stats_interval < 0:
            raise ValueError("stats_interval must not be negative")
        self.controller = controller if isinstance(controller, ControllerClient) else (
            ControllerClient(controller))
        self.config = config or self.controller.pubsub_config()
        self.schema = self.config.schema
        self.filter = Filter(self.schema, filter)  # FilterError before anything is registered
        if self.filter.stateful:
            raise ValueError("a subscription cannot use stateful aggregates (count, sum, avg): "
                             "hosts check filters per event")
        self.path = ReceivePath(self.schema, self.filter)
        self.stats = self.path.stats
        self._closed = False
        self._stopping = False
        self._thread = None
        self._reported = -1
        self._report_lock = threading.Lock()
        self._closing = threading.Event()
        self._socket = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        try:
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
            self._socket.bind(("::", port))
            self._socket.settimeout(_POLL)
            self.port = self._socket.getsockname()[1]
            if self.config.local_switch is not None:  # a local network, docs/local.md
                self.host = local.attach(self.config.local_switch, host)[0]
            else:
                self.host = host or hosts.detect(self.controller.url)
            self.subscription: Registration = self.controller.subscribe(
                self.host, filter, self.port)
        except BaseException:
            self._socket.close()
            raise
        if on_delivery is not None:
            self._thread = threading.Thread(target=self._run, args=(on_delivery,),
                                            name=f"netpubsub-sub-{self.port}", daemon=True)
            self._thread.start()
        self._reporter = None
        if stats_interval > 0:
            self._reporter = threading.Thread(target=self._report_loop, args=(stats_interval,),
                                              name=f"netpubsub-stats-{self.port}", daemon=True)
            self._reporter.start()

    def _report_loop(self, interval: float):
        while not self._closing.wait(interval):
            self.report_stats()

    def report_stats(self):
        """Sends received and false positives if they changed since the last report; a failure
        is logged, and the next report carries the counts (they are cumulative)."""
        with self._report_lock:
            s = self.stats
            received = s.delivered + s.false_positives
            if received == self._reported:
                return
            try:
                self.controller.report_stats(self.subscription.id, received, s.false_positives)
                self._reported = received
            except Exception as e:  # noqa: BLE001 - reporting never stops the subscriber
                LOG.debug("stats of %s not reported: %s", self.subscription.id, e)

    def receive(self, timeout: float | None = None) -> Delivery | None:
        """The next delivery, or None after ``timeout`` seconds (None: wait) or once closed."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._stopping:
            try:
                data = self._socket.recv(65535)
            except socket.timeout:
                if deadline is not None and time.monotonic() >= deadline:
                    return None
                continue
            except OSError:
                if self._stopping:
                    return None
                raise
            d = self.handle(data, time.time_ns())
            if d is not None:
                return d
        return None

    def handle(self, data: bytes, received_at: int) -> Delivery | None:
        """One datagram: the delivery, or None (counted) when malformed or a false positive."""
        return self.path.handle(data, received_at)

    def __iter__(self):
        return self

    def __next__(self) -> Delivery:
        d = self.receive()
        if d is None:
            raise StopIteration
        return d

    def _run(self, on_delivery):
        while not self._stopping:
            d = self.receive()
            if d is None:
                return
            try:
                on_delivery(d)
            except Exception:  # the application's error must not stop the receive thread
                LOG.exception("the delivery callback failed")

    def stop(self):
        """Ends the iteration and the callbacks within 0.2 s, keeping the subscription (safe
        from a signal handler); ``close()`` then withdraws it."""
        self._stopping = True

    def close(self):
        """Unsubscribes and releases the socket (and the callback thread), even when the
        controller refuses the removal; its ControllerError is raised after the clean-up."""
        if self._closed:
            return
        self._closed = self._stopping = True
        self._closing.set()
        if self._reporter is not None:
            self._reporter.join()
            self.report_stats()
        try:
            self.controller.unsubscribe(self.subscription.id)
        finally:
            if self._thread is not None and self._thread is not threading.current_thread():
                self._thread.join()
            self._socket.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
