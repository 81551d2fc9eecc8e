"""The publisher, subscriber and controller client against a stub controller, on loopback
(content addresses need switches: the publisher's destination override sends to the subscriber's
port, as the Java client's tests do)."""

from __future__ import annotations

import asyncio
import queue
import socket
import subprocess
import time

import pytest
from stub_controller import StubController

from netpubsub import (AsyncPublisher, AsyncSubscriber, ControllerClient, ControllerError,
                       EventCodec, FilterError, Publisher, Schema, Subscriber, format_address)
from netpubsub.datagrams import name_text

SCHEMA = Schema.of("quotes", [("symbol", "string", 8), ("price", "int", 0, 100000),
                              ("volume", "int", 0, 1000000)], ["price", "volume"])
TIMEOUT = 10.0


@pytest.fixture
def stub():
    s = StubController(SCHEMA)
    yield s
    s.close()


def _pair(stub, filter, **sub_options):
    sub = Subscriber(stub.url, filter, host="::1", **sub_options)
    pub = Publisher(stub.url, host="::1", destination=("::1", sub.port), linger=0)
    return pub, sub


def test_config_matches_the_controllers_schema(stub):
    config = ControllerClient(stub.url).pubsub_config()
    assert config.schema == SCHEMA and config.index.length == 16 and config.event_port == 7073


def test_a_token_is_sent_as_a_bearer_header(stub, monkeypatch):
    monkeypatch.delenv("NPS_TOKEN", raising=False)
    ControllerClient(stub.url).pubsub_config()
    ControllerClient(stub.url, token="t0k-1").pubsub_config()
    monkeypatch.setenv("NPS_TOKEN", "from-env")
    ControllerClient(stub.url).pubsub_config()
    assert stub.authorizations == [None, "Bearer t0k-1", "Bearer from-env"]
    with pytest.raises(ValueError, match="printable ASCII"):
        ControllerClient(stub.url, token="two words")


def test_https_with_a_ca_file(tmp_path, monkeypatch):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=IP:::1"], check=True, capture_output=True)
    s = StubController(SCHEMA, tls=(str(cert), str(key)))
    try:
        assert s.url.startswith("https://")
        monkeypatch.delenv("NPS_CA", raising=False)
        assert ControllerClient(s.url, ca=str(cert)).pubsub_config().schema == SCHEMA
        monkeypatch.setenv("NPS_CA", str(cert))
        assert ControllerClient(s.url).pubsub_config().schema == SCHEMA
        monkeypatch.delenv("NPS_CA")
        with pytest.raises(ControllerError, match="CERTIFICATE_VERIFY_FAILED"):  # not a known CA
            ControllerClient(s.url).pubsub_config()
    finally:
        s.close()


def test_iterator_delivers_exactly_the_matching_events(stub):
    pub, sub = _pair(stub, "price > 500")
    with pub, sub:
        assert stub.registrations[sub.subscription.id] == {
            "host": "::1", "filter": "price > 500", "port": sub.port}
        pub.advertise("price >= 100")
        sent = [pub.publish({"symbol": "ACME", "price": p, "volume": 7}, b"p%d" % p)
                for p in (100, 600, 400, 700)]
        got = [sub.receive(TIMEOUT) for _ in range(2)]
        assert [d.event for d in got] == [sent[1], sent[3]]
        assert got[0].event.payload == b"p600" and got[0].event.sequence == 2
        assert sub.stats.as_dict() == {"received": 4, "delivered": 2, "false_positives": 2,
                                       "malformed": 0}
    assert stub.registrations == {}  # both withdrawn by close()


def test_publish_many_sends_every_event_of_the_batch_in_order(stub):
    pub, sub = _pair(stub, "price > 500")
    with pub, sub:
        pub.advertise("price >= 100")
        batch = [{"symbol": "A", "price": 600, "volume": 1},
                 ({"symbol": "B", "price": 700, "volume": 2}, b"pay"),
                 {"symbol": "C", "price": 100, "volume": 3}]  # a false positive
        assert pub.publish_many(batch) == 3 and pub.sequence == 3
        got = [sub.receive(TIMEOUT).event for _ in range(2)]
        assert [(e.values, e.payload, e.sequence, e.publisher) for e in got] == [
            (["A", 600, 1], b"", 1, pub.publisher_id), (["B", 700, 2], b"pay", 2, pub.publisher_id)]
        # A bad event stops the batch: the ones before it are sent, the error names it.
        with pytest.raises(ValueError, match="outside the advertisement"):
            pub.publish_many([{"symbol": "D", "price": 800, "volume": 4},
                              {"symbol": "E", "price": 5, "volume": 5},
                              {"symbol": "F", "price": 900, "volume": 6}])
        assert pub.sequence == 4 and sub.receive(TIMEOUT).event.values == ["D", 800, 4]
        with pytest.raises(ValueError, match="volume = 1000001 is outside"):
            pub.publish_many([{"symbol": "G", "price": 800, "volume": 1000001}])
        assert pub.sequence == 4


