"""A publisher: advertises a filter, then sends every event as one UDP datagram to its address
(the content address under PLEROMA routing), as the Java ``Publisher``."""

from __future__ import annotations

import logging
import operator
import secrets
import socket
import threading
import time

from . import host as hosts
from . import local
from .codec import EventCodec
from .controller import ControllerClient, Registration
from .evaluator import Filter
from .event import Event, values_of

LOG = logging.getLogger("netpubsub")
DEFAULT_LINGER = 0.2
LOCAL_LINGER = 1.0


class Publisher:
    """``Publisher(url).advertise(filter)``, then ``publish(attrs, payload)``.

    Without ``advertise`` the first ``publish`` advertises ``true`` (the whole event space).
    ``destination=(address, port)`` sends to that unicast address instead (tests without
    switches). ``close()`` waits until ``linger`` seconds have passed since the last event (the
    datagrams still in the switches would lose their paths), then unadvertises.
    """

    def __init__(self, controller, host: str | None = None, config=None, destination=None,
                 hops: int = 16, linger: float = DEFAULT_LINGER, publisher_id: int | None = None):
        self.controller = controller if isinstance(controller, ControllerClient) else (
            ControllerClient(controller))
        self.config = config or self.controller.pubsub_config()
        self.schema = self.config.schema
        self.codec = EventCodec(self.schema)
        # The generated encoder itself (a bytearray, no copy): the values are already counted.
        self._encode = self.codec._encode
        cable = None
        if self.config.local_switch is not None:
            # A local network (docs/local.md): the local switch gives the host and its cable.
            self.host, cable = local.attach(self.config.local_switch, host)
            if linger == DEFAULT_LINGER:
                linger = LOCAL_LINGER  # the local switch may lag behind a burst
        else:
            self.host = host or hosts.detect(self.controller.url)
        self.destination = destination or cable
        self.linger = linger
        self.publisher_id = secrets.randbits(64) if publisher_id is None else publisher_id
        self.sequence = 0
        self.advertisement: Registration | None = None
        self._filter: Filter | None = None
        self._match = None  # the advertisement's compiled test of values
        self._names = [a.name for a in self.schema.attributes]
        # attrs -> its values in schema order in one C call (a 1-tuple for one attribute).
        self._pick = (operator.itemgetter(*self._names) if len(self._names) > 1 else
                      lambda attrs, name=self._names[0]: (attrs[name],))
        self._addresses: dict[int, tuple[str, int]] = {}
        self._stop_listening = self.controller.on_index_change(self._use_index)
        self._lock = threading.Lock()
        self._last_sent = None
        self._closed = False
        if not 1 <= hops <= 255:
            raise ValueError(f"multicast hops must be in 1..255, got {hops}")
        self._socket = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        try:
            self._socket.bind((cable[0] if cable else self.host, 0))
            if self.destination is not None:
                self._socket.connect(self.destination)  # send: no address to parse per event
            if self.destination is None:
                name, index = hosts.interface_of(self.host)
                self._socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, index)
                self._socket.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, hops)
                LOG.info("publishing from %s on %s (index %d) to content addresses, UDP port %d, "
                         "hops %d", self.host, name, index, self.config.event_port, hops)
        except BaseException:
            self._socket.close()
            raise
        self._sendto, self._send_data = self._socket.sendto, self._socket.send

    def advertise(self, filter: str = "true") -> Registration:
        """Registers the advertisement (replacing an earlier one); events must match it.

        Raises FilterError (parsed locally first, with Java's message and column) or
        ControllerError."""
        parsed = Filter(self.schema, filter)
        if parsed.stateful:
            raise ValueError("an advertisement cannot use stateful aggregates (count, sum, avg): "
                             "hosts check filters per event")
        registration = self.controller.advertise(self.host, filter)
        old, self.advertisement, self._filter = self.advertisement, registration, parsed
        self._match = parsed._match
        if old is not None:
            self.controller.unadvertise(old.id)
        return registration

    def publish(self, attrs: dict, payload: bytes = b"") -> Event:
        """Stamps (publisher id, next sequence, wall-clock ns) and sends one event; the stamped
        event. ValueError naming the attribute when ``attrs`` does not fit the schema or the
        event is outside the advertisement."""
        return self._send(self._values(attrs), payload)

    def publish_values(self, values: list, payload: bytes = b"") -> Event:
        """``publish`` with the values in schema order."""
        return self._send(self._checked(values), payload)

    def publish_many(self, batch) -> int:
        """``publish`` of every item of ``batch``, an attrs dict or an ``(attrs, payload)`` tuple,
        under one lock and without building the stamped events: the number sent. On a bad
        event the ones before it are sent (``sequence`` counts them) and the error is raised."""
        if self._match is None:
            self.advertise("true")
        values, emit, n = self._values, self._emit, 0
        with self._lock:
            for item in batch:
                if item.__class__ is tuple:
                    emit(values(item[0]), item[1])
                else:
                    emit(values(item), b"")
                n += 1
        return n

    def _values(self, attrs: dict) -> list:
        """The values of ``attrs`` in schema order; ValueError naming the attribute that is
        missing or unknown (the values themselves are checked by the encoder)."""
        try:
            values = list(self._pick(attrs))
        except (KeyError, TypeError):
            return values_of(self.schema, attrs)
        if len(attrs) != len(values):
            values_of(self.schema, attrs)
        return values

    def _checked(self, values) -> list:
        if len(values) != len(self._names):
            raise ValueError(f"{len(values)} values for the {len(self._names)} attributes of "
                             f"{self.schema.name}")
        return list(values)

    def _send(self, values: list, payload: bytes) -> Event:
        if self._match is None:
            self.advertise("true")
        with self._lock:
            sequence, now = self._emit(values, payload)
        return Event(self.schema, values, bytes(payload), self.publisher_id, sequence, now)

    def _emit(self, values: list, payload: bytes) -> tuple[int, int]:
        """Stamps, checks, encodes and sends one event, holding the lock: (sequence, time)."""
        if self._closed:
            raise RuntimeError("publisher is closed")
        sequence = self.sequence + 1
        now = time.time_ns()
        data = self._encode(values, payload, self.publisher_id, sequence, now)
        if not self._match(values):
            raise ValueError(f"event {dict(zip(self._names, values))} is outside the "
                             f"advertisement '{self._filter.text}'")
        to = self.destination
        try:
            if to is None:
                address = self.config.address(values)
                to = self._addresses.get(address) or self._address_text(address)
                self._sendto(data, to)
            else:
                # A connected socket reports an earlier datagram's ICMP "port unreachable" on a
                # later send, which sendto never did: that datagram is lost either way, so this
                # one is sent again.
                try:
                    self._send_data(data)
                except ConnectionRefusedError:
                    self._send_data(data)
        except OSError as e:
            raise OSError(f"cannot send the event to {to}: {e}") from e
        self.sequence = sequence
        self._last_sent = now  # wall clock, as stamped: one clock read per event
        return sequence, now

    def _use_index(self, config):
        """The controller switched its layout (a new index version): address events with it."""
        if [a.name for a in config.schema.attributes] == self._names:
            self.config = config
            self._addresses = {}  # the event port may have changed

    def _address_text(self, address: int) -> tuple[str, int]:
        """sendto's (text, port) of an address, cached: formatting it is slow."""
        if len(self._addresses) > 65536:
            self._addresses.clear()
        to = (socket.inet_ntop(socket.AF_INET6, address.to_bytes(16, "big")),
              self.config.event_port)
        self._addresses[address] = to
        return to

    def close(self):
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stop_listening()
        if self._last_sent is not None:
            # The wall clock (one read per event, the stamp): never more than linger if it
            # stepped back since.
            wait = min(self.linger, (self._last_sent - time.time_ns()) / 1e9 + self.linger)
            if wait > 0:
                time.sleep(wait)
        try:
            if self.advertisement is not None:
                self.controller.unadvertise(self.advertisement.id)
        finally:
            self._socket.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
