"""Batched sending (netpubsub.datagrams) and the buffered publisher: sendmmsg batches arrive
complete and in order, partial sends and transient errors are retried, nothing is lost
silently, and buffered events are sent by flush(), close(), a full batch and the deadline."""

from __future__ import annotations

import errno
import socket
import sys
import time

import pytest
from stub_controller import StubController

from netpubsub import EventCodec, Publisher, Schema
from netpubsub import datagrams
from netpubsub.datagrams import LoopSender, MmsgSender, send_all, sockaddr

SCHEMA = Schema.of("quotes", [("symbol", "string", 8), ("price", "int", 0, 100000),
                              ("volume", "int", 0, 1000000)], ["price", "volume"])
TIMEOUT = 10.0
CODEC = EventCodec(SCHEMA)


@pytest.fixture
def stub():
    s = StubController(SCHEMA)
    yield s
    s.close()


@pytest.fixture
def sink():
    s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    s.bind(("::1", 0))
    s.settimeout(TIMEOUT)
    yield s
    s.close()


def _received(sink, n: int) -> list:
    return [sink.recv(65536) for _ in range(n)]


def _nothing_waiting(sink) -> bool:
    """Loopback delivers within the send call: what was sent is waiting already."""
    sink.settimeout(0)
    try:
        sink.recv(65536)
    except BlockingIOError:
        return True
    finally:
        sink.settimeout(TIMEOUT)
    return False


def test_send_all_continues_partial_sends_and_retries_transient_errors():
    calls, sent = [], []
    transient = {4: [errno.ENOBUFS, errno.EINTR]}  # two transient failures, then it goes

    def send_some(start):
        calls.append(start)
        if transient.get(start):
            raise OSError(transient[start].pop(0), "transient")
        if start == 7:
            raise OSError(errno.EHOSTUNREACH, "no route")
        end = min(start + 4, 7 if start < 7 else 12)  # at most 4 per call, stops before 7
        sent.extend(range(start, end))
        return end - start

    failed = send_all(send_some, 12)
    assert sent == [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11]
    assert [(i, e.errno) for i, e in failed] == [(7, errno.EHOSTUNREACH)]
    assert calls == [0, 4, 4, 4, 7, 8]