class _Recorder:
    """A batch sender that keeps each datagram with its destination as sendto's (text, port)
    (loopback has no route to content addresses)."""

    def __init__(self, sent):
        self.sent = sent

    def send(self, datas, names):
        self.sent += [(data, name_text(name)) for data, name in zip(datas, names)]
        return []


@pytest.mark.parametrize("batch", [64, False])
def test_events_go_to_their_content_address(stub, batch):
    """Without a destination each event is sent to its content address (the index's), on the
    controller's event port: what a switch routes on; buffered or not."""
    with Publisher(stub.url, host="::1", linger=0, batch=batch) as pub:
        sent = []
        pub._sendto = lambda data, to: sent.append((data, to))
        pub._sender = _Recorder(sent)
        events = [pub.publish({"symbol": "A", "price": p, "volume": v})
                  for p, v in ((0, 0), (100000, 1000000), (51234, 7), (51234, 7))]
        pub.publish_many([{"symbol": "B", "price": 60000, "volume": 600000}])
        events.append(pub.codec.decode(sent[-1][0]))
        config = pub.config
        assert [to for _, to in sent] == [
            (format_address(config.address(e.values)), config.event_port) for e in events]
        assert [pub.codec.decode(data) for data, _ in sent] == events
        assert len({to for _, to in sent}) == 4


def test_the_subscriber_reports_received_and_false_positives(stub):
    pub, sub = _pair(stub, "price > 500", stats_interval=0.05)
    with pub, sub:
        pub.advertise("true")
        pub.publish({"symbol": "A", "price": 100, "volume": 1})  # a false positive
        pub.publish({"symbol": "A", "price": 900, "volume": 1})
        assert sub.receive(TIMEOUT) is not None
        deadline = time.monotonic() + TIMEOUT
        while stub.stats.get(sub.subscription.id) != {"received": 2, "false_positives": 1}:
            assert time.monotonic() < deadline, stub.stats
            time.sleep(0.01)
    # without periodic reports, closing sends the last counts before unsubscribing
    pub, quiet = _pair(stub, "price > 500", stats_interval=3600)
    with pub, quiet:
        pub.advertise("true")
        pub.publish({"symbol": "A", "price": 1, "volume": 1})
        pub.publish({"symbol": "A", "price": 901, "volume": 1})
        assert quiet.receive(TIMEOUT) is not None
        assert quiet.subscription.id not in stub.stats
    assert stub.stats[quiet.subscription.id] == {"received": 2, "false_positives": 1}
    with pytest.raises(ValueError, match="stats_interval"):
        Subscriber(stub.url, "true", host="::1", stats_interval=-1)


def test_malformed_datagrams_are_counted_and_skipped(stub):
    pub, sub = _pair(stub, "true")
    with pub, sub, socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as raw:
        raw.sendto(b"\x01garbage", ("::1", sub.port))
        good = EventCodec(SCHEMA).encode_values(["X", 1, 2])
        raw.sendto(good[:-1], ("::1", sub.port))
        sent = pub.publish({"symbol": "OK", "price": 1, "volume": 2})
        assert sub.receive(TIMEOUT).event == sent
        assert (sub.stats.malformed, sub.stats.delivered) == (2, 1)


def test_callback_mode_survives_a_failing_callback(stub):
    got = queue.Queue()

    def callback(d):
        got.put(d)
        if d.event["price"] == 1:
            raise RuntimeError("the application's bug")

    pub, sub = _pair(stub, "true", on_delivery=callback)
    with pub, sub:
        pub.publish({"symbol": "A", "price": 1, "volume": 0})
        pub.publish({"symbol": "B", "price": 2, "volume": 0})
        assert [got.get(timeout=TIMEOUT).event["price"] for _ in range(2)] == [1, 2]


def test_bad_filters_raise_before_anything_is_registered(stub):
    with pytest.raises(FilterError) as e:
        Subscriber(stub.url, "price > 10 && colour == 1", host="::1")
    assert (e.value.column, e.value.reason) == (15, "unknown attribute 'colour'")
    assert stub.requests == [("GET", "/v1/pubsub", None)]
    with pytest.raises(ValueError, match="stateful aggregates"):
        Subscriber(stub.url, "count() > 3 over 1s", host="::1")


