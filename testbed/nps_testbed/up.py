"""`nps-testbed up`: bring a topology up, write the state file, print {"event":"up"}, run until
SIGTERM/SIGINT/SIGHUP (`nps-testbed down` or Ctrl-C), then tear everything down."""

from __future__ import annotations

import json
import os
import resource
import signal
import time

from . import clean, naming, ovs, state
from .relay import ApiRelay
from .system import log
from .topologies import Topology


class Shutdown(Exception):
    """A stop signal arrived."""


def _on_signal(signum, _frame):
    raise Shutdown(signal.Signals(signum).name)


def emit(event: dict) -> None:
    print(json.dumps(event), flush=True)


def up(topology: Topology, controller: str | None, api: tuple[str, int] | None,
       wait_connected: float, ready_timeout: float) -> int:
    """controller None means standalone (self-test) mode. Returns the exit code."""
    lock = state.acquire_lock()
    if lock is None:
        log(f"a test bed is already up (pid {state.read_pid()}); run `nps-testbed down` first")
        return 1
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, _on_signal)
    started = time.monotonic()
    relay, code = None, 0
    try:
        leftovers = clean.sweep(stop_up=False)
        if leftovers["bridges"] or leftovers["links"] or leftovers["processes"]:
            log(f"removed leftovers of an earlier run: {leftovers}")
        state.write_pid(os.getpid())
        _raise_fd_limit()
        ovs.ensure_running()
        from .net import Network  # Mininet is imported only by the commands that need it

        log(f"building {topology.name}: {len(topology.switches)} switches, {len(topology.hosts)} hosts")
        network = Network(topology, controller)
        network.build()
        relay = _start_relay(api)
        connected = _wait_ready(network, controller, wait_connected, ready_timeout)
        doc = state_document(topology, controller, network, api if relay else None, connected)
        state.write_state(doc)
        emit({"event": "up", "topology": topology.name, "switches": len(topology.switches),
              "hosts": len(topology.hosts), "switch_links": len(topology.switch_links()),
              "controller": controller, "standalone": controller is None, "connected": connected,
              "api": doc["management"]["api"], "state": state.STATE_FILE, "pid": os.getpid(),
              "seconds": round(time.monotonic() - started, 1)})
        while True:
            signal.pause()
    except Shutdown as s:
        log(f"{s}: tearing down")
    except Exception as e:  # noqa: BLE001 - any failure must still tear down
        log(f"failed: {e}")
        code = 1
    finally:
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN)
        if relay:
            relay.close()
        clean.sweep(stop_up=False)
        emit({"event": "down", "topology": topology.name})
        lock.close()
    return code


def _raise_fd_limit() -> None:
    """Every Mininet node holds a pty; a 143-switch zoo network needs more than 1024 descriptors."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))


def _start_relay(api: tuple[str, int] | None) -> ApiRelay | None:
    if api is None:
        return None
    try:
        return ApiRelay(naming.MGMT_ROOT_ADDRESS, api[1], api[0], api[1])
    except OSError as e:
        log(f"api relay on [{naming.MGMT_ROOT_ADDRESS}]:{api[1]} not started ({e}); "
            "the controller must listen on the management address itself")
        return None


def _wait_ready(network, controller: str | None, wait_connected: float, ready_timeout: float) -> int:
    """Standalone: until RSTP has converged. With a controller: optionally until all are connected."""
    bridges = [s.name for s in network.switches.values()]
    if controller is None:
        ports = network.switch_ports()
        ovs.wait(lambda: ovs.rstp_settled(ports), ready_timeout, "the spanning tree")
        return 0
    if wait_connected > 0:
        ovs.wait(lambda: ovs.connected_count(bridges) == len(bridges), wait_connected,
                 "every switch to connect to the controller")
    return ovs.connected_count(bridges)


def state_document(topology: Topology, controller: str | None, network, api, connected: int) -> dict:
    """The state file: everything a test needs to address hosts and switches."""
    hosts = []
    for h in topology.hosts:
        switch, port = topology.attachment(h.name)
        hosts.append({
            "name": h.name, "address": naming.data_address(h.name), "prefix_len": naming.DATA_PREFIX_LEN,
            "mac": naming.data_mac(h.name), "link_local": naming.link_local(naming.data_mac(h.name)),
            "interface": naming.DATA_IF, "management_address": naming.mgmt_address(h.name),
            "management_interface": naming.MGMT_IF, "pid": network.hosts[h.name].pid,
            "switch": switch, "port": port})
    switches = []
    for s in topology.switches:
        ports = [{"port": port, "interface": naming.switch_port_if(s.name, port), "peer": peer,
                  "peer_port": peer_port if peer.startswith("s") else None}
                 for port, peer, peer_port in topology.ports(s.name)]
        switches.append({"name": s.name, "bridge": naming.bridge(s.name), "dpid": s.dpid,
                         "role": s.role, "pod": s.pod, "label": s.label, "ports": ports})
    links = [{"a": link.a, "a_port": link.a_port, "b": link.b,
              "b_port": link.b_port if link.is_switch_link else None,
              "kind": "switch" if link.is_switch_link else "host"} for link in topology.links]
    return {
        "version": 1, "topology": topology.name, "pid": os.getpid(),
        "controller": controller, "standalone": controller is None, "connected": connected,
        "data": {"prefix": f"{naming.DATA_PREFIX}/{naming.DATA_PREFIX_LEN}", "interface": naming.DATA_IF},
        "management": {
            "bridge": naming.MGMT_BRIDGE, "address": naming.MGMT_ROOT_ADDRESS,
            "prefix": f"{naming.MGMT_PREFIX}/{naming.MGMT_PREFIX_LEN}", "interface": naming.MGMT_IF,
            "api": f"http://[{naming.MGMT_ROOT_ADDRESS}]:{api[1]}" if api else None,
            "api_target": f"{api[0]}:{api[1]}" if api else None},
        "hosts": hosts, "switches": switches, "links": links,
    }