def test_send_all_gives_up_on_a_transient_error_that_persists():
    failed = send_all(lambda start: (_ for _ in ()).throw(OSError(errno.ENOBUFS, "full")), 2,
                      retries=3)
    assert [(i, e.errno) for i, e in failed] == [(0, errno.ENOBUFS), (1, errno.ENOBUFS)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sendmmsg is Linux's")
def test_linux_publishers_send_with_sendmmsg(stub, sink):
    with Publisher(stub.url, host="::1", destination=sink.getsockname()[:2], linger=0) as pub:
        assert isinstance(pub._sender, MmsgSender) and pub.batch == 64
    for batch, buffered in ((True, 64), (False, 0), (1, 0), (8, 8)):
        with Publisher(stub.url, host="::1", linger=0, batch=batch) as pub:
            assert pub.batch == buffered
    with pytest.raises(ValueError, match="batch must be in 0..1024"):
        Publisher(stub.url, host="::1", batch=1025)


@pytest.mark.parametrize("kind", [MmsgSender, LoopSender])
def test_a_batch_to_named_destinations_arrives_complete_and_in_order(sink, kind):
    if kind is MmsgSender and datagrams._SENDMMSG is None:
        pytest.skip("no sendmmsg here")
    name = sockaddr(1, sink.getsockname()[1])  # ::1
    with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as s:
        sender = kind(s, 64, connected=False)
        datas = [b"%d:" % i + b"x" * (i * 37 % 300) for i in range(64)]
        assert sender.send(datas, [name] * 64) == []
        assert sender.send(datas[:5], [name] * 5) == []  # fewer, after more: no stale slots
        assert _received(sink, 69) == datas + datas[:5]


def test_publish_many_arrives_complete_and_in_order(stub, sink):
    """150 events: three sendmmsg calls of at most 64 on the publisher's connected socket."""
    events = [{"symbol": "S%d" % (i % 7), "price": i * 611 % 100001, "volume": i}
              for i in range(150)]
    with Publisher(stub.url, host="::1", destination=sink.getsockname()[:2], linger=0,
                   batch=False) as pub:
        assert pub.publish_many([(e, b"p%d" % i) for i, e in enumerate(events)]) == 150
        got = [CODEC.decode(d) for d in _received(sink, 150)]
    assert [(e.attrs, e.payload, e.sequence) for e in got] == [
        (e, b"p%d" % i, i + 1) for i, e in enumerate(events)]


def test_buffered_events_wait_for_a_full_batch_flush_or_close(stub, sink):
    pub = Publisher(stub.url, host="::1", destination=sink.getsockname()[:2], linger=0,
                    batch=4, flush_delay=3600)
    for price in range(3):
        pub.publish({"symbol": "A", "price": price, "volume": 0})
    assert _nothing_waiting(sink)
    pub.publish({"symbol": "A", "price": 3, "volume": 0})  # the fourth: the batch is full
    assert [CODEC.decode(d)["price"] for d in _received(sink, 4)] == [0, 1, 2, 3]
    pub.publish({"symbol": "A", "price": 4, "volume": 0})
    assert _nothing_waiting(sink)
    pub.flush()
    assert CODEC.decode(sink.recv(65536))["price"] == 4
    pub.publish({"symbol": "A", "price": 5, "volume": 0})
    pub.close()
    assert CODEC.decode(sink.recv(65536))["price"] == 5


def test_buffered_events_are_sent_by_the_deadline_without_another_call(stub, sink):
    with Publisher(stub.url, host="::1", destination=sink.getsockname()[:2], linger=0,
                   batch=64, flush_delay=0.001) as pub:
        for round in range(3):  # the deadline is scheduled again for each new batch
            sent = pub.publish({"symbol": "A", "price": round, "volume": 0})
            assert CODEC.decode(sink.recv(65536)) == sent  # recv waits up to TIMEOUT


def test_a_dropped_publisher_still_sends_its_event(stub, sink):
    """``Publisher(url).publish(attrs)``: nothing holds the publisher but its deadline."""
    Publisher(stub.url, host="::1", destination=sink.getsockname()[:2],
              flush_delay=0.001).publish({"symbol": "A", "price": 7, "volume": 0})
    assert CODEC.decode(sink.recv(65536))["price"] == 7


class _Failing:
    """A sender that cannot send the datagrams at the given indexes of each batch."""

    def __init__(self, bad):
        self.bad, self.batches = bad, []

    def send(self, datas, names):
        self.batches.append(list(datas))
        return [(i, OSError(errno.EHOSTUNREACH, "No route to host")) for i in self.bad
                if i < len(datas)]


def test_events_that_cannot_be_sent_are_counted_and_raised(stub, sink):
    pub = Publisher(stub.url, host="::1", destination=sink.getsockname()[:2], linger=0,
                    batch=8, flush_delay=3600)
    pub._sender = _Failing([1, 2])
    with pytest.raises(OSError, match=r"cannot send 2 of 3 events \(the first to .*No route"):
        pub.publish_many([{"symbol": "A", "price": p, "volume": 0} for p in range(3)])
    assert pub.unsent == 2 and pub.sequence == 3
    pub.publish({"symbol": "A", "price": 9, "volume": 0})
    pub.flush()  # a batch of one: index 0 goes
    assert pub.unsent == 2
    pub.publish({"symbol": "A", "price": 9, "volume": 0})
    pub.publish({"symbol": "A", "price": 9, "volume": 0})
    with pytest.raises(OSError, match="cannot send 1 of 2 events"):
        pub.close()  # close still sends, and says what it could not
    assert pub.unsent == 3 and [len(b) for b in pub._sender.batches] == [3, 1, 2]


def test_a_deadline_flush_that_fails_is_raised_by_the_next_call(stub, sink):
    with Publisher(stub.url, host="::1", destination=sink.getsockname()[:2], linger=0,
                   batch=8, flush_delay=0.001) as pub:
        pub._sender = _Failing([0])
        pub.publish({"symbol": "A", "price": 1, "volume": 0})
        deadline = time.monotonic() + TIMEOUT
        while pub.unsent == 0:  # the flusher thread's flush
            assert time.monotonic() < deadline
            time.sleep(0.001)
        with pytest.raises(OSError) as e:
            pub.publish({"symbol": "A", "price": 2, "volume": 0})
        assert e.value.errno == errno.EHOSTUNREACH and pub.sequence == 2
        pub._sender = _Failing([])
