"""The benchmark's stand-in for a NIC: a network namespace of its own whose one device beside lo
drops every datagram it transmits, so that a publisher's system call pays for the transmit path
alone (on loopback it also runs the receiving side's input).

The device is an ``ifb``: this kernel (and many VM kernels) has no ``dummy`` module, and an ifb
frees every packet that was not redirected to it by tc, at its transmit function, as a dummy
does. Its queueing discipline is replaced by ``noqueue`` (a dummy's default, and what a
multi-queue NIC's fast path costs least like), multicast is switched on so that the kernel's
``ff00::/8`` route sends content addresses out of it, and the address needs no duplicate
detection. Root is not needed where user namespaces are enabled (``unshare -rn``).
"""

from __future__ import annotations

import os
import sys

HOST = "fd00::1"  # the publisher's address on the device
SINK = ("fd00::2", 9)  # a fixed destination behind it (no neighbour discovery: NOARP)
DEVICE = "nps0"
SETUP = (f"ip link set lo up && ip link add {DEVICE} type ifb && "
         f"ip link set {DEVICE} multicast on && ip link set {DEVICE} up && "
         f"tc qdisc replace dev {DEVICE} root noqueue && "
         f"ip -6 addr add {HOST}/64 dev {DEVICE} nodad")
_INSIDE = "NPS_BENCH_NETNS"


def enter():
    """Re-executes this process (same arguments) in a new network namespace set up as above;
    returns only inside it."""
    if os.environ.get(_INSIDE) == "1":
        return
    unshare = ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-rn"]
    os.environ[_INSIDE] = "1"
    argv = [sys.executable, *sys.argv]
    os.execvp(unshare[0], [*unshare, "sh", "-ec", SETUP + ' && exec "$@"', "sh", *argv])
