"""One test bed for several controllers in turn, within one test module: building and tearing
down a bed takes seconds (a fat tree tens of seconds loaded), and a module whose cases differ
only in the controller's options would otherwise build one per case.

Every controller of the bed listens on the same two ports, so the bridges (max_backoff 1 s)
reconnect to the next one and the bed's API relay for the hosts reaches it. `release` stops the
controller and deletes every bridge's flows and groups: the next controller meets empty tables,
as on a fresh bed, and discovers links and learns hosts itself (`wait_for_network`)."""

from __future__ import annotations

from live import clear_switches
from pubsub.session import Controller, Testbed, free_port


class SharedBed:
    __test__ = False  # not a pytest test class

    def __init__(self, topo: str):
        self.topo = topo
        self.openflow_port = free_port()
        self.api_port = free_port()
        self.testbed: Testbed | None = None

    def controller(self, schema: str | None, *extra: str, log_path: str | None = None) -> Controller:
        """A controller on the bed's ports (the previous one must have been released)."""
        return Controller(schema, *extra, log_path=log_path, openflow_port=self.openflow_port,
                          api_port=self.api_port)

    def up(self, controller: Controller) -> Testbed:
        """The bed, built on first use with this controller; afterwards the bridges reconnect to
        it by themselves."""
        if self.testbed is None:
            self.testbed = Testbed(self.topo, controller)
        return self.testbed

    def release(self, controller: Controller) -> None:
        """The controller stopped and the switches' tables emptied for the next one."""
        controller.terminate()
        if self.testbed is not None:
            clear_switches(s["bridge"] for s in self.testbed.state["switches"])

    def down(self) -> None:
        if self.testbed is not None:
            self.testbed.down()
            self.testbed = None


def shared_bed(topo: str):
    """A module fixture's body: the SharedBed, brought down at the end of the module."""
    bed = SharedBed(topo)
    try:
        yield bed
    finally:
        bed.down()
