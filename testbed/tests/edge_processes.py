"""The SNAPS edge processes for the live tests: `nps edge-coordinator` in the root namespace on
the management network (it asks the controller for multicast groups) and `nps edge-agent` in a
host beside that host's broker."""

from __future__ import annotations

import os
import sys

from live import TESTBED, poll

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pubsub import auth  # noqa: E402
from pubsub.datagram_key import key_args  # noqa: E402
from pubsub.session import NPS, JsonLines, client_env  # noqa: E402
from pubsub.snaps_modes import AGENT_PORT, COORDINATOR_PORT, tcp_open  # noqa: E402


def start_coordinator(controller, state: dict, work: str) -> tuple[JsonLines, str]:
    """The coordinator on the management address, once it listens; returns it and its URL."""
    mgmt = state["management"]["address"]
    coordinator = JsonLines([NPS, "edge-coordinator", "--listen", f"[{mgmt}]:{COORDINATOR_PORT}",
                             "--db", f"sqlite:{work}/coordinator.sqlite", "--controller",
                             controller.api, *auth.coordinator_args(bool(controller.headers)),
                             "--json"])
    try:
        poll(lambda: tcp_open(mgmt, COORDINATOR_PORT) or coordinator.proc.poll() is not None, 60,
             "the coordinator listening")
        assert coordinator.proc.poll() is None, coordinator.error_text()
    except BaseException:
        coordinator.terminate()
        raise
    return coordinator, f"http://[{mgmt}]:{COORDINATOR_PORT}"


def start_agent(host: dict, broker: str, coordinator: str, *extra: str) -> JsonLines:
    """`nps edge-agent` in the host, listening on its data address; returns once it started
    (and reported network mode: the coordinator found the controller's groups)."""
    agent = JsonLines([TESTBED, "exec", host["name"], "--", NPS, "edge-agent", "--broker", broker,
                       "--coordinator", coordinator, "--edge", host["name"], "--listen",
                       f"[{host['address']}]:{AGENT_PORT}", *key_args(), "--json", *extra],
                      env=client_env(host["address"]))
    try:
        started = agent.wait_for(lambda o: o.get("kind") == "edge-agent", 120,
                                 f"the agent on {host['name']}")
        assert started["mode"] == "network", started
    except BaseException:
        agent.terminate()
        raise
    return agent
