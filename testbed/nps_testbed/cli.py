"""Command line of nps-testbed. Exit codes: 0 success, 1 failure, 2 bad usage or input."""

from __future__ import annotations

import argparse
import os
import re
import sys

from . import commands, state, topologies
from .system import CommandError, in_host_netns, log

DEFAULT_CONTROLLER = "tcp:127.0.0.1:6653"
DEFAULT_API = "127.0.0.1:8080"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="nps-testbed", description="Emulated OpenFlow 1.3 networks for netpubsub "
                                "(Mininet + Open vSwitch, userspace datapath).")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    up = sub.add_parser("up", help="bring a topology up and run until `down`, Ctrl-C or SIGTERM")
    up.add_argument("--topo", required=True, help="linear:N | tree:D,F | fattree:K | pleroma | zoo:NAME")
    up.add_argument("--controller", default=DEFAULT_CONTROLLER,
                    help=f"OpenFlow controller target, or several separated by commas (default {DEFAULT_CONTROLLER})")
    up.add_argument("--standalone", action="store_true",
                    help="SELF-TEST MODE: no controller; bridges learn MACs (fail-mode standalone, RSTP)")
    up.add_argument("--api", default=DEFAULT_API,
                    help=f"controller REST API that hosts reach through the relay on the management "
                         f"network (default {DEFAULT_API}; 'none' disables the relay)")
    up.add_argument("--wait-connected", type=float, default=0, metavar="SECONDS",
                    help="before reporting up, wait this long for every switch to connect to the controller")
    up.add_argument("--ready-timeout", type=float, default=60, metavar="SECONDS",
                    help="standalone: how long to wait for the spanning tree (default 60)")

    down = sub.add_parser("down", help="stop the running test bed and wait until it is gone")
    down.add_argument("--timeout", type=float, default=60, metavar="SECONDS")

    ex = sub.add_parser("exec", help="run a command in a host's network namespace: exec HOST -- CMD...")
    ex.add_argument("host")
    ex.add_argument("cmd", nargs=argparse.REMAINDER)

    sub.add_parser("hosts", help="list the hosts of the running test bed")

    ln = sub.add_parser("link", help="take a link down or bring it up: link S1 S2 down|up")
    ln.add_argument("a")
    ln.add_argument("b")
    ln.add_argument("state", choices=["down", "up"])

    sw = sub.add_parser("switch", help="fail a switch or recover it: switch S down|up (its links "
                                       "and its controller connection), or cut and restore only "
                                       "its controller connection: switch S disconnect|connect")
    sw.add_argument("name")
    sw.add_argument("state", choices=["down", "up", "disconnect", "connect"])

    sub.add_parser("clean", help="remove everything the test bed ever created (also after a crash)")

    for name, sp in sub.choices.items():
        if name != "exec":
            sp.add_argument("--json", action="store_true", help="machine-readable output")
    return p


def main(argv: list[str]) -> int:
    # `exec` passes everything after HOST through untouched, options included.
    if len(argv) >= 2 and argv[0] == "exec" and not argv[1].startswith("-"):
        args = argparse.Namespace(command="exec", host=argv[1], cmd=argv[2:])
    else:
        args = parser().parse_args(argv)
    try:
        return _dispatch(args)
    except (commands.UsageError, topologies.TopologyError) as e:
        log(str(e))
        return 2
    except state.NotRunning as e:
        log(str(e))
        return 1
    except CommandError as e:
        log(str(e))
        return 1


def _dispatch(args) -> int:
    if args.command == "up":  # bad input is reported (exit 2) before anything else happens
        topology = topologies.parse(args.topo)
        controller = None if args.standalone else _controller(args.controller)
        api = _api(args.api)
    if args.command in ("up", "down", "exec", "link", "switch", "clean") and os.geteuid() != 0:
        log(f"`{args.command}` needs root (network namespaces, Open vSwitch)")
        return 1
    if args.command in ("up", "link", "switch", "clean") and in_host_netns():
        log(f"`{args.command}` must run in the root network namespace, not inside a host")
        return 1
    if args.command == "up":
        from .up import up

        return up(topology, controller, api, args.wait_connected, args.ready_timeout)
    if args.command == "down":
        return commands.down(args.timeout, args.json)
    if args.command == "exec":
        return commands.exec_in_host(args.host, args.cmd)
    if args.command == "hosts":
        return commands.hosts(args.json)
    if args.command == "link":
        return commands.link(args.a, args.b, args.state, args.json)
    if args.command == "switch":
        return commands.switch(args.name, args.state, args.json)
    return commands.clean_all(args.json)


def _controller(targets: str) -> str:
    """tcp:IP:PORT (also tcp:[IPv6]:PORT, ssl:...), as OVS writes controller targets; several
    separated by commas (the processes of a controller cluster: every bridge connects to each)."""
    for target in targets.split(","):
        if not re.fullmatch(r"(tcp|ssl):(\[[0-9a-fA-F:.]+\]|[0-9A-Za-z.\-]+):\d{1,5}", target):
            raise commands.UsageError(f"bad controller '{target}': expected tcp:IP:PORT, e.g. {DEFAULT_CONTROLLER}")
    return targets


def _api(text: str) -> tuple[str, int] | None:
    if text == "none":
        return None
    m = re.fullmatch(r"(\[[0-9a-fA-F:.]+\]|[0-9A-Za-z.\-]+):(\d{1,5})", text)
    if not m or not 0 < int(m.group(2)) < 65536:
        raise commands.UsageError(f"bad --api '{text}': expected HOST:PORT, e.g. {DEFAULT_API}, or none")
    return m.group(1).strip("[]"), int(m.group(2))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
