"""The asyncio variant: the same publisher and subscriber; REST calls run in a worker thread,
datagrams arrive through the event loop.

::

    async with AsyncSubscriber(url, "price > 500") as sub:
        async for delivery in sub:
            print(delivery.event.attrs)
"""

from __future__ import annotations

import asyncio
import time

from .publisher import Publisher
from .subscriber import Delivery, Subscriber


class _Protocol(asyncio.DatagramProtocol):
    def __init__(self, owner: "AsyncSubscriber"):
        self.owner = owner

    def datagram_received(self, data, addr):
        self.owner._datagram(data)


class AsyncSubscriber:
    """``async with AsyncSubscriber(url, filter) as sub: async for d in sub: …``. Deliveries
    beyond ``queue_size`` unread ones are dropped and counted as ``overflowed``."""

    def __init__(self, controller, filter: str, host: str | None = None, port: int = 0,
                 config=None, queue_size: int = 65536):
        self._args = (controller, filter, host, port, None, config)
        self._queue: asyncio.Queue | None = None
        self._queue_size = queue_size
        self._sub: Subscriber | None = None
        self._transport = None
        self.overflowed = 0

    async def start(self) -> "AsyncSubscriber":
        self._queue = asyncio.Queue(self._queue_size)
        self._sub = await asyncio.to_thread(Subscriber, *self._args)
        sock = self._sub._socket
        sock.setblocking(False)
        loop = asyncio.get_running_loop()
        self._transport, _ = await loop.create_datagram_endpoint(lambda: _Protocol(self),
                                                                 sock=sock)
        return self

    @property
    def stats(self):
        return self._sub.stats

    @property
    def subscription(self):
        return self._sub.subscription

    @property
    def port(self) -> int:
        return self._sub.port

    def _datagram(self, data: bytes):
        d = self._sub.handle(data, time.time_ns())
        if d is not None:
            try:
                self._queue.put_nowait(d)
            except asyncio.QueueFull:
                self.overflowed += 1

    async def receive(self, timeout: float | None = None) -> Delivery | None:
        """The next delivery, or None after ``timeout`` seconds or once closed."""
        try:
            return await asyncio.wait_for(self._queue.get(), timeout)
        except asyncio.TimeoutError:
            return None

    def __aiter__(self):
        return self

    async def __anext__(self) -> Delivery:
        if self._transport is None or self._transport.is_closing():
            raise StopAsyncIteration
        d = await self._queue.get()
        if d is None:  # close() woke us
            raise StopAsyncIteration
        return d

    async def close(self):
        if self._transport is not None:
            self._transport.close()
            try:
                self._queue.put_nowait(None)
            except asyncio.QueueFull:
                pass
        if self._sub is not None:
            await asyncio.to_thread(self._sub.close)

    async def __aenter__(self):
        return await self.start()

    async def __aexit__(self, *exc):
        await self.close()


class AsyncPublisher:
    """``async with AsyncPublisher(url) as pub: await pub.advertise(f); pub.publish(attrs)``.
    ``publish`` does not block (it buffers the datagram, or sends one UDP datagram or a batch
    without waiting), so it is a plain call; ``close`` sends what is pending."""

    def __init__(self, controller, **options):
        self._args = (controller, options)
        self.publisher: Publisher | None = None

    async def start(self) -> "AsyncPublisher":
        controller, options = self._args
        self.publisher = await asyncio.to_thread(Publisher, controller, **options)
        return self

    async def advertise(self, filter: str = "true"):
        return await asyncio.to_thread(self.publisher.advertise, filter)

    def publish(self, attrs: dict, payload: bytes = b""):
        return self.publisher.publish(attrs, payload)

    async def close(self):
        if self.publisher is not None:
            await asyncio.to_thread(self.publisher.close)

    async def __aenter__(self):
        return await self.start()

    async def __aexit__(self, *exc):
        await self.close()