def test_events_outside_the_advertisement_are_refused(stub):
    with Publisher(stub.url, host="::1", destination=("::1", 9), linger=0) as pub:
        pub.advertise("price < 10")
        with pytest.raises(ValueError, match="outside the advertisement 'price < 10'"):
            pub.publish({"symbol": "A", "price": 11, "volume": 0})
        with pytest.raises(ValueError, match="attribute volume has no value"):
            pub.publish({"symbol": "A", "price": 1})
        with pytest.raises(ValueError, match="unknown attribute colour"):
            pub.publish({"symbol": "A", "price": 1, "volume": 0, "colour": 1})


@pytest.mark.parametrize("batch", [64, 2, False])
def test_a_destination_nobody_listens_on_raises_nothing(stub, batch):
    """The connected socket hears ICMP "port unreachable"; UDP's sendto never raised for it."""
    closed = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    closed.bind(("::1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with Publisher(stub.url, host="::1", destination=("::1", port), linger=0, batch=batch) as pub:
        for i in range(200):
            assert pub.publish({"symbol": "A", "price": i % 100, "volume": 0}).sequence == i + 1
        assert pub.publish_many([{"symbol": "A", "price": 1, "volume": 0}] * 100) == 100
        pub.flush()
        assert pub.unsent == 0


def test_controller_errors_keep_the_json_error(stub):
    error = {"error": "line 1, column 3: unknown attribute 'x'", "column": 3}
    stub.refusals.append((400, error))
    with pytest.raises(ControllerError) as e:
        ControllerClient(stub.url).advertise("::1", "x > 1")
    assert (e.value.status, e.value.reason, e.value.body) == (400, error["error"], error)
    with pytest.raises(ControllerError) as e:
        ControllerClient("http://[::1]:1").pubsub_config()
    assert e.value.status == ControllerError.UNREACHABLE


def test_rate_limits_and_unknown_hosts_are_retried(stub):
    announced = []
    client = ControllerClient(stub.url, announcer=announced.append)
    stub.refusals += [(429, {"error": "slow down"}, [("Retry-After", "0.01")]),
                      (409, {"error": "host ::1 is not known"})]
    registration = client.subscribe("::1", "true", 4000)
    assert registration.id in stub.registrations and announced == ["::1"]
    stub.refusals.append((503, {"error": "no switch is connected yet"}))
    with pytest.raises(ControllerError) as e:
        client.subscribe("::1", "true", 4000)
    assert e.value.status == 503 and e.value.reason == "no switch is connected yet"


def test_asyncio_variant(stub):
    async def main():
        async with AsyncSubscriber(stub.url, "volume == 7", host="::1") as sub:
            async with AsyncPublisher(stub.url, host="::1", destination=("::1", sub.port),
                                      linger=0) as pub:
                await pub.advertise("true")
                pub.publish({"symbol": "A", "price": 1, "volume": 6})
                sent = pub.publish({"symbol": "B", "price": 2, "volume": 7})
                d = await sub.receive(TIMEOUT)
                waiting = asyncio.ensure_future(sub.__anext__())
                await sub.close()  # wakes the iteration
                with pytest.raises(StopAsyncIteration):
                    await asyncio.wait_for(waiting, TIMEOUT)
                return d.event == sent, sub.stats.false_positives

    assert asyncio.run(main()) == (True, 1)


def test_a_stale_index_is_refetched_and_the_request_retried_once(stub):
    client = ControllerClient(stub.url)
    client.pubsub_config()
    seen = []
    client.on_index_change(seen.append)
    stub.index_version = 2  # the controller switched its layout
    stale = {"error": {"code": "conflict", "message": "index version 1 is stale: the current is 2",
                       "field": "Nps-Index-Version"}}
    stub.refusals.append((409, stale, [("Nps-Index-Version", "2")]))
    registration = client.subscribe("::1", "price > 5", 40001)
    assert registration.id in stub.registrations
    assert [r[:2] for r in stub.requests[1:]] == [
        ("POST", "/v1/subscriptions"), ("GET", "/v1/pubsub"), ("POST", "/v1/subscriptions")]
    assert stub.versions_sent[1] == "1" and stub.versions_sent[3] == "2"
    assert client.index_version == 2 and len(seen) == 1
    # once only: a second 409 in a row is the caller's
    stub.refusals += [(409, stale, [("Nps-Index-Version", "3")]), None,
                      (409, stale, [("Nps-Index-Version", "3")])]
    with pytest.raises(ControllerError) as e:
        client.subscribe("::1", "price > 6", 40002)
    assert e.value.status == 409
    assert [r[:2] for r in stub.requests[-3:]] == [
        ("POST", "/v1/subscriptions"), ("GET", "/v1/pubsub"), ("POST", "/v1/subscriptions")]
