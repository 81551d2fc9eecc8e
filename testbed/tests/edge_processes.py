"""The SNAPS edge processes for the live tests: `nps edge-coordinator` in the root namespace on
the management network (it asks the controller for multicast groups and, with the session's
principals, holds the datagram key file) and `nps edge-agent` in a host beside that host's broker
(fetching the keys from the coordinator with its host's token)."""

from __future__ import annotations

import os
import sys

from live import TESTBED, poll

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pubsub import auth  # noqa: E402
from pubsub.datagram_key import agent_args, coordinator_file  # noqa: E402
from pubsub.session import NPS, JsonLines, client_env  # noqa: E402
from pubsub.snaps_modes import AGENT_PORT, COORDINATOR_PORT, tcp_open  # noqa: E402


def start_coordinator(controller, state: dict, work: str) -> tuple[JsonLines, str]:
    """The coordinator on the management address, once it listens; returns it and its URL."""
    mgmt = state["management"]["address"]
    coordinator = JsonLines([NPS, "edge-coordinator", "--listen", f"[{mgmt}]:{COORDINATOR_PORT}",
                             "--db", f"sqlite:{work}/coordinator.sqlite", "--controller",
                             controller.api,
                             *auth.coordinator_args(bool(controller.headers), coordinator_file()),
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
    """start_agents for one host."""
    return start_agents([host], broker, coordinator, *extra)[0]


def start_agents(hosts: list[dict], broker: str, coordinator: str, *extra: str) -> list[JsonLines]:
    """`nps edge-agent` in each host, listening on its data address; returns once every one
    started and reported network mode (the coordinator found the controller's groups). The JVMs
    are launched all at once: one start-up's wait instead of one per host."""
    agents = [JsonLines([TESTBED, "exec", h["name"], "--", NPS, "edge-agent", "--broker", broker,
                         "--coordinator", coordinator, "--edge", h["name"], "--listen",
                         f"[{h['address']}]:{AGENT_PORT}", *agent_args(), "--json", *extra],
                        env=client_env(h["address"])) for h in hosts]
    try:
        for h, agent in zip(hosts, agents):
            started = agent.wait_for(lambda o: o.get("kind") == "edge-agent", 120,
                                     f"the agent on {h['name']}")
            assert started["mode"] == "network", started
    except BaseException:
        for agent in agents:
            agent.terminate()
        raise
    return agents
