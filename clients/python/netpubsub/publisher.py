"""A publisher: advertises a filter, then sends every event as one UDP datagram to its address
(the content address under PLEROMA routing), as the Java ``Publisher``. By default the datagrams
are buffered and sent in batches, one ``sendmmsg`` system call each (:mod:`.datagrams`), within
``flush_delay`` of their publication (:mod:`.flusher`)."""

from __future__ import annotations

import logging
import operator
import secrets
import socket
import threading
import time

from . import datagrams
from . import host as hosts
from . import local, publish_path
from .codec import EventCodec
from .controller import ControllerClient, Registration
from .evaluator import Filter
from .event import U64, Event, values_of
from .flusher import FLUSHER

LOG = logging.getLogger("netpubsub")
DEFAULT_LINGER = 0.2
LOCAL_LINGER = 1.0
DEFAULT_BATCH = 64
DEFAULT_FLUSH_DELAY = 0.001
MAX_BATCH = 1024  # sendmmsg sends at most UIO_MAXIOV messages per call
_SCOPE = b"\0\0\0\0"  # a sockaddr_in6's scope id after the address


class Publisher:
    """``Publisher(url).advertise(filter)``, then ``publish(attrs, payload)``.

    Without ``advertise`` the first ``publish`` advertises ``true`` (the whole event space).
    ``destination=(address, port)`` sends to that unicast address instead (tests without
    switches). ``close()`` sends what is pending, waits until ``linger`` seconds have passed
    since the last event (the datagrams still in the switches would lose their paths), then
    unadvertises.

    ``batch=N`` (default 64): ``publish`` buffers the encoded events and sends them with one
    system call when N are pending, on ``flush()``, on ``close()``, and at the latest
    ``flush_delay`` seconds (default 1 ms) after the first of them was published.
    ``batch=False`` (or 0 or 1): every ``publish`` sends its datagram before it returns.
    """

    def __init__(self, controller, host: str | None = None, config=None, destination=None,
                 hops: int = 16, linger: float = DEFAULT_LINGER, publisher_id: int | None = None,
                 batch: int = DEFAULT_BATCH, flush_delay: float = DEFAULT_FLUSH_DELAY):
        batch = DEFAULT_BATCH if batch is True else int(batch)
        if not 0 <= batch <= MAX_BATCH:
            raise ValueError(f"batch must be in 0..{MAX_BATCH}, got {batch}")
        if not 0 <= flush_delay <= 3600:
            raise ValueError(f"flush_delay must be in 0..3600 s, got {flush_delay}")
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
        if not 0 <= self.publisher_id <= U64:
            raise ValueError(f"publisher_id must be in 0..2^64-1, got {self.publisher_id}")
        self.sequence = 0
        self.advertisement: Registration | None = None
        self._filter: Filter | None = None
        self._match = None  # the advertisement's compiled test of values
        self._names = [a.name for a in self.schema.attributes]
        # attrs -> its values in schema order in one C call (a 1-tuple for one attribute).
        self._pick = (operator.itemgetter(*self._names) if len(self._names) > 1 else
                      lambda attrs, name=self._names[0]: (attrs[name],))
        self._address = self.config.address  # values -> the content address (or the layout's)
        self._addresses: dict[int, tuple[str, int]] = {}  # address -> sendto's (text, port)
        self._sockaddrs: dict[int, bytes] = {}  # address -> packed sockaddr_in6 (batches)
        self._head = datagrams.sockaddr_head(self.config.event_port)
        # Buffered publishing: 0 sends every event at once; publish_many batches either way.
        self.batch = batch if batch > 1 else 0
        self._cap = self.batch or DEFAULT_BATCH
        self.flush_delay = flush_delay
        self.unsent = 0  # events that could not be sent (their OSError was raised)
        self._pending: list[bytes] = []  # encoded events not sent yet
        self._pending_to: list[bytes] = []  # their sockaddrs (no destination)
        self._since = 0.0  # time.monotonic() of the pending batch's first event
        self._scheduled = False  # a deadline of this publisher is in the flusher
        self._error: OSError | None = None  # of a flush, raised by the next call
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
        self._sender = datagrams.sender(self._socket, self._cap, self.destination is not None)
        # The generated hot path (publish_path) shadows the reference methods on this instance.
        self.publish, self._enqueue, self._emit_direct = publish_path.generate(self)
        self._emit = self._enqueue if self.batch else self._emit_direct
        if self.batch:
            FLUSHER.publishers.add(self)

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
        event is outside the advertisement. A buffered publisher raises the OSError of events
        of an earlier batch that could not be sent (``flush``); this event was taken.

        Each instance calls its generated twin of this method (:mod:`.publish_path`)."""
        return self._send(self._values(attrs), payload)

    def publish_values(self, values: list, payload: bytes = b"") -> Event:
        """``publish`` with the values in schema order."""
        return self._send(self._checked(values), payload)

    def publish_many(self, batch) -> int:
        """``publish`` of every item of ``batch``, an attrs dict or an ``(attrs, payload)`` tuple,
        under one lock and without building the stamped events, sent in batches (one system
        call each) before it returns: the number published. On a bad event the ones before it
        are sent (``sequence`` counts them) and the error is raised."""
        if self._match is None:
            self.advertise("true")
        values, enqueue, n = self._values, self._enqueue, 0
        with self._lock:
            try:
                for item in batch:
                    if item.__class__ is tuple:
                        enqueue(values(item[0]), item[1])
                    else:
                        enqueue(values(item), b"")
                    n += 1
            finally:
                self._flush_locked()
            self._raise_error()
        return n

    def flush(self):
        """Sends the pending events now. Raises OSError when some could not be sent, here or
        by an earlier flush at the deadline (``unsent`` counts them)."""
        with self._lock:
            self._flush_locked()
            self._raise_error()

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
            if self._error is not None:
                self._raise_error()
        return Event(self.schema, values, bytes(payload), self.publisher_id, sequence, now)

    def _stamp(self, values: list, payload: bytes) -> tuple[bytes, int, int]:
        """Stamps, encodes and checks the next event, holding the lock: (datagram, sequence,
        time); the caller counts it once it is sent or pending."""
        if self._closed:
            raise RuntimeError("publisher is closed")
        sequence = self.sequence + 1
        now = time.time_ns()
        data = self._encode(values, payload, self.publisher_id, sequence, now)
        if not self._match(values):
            self._outside(values)
        return data, sequence, now

    def _outside(self, values: list):
        raise ValueError(f"event {dict(zip(self._names, values))} is outside the "
                         f"advertisement '{self._filter.text}'")

    def _emit_direct(self, values: list, payload: bytes) -> tuple[int, int]:
        """Stamps, checks, encodes and sends one event, holding the lock: (sequence, time)."""
        data, sequence, now = self._stamp(values, payload)
        to = self.destination
        if to is None:
            address = self._address(values)
            to = self._addresses.get(address) or self._address_text(address)
            try:
                self._sendto(data, to)
            except OSError as e:
                self._send_failed(to, e)
        else:
            # A connected socket reports an earlier datagram's ICMP "port unreachable" on a
            # later send, which sendto never did: that datagram is lost either way, so this
            # one is sent again.
            try:
                try:
                    self._send_data(data)
                except ConnectionRefusedError:
                    self._send_data(data)
            except OSError as e:
                self._send_failed(to, e)
        self.sequence = sequence
        self._last_sent = now  # wall clock, as stamped: one clock read per event
        return sequence, now

    @staticmethod
    def _send_failed(to, e: OSError):
        raise OSError(f"cannot send the event to {to}: {e}") from e

    def _enqueue(self, values: list, payload: bytes) -> tuple[int, int]:
        """Stamps, checks and encodes one event into the pending batch, holding the lock:
        (sequence, time). A full batch is sent; the first event of a batch starts its flush
        deadline."""
        data, sequence, now = self._stamp(values, payload)
        if self.destination is None:
            address = self._address(values)
            self._pending_to.append(self._sockaddrs.get(address) or self._sockaddr(address))
        pending = self._pending
        pending.append(data)
        self.sequence = sequence
        self._last_sent = now
        if len(pending) == 1:
            self._start_batch()
        elif len(pending) >= self._cap:
            self._flush_locked()
        return sequence, now

    def _start_batch(self):
        """The first event of a batch starts its flush deadline."""
        self._since = time.monotonic()
        if not self._scheduled:
            self._scheduled = True
            FLUSHER.schedule(self, self._since + self.flush_delay)

    def _flush_locked(self):
        """Sends the pending batch, holding the lock; what could not be sent is counted in
        ``unsent`` and its error kept for ``_raise_error``."""
        pending, to = self._pending, self._pending_to
        if not pending:
            return
        self._pending, self._pending_to = [], []
        failed = self._sender.send(pending, None if self.destination else to)
        if failed:
            self.unsent += len(failed)
            i, e = failed[0]
            where = self.destination or datagrams.name_text(to[i])
            self._error = OSError(e.errno, f"cannot send {len(failed)} of {len(pending)} "
                                           f"events (the first to {where}: {e.strerror})")

    def _raise_error(self):
        error, self._error = self._error, None
        if error is not None:
            raise error

    def _on_deadline(self, now: float):
        """The flusher's call: sends the batch whose first event has waited ``flush_delay``,
        or names the next deadline. An error is raised by this publisher's next call."""
        due = self._since + self.flush_delay  # read without the lock: a busy publisher holds it
        if due > now and self._pending:
            FLUSHER.schedule(self, due)  # a younger batch: no lock hand-over with its thread
            return
        with self._lock:
            if not self._pending or self._closed:
                self._scheduled = False
                return
            due = self._since + self.flush_delay
            if due > now:
                FLUSHER.schedule(self, due)
                return
            self._scheduled = False
            self._flush_locked()
            if self._error is not None:
                LOG.warning("%s", self._error)

    def _sockaddr(self, address: int) -> bytes:
        """The packed sockaddr of an address, cached (at most 65 536, then cleared)."""
        if len(self._sockaddrs) > 65536:
            self._sockaddrs.clear()
        name = self._head + address.to_bytes(16, "big") + _SCOPE
        self._sockaddrs[address] = name
        return name

    def _use_index(self, config):
        """The controller switched its layout (a new index version): address events with it."""
        if [a.name for a in config.schema.attributes] == self._names:
            self.config, self._address = config, config.address
            # the event port may have changed
            self._addresses, self._sockaddrs = {}, {}
            self._head = datagrams.sockaddr_head(config.event_port)

    def _address_text(self, address: int) -> tuple[str, int]:
        """sendto's (text, port) of an address, cached: formatting it is slow."""
        if len(self._addresses) > 65536:
            self._addresses.clear()
        to = (socket.inet_ntop(socket.AF_INET6, address.to_bytes(16, "big")),
              self.config.event_port)
        self._addresses[address] = to
        return to

    def close(self):
        """Sends what is pending, lingers, unadvertises; then raises the OSError of events
        that could not be sent, if any."""
        with self._lock:
            if self._closed:
                return
            self._flush_locked()
            self._closed = True
            error, self._error = self._error, None
        try:
            self._finish()
        finally:
            if error is not None:
                raise error

    def _finish(self):
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
