"""The flush deadline of buffered publishers: one daemon thread per process that flushes a
publisher's pending batch once its first event has waited ``flush_delay``.

A publisher schedules itself when an event enters its empty batch and it has no deadline
outstanding; the thread calls ``publisher._on_deadline(now)``, which flushes or names the next
deadline. So the thread wakes at most once per ``flush_delay`` per publisher, and a batch that
fills first is sent by the publishing thread, without any thread switch. A scheduled publisher
is held until its deadline has passed (``Publisher(url).publish(attrs)``, whose publisher is
dropped at once, still sends); at interpreter exit every buffered publisher is flushed.
"""

from __future__ import annotations

import atexit
import heapq
import itertools
import logging
import os
import threading
import time
import weakref

LOG = logging.getLogger("netpubsub")


class Flusher:
    def __init__(self):
        self._reset()
        self.publishers = weakref.WeakSet()  # flushed at exit

    def _reset(self):
        """A fresh start (also in a forked child, which has no flusher thread)."""
        self._cond = threading.Condition()
        self._due: list = []  # heap of (deadline, tie, publisher)
        self._tie = itertools.count()
        self._thread = None

    def schedule(self, publisher, deadline: float):
        """Calls ``publisher._on_deadline`` at ``deadline`` (time.monotonic)."""
        with self._cond:
            tie = next(self._tie)
            heapq.heappush(self._due, (deadline, tie, publisher))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="netpubsub-flusher",
                                                daemon=True)
                self._thread.start()
            elif self._due[0][1] == tie:
                self._cond.notify()  # the earliest deadline now: wake the thread sooner

    def _run(self):
        while True:
            with self._cond:
                while True:
                    left = self._due[0][0] - time.monotonic() if self._due else None
                    if left is not None and left <= 0:
                        break
                    self._cond.wait(left)
                _, _, publisher = heapq.heappop(self._due)
            try:
                publisher._on_deadline(time.monotonic())
            except Exception:  # never kill the thread that bounds every publisher's delay
                LOG.exception("flushing a publisher's batch failed")
            del publisher


FLUSHER = Flusher()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=FLUSHER._reset)


@atexit.register
def _flush_at_exit():
    for publisher in list(FLUSHER.publishers):
        try:
            publisher.flush()
        except Exception as e:  # the process ends: say what was lost, do not mask the exit
            LOG.warning("at exit, a publisher's last batch was not sent: %s", e)
