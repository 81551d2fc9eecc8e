"""The commands other than `up`: down, exec, hosts, link, clean. Each returns an exit code."""

from __future__ import annotations

import json
import os
import signal
import time

from . import clean, naming, state
from .system import CommandError, alive, cmdline, ip_batch, log, run


class UsageError(ValueError):
    """Bad arguments (exit code 2)."""


def down(timeout: float, as_json: bool) -> int:
    """Signals the running `up` and waits until it has torn down and exited."""
    pid = state.read_pid()
    if not pid or not alive(pid):
        _print(as_json, {"event": "down", "was_running": False}, "no test bed is running")
        return 0
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            log(f"`up` (pid {pid}) still running after {timeout:.0f}s; `nps-testbed clean` removes everything")
            return 1
        time.sleep(0.05)
    _print(as_json, {"event": "down", "was_running": True, "pid": pid}, f"test bed (pid {pid}) is down")
    return 0


def host_record(doc: dict, name: str) -> dict:
    for h in doc["hosts"]:
        if h["name"] == name:
            return h
    raise UsageError(f"no host '{name}' in {doc['topology']} (hosts: h1..h{len(doc['hosts'])})")


def exec_in_host(host: str, command: list[str]) -> int:
    """Replaces this process by `nsenter -t PID -n CMD` in the host's network namespace, so the
    command inherits stdio and its exit code is ours."""
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        raise UsageError("exec needs a command: nps-testbed exec HOST -- CMD [ARGS...]")
    try:
        argv = in_host_argv(state.read_state(), host, command)
    except HostGone as e:
        log(str(e))
        return 1
    os.environ["NPS_HOST"] = host
    os.execvp(argv[0], argv)
    return 127  # not reached


class HostGone(RuntimeError):
    """A host's namespace shell is no longer running."""


def in_host_argv(doc: dict, host: str, command: list[str]) -> list[str]:
    """The argv that runs `command` in `host`'s network namespace (`doc`: the test bed's state):
    what `exec` runs, for callers that start many short commands and cannot afford `exec`'s own
    Python start for each (the tests' host-learning pings)."""
    pid = host_record(doc, host)["pid"]
    if not alive(pid) or not any(a == f"mininet:{naming.mininet_name(host)}" for a in cmdline(pid)):
        raise HostGone(f"host {host}'s namespace shell (pid {pid}) is gone; is the test bed still up?")
    return ["nsenter", "-t", str(pid), "-n", "--", *command]


def hosts(as_json: bool) -> int:
    doc = state.read_state()
    if as_json:
        print(json.dumps({"topology": doc["topology"], "controller": doc["controller"],
                          "standalone": doc["standalone"], "management": doc["management"],
                          "hosts": doc["hosts"]}))
        return 0
    print(f"{doc['topology']}  controller {doc['controller'] or 'none (standalone)'}  "
          f"api {doc['management']['api'] or 'none'}")
    print(f"{'host':<6} {'data address':<22} {'mac':<18} {'attached':<10} {'management':<22} pid")
    for h in doc["hosts"]:
        print(f"{h['name']:<6} {h['address']:<22} {h['mac']:<18} {h['switch'] + ':' + str(h['port']):<10} "
              f"{h['management_address']:<22} {h['pid']}")
    return 0


def link(a: str, b: str, updown: str, as_json: bool) -> int:
    """Sets the root-namespace interfaces of the link a-b down or up; OVS reports PORT_STATUS.
    For a host link only the switch's end is switched (the host's end loses carrier with it)."""
    if updown not in ("up", "down"):
        raise UsageError(f"link state must be up or down, not '{updown}'")
    doc = state.read_state()
    found = [x for x in doc["links"] if {x["a"], x["b"]} == {a, b}]
    if not found:
        raise UsageError(f"no link between {a} and {b} in {doc['topology']}")
    names = []
    for x in found:
        for node, port in ((x["a"], x["a_port"]), (x["b"], x["b_port"])):
            if node.startswith("s"):
                names.append(naming.switch_port_if(node, port))
    try:
        ip_batch([f"link set dev {n} {updown}" for n in names])
    except CommandError as e:
        log(str(e))
        return 1
    _print(as_json, {"link": [a, b], "state": updown, "interfaces": names}, f"{a}-{b} {updown} ({' '.join(names)})")
    return 0


def switch(name: str, updown: str, as_json: bool) -> int:
    """A switch failure, or its recovery: every link of the switch (both ends of switch links, the
    switch end of host links) goes down or up, and its OpenFlow connection is cut or restored —
    as when a switch crashes: it forwards nothing and the controller loses it. `disconnect` and
    `connect` cut and restore only the OpenFlow connection: the switch keeps forwarding with the
    flows it holds (fail mode secure), as when the control network fails."""
    doc = state.read_state()
    sw = next((x for x in doc["switches"] if x["name"] == name), None)
    if sw is None:
        raise UsageError(f"no switch {name} in {doc['topology']}")
    if doc["standalone"]:
        raise UsageError("switch failures need a test bed with a controller")
    names = []
    if updown in ("down", "up"):
        for x in doc["links"]:
            if name in (x["a"], x["b"]):
                for node, port in ((x["a"], x["a_port"]), (x["b"], x["b_port"])):
                    if node.startswith("s"):
                        names.append(naming.switch_port_if(node, port))
    bridge = sw["bridge"]
    try:
        if updown in ("down", "disconnect"):
            run(["ovs-vsctl", "del-controller", bridge])
            if names:
                ip_batch([f"link set dev {n} down" for n in names])
        else:
            if names:
                ip_batch([f"link set dev {n} up" for n in names])
            targets = doc["controller"].split(",")  # several: the processes of a cluster
            args = ["ovs-vsctl"]
            for i, t in enumerate(targets):
                args += ["--", f"--id=@c{i}", "create", "Controller", f'target="{t}"', "max_backoff=1000"]
            run(args + ["--", "set", "Bridge", bridge,
                        "controller=" + ",".join(f"@c{i}" for i in range(len(targets)))])
    except CommandError as e:
        log(str(e))
        return 1
    cut = updown in ("down", "disconnect")
    _print(as_json, {"switch": name, "state": updown, "interfaces": names},
           f"{name} {updown} ({len(names)} interfaces, controller connection "
           f"{'cut' if cut else 'restored'})")
    return 0


def clean_all(as_json: bool) -> int:
    summary = clean.sweep(stop_up=True)
    left = clean.leftovers()
    summary["left"] = left
    ok = not any(left.values())
    text = (f"removed {summary['processes']} processes, {summary['bridges']} bridges, "
            f"{summary['links']} links" + ("" if ok else f"; left behind: {left}"))
    _print(as_json, summary, text)
    return 0 if ok else 1


def _print(as_json: bool, doc: dict, text: str) -> None:
    print(json.dumps(doc) if as_json else text, flush=True)
