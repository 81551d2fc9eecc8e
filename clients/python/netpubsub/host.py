"""The host's data address and its announcement, as the Java client finds and announces them.

Detected address: the unique global IPv6 address (ULA included; not loopback, link-local,
site-local or multicast) on an up, non-loopback interface other than the one that routes to the
controller. Linux only (``/proc/net/if_inet6``); elsewhere give ``host=`` explicitly.
"""

from __future__ import annotations

import fcntl
import ipaddress
import logging
import socket
import struct
from urllib.parse import urlsplit

LOG = logging.getLogger("netpubsub")
DISCARD_PORT = 9
_IFF_UP, _IFF_LOOPBACK, _IFF_RUNNING = 0x1, 0x8, 0x40


def _interfaces_v6() -> list[tuple[str, ipaddress.IPv6Address]]:
    out = []
    try:
        with open("/proc/net/if_inet6") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 6:
                    out.append((parts[5], ipaddress.IPv6Address(int(parts[0], 16))))
    except OSError as e:
        raise ValueError(f"cannot list the network interfaces ({e}); give host=") from None
    return out


def _flags(name: str) -> int:
    """SIOCGIFFLAGS: asks the kernel in this process's network namespace (/sys/class/net can
    belong to another one, e.g. after ``nsenter -n``)."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as s:
            raw = fcntl.ioctl(s.fileno(), 0x8913, struct.pack("16sH14x", name.encode()[:15], 0))
            return struct.unpack_from("H", raw, 16)[0]
    except OSError:
        return 0


def _ipv4_interface(address: str) -> str | None:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue
            if socket.inet_ntoa(raw[20:24]) == address:
                return name
    finally:
        s.close()
    return None


def interface_towards(controller_url: str) -> str | None:
    """The interface whose address the kernel would use towards the controller (sends nothing)."""
    host = urlsplit(controller_url).hostname
    if not host:
        return None
    try:
        family, _, _, _, sockaddr = socket.getaddrinfo(host, 9, type=socket.SOCK_DGRAM)[0]
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(sockaddr)
            local = probe.getsockname()[0]
    except OSError:
        return None
    if family == socket.AF_INET:
        return _ipv4_interface(local)
    local6 = ipaddress.IPv6Address(local.split("%")[0])
    for name, address in _interfaces_v6():
        if address == local6:
            return name
    return None


def is_global(a: ipaddress.IPv6Address) -> bool:
    """Java's HostAddressSelector.isGlobal."""
    ipv4_compatible = int(a) >> 32 == 0
    return not (a.is_loopback or a.is_link_local or a.is_site_local or a.is_multicast
                or a.is_unspecified or ipv4_compatible)


def detect(controller_url: str) -> str:
    """The host's data address; ValueError listing the candidates when there is not exactly one."""
    towards = interface_towards(controller_url)
    eligible = []
    for name, address in _interfaces_v6():
        flags = _flags(name)
        up = flags & _IFF_UP and flags & _IFF_RUNNING
        if up and not flags & _IFF_LOOPBACK and is_global(address) and name != towards:
            eligible.append((name, address))
    except_ = "" if towards is None else f" other than {towards} (which reaches the controller)"
    if not eligible:
        raise ValueError(f"no global IPv6 address on an interface{except_}; give the host "
                         "address with host=")
    if len(eligible) > 1:
        found = ", ".join(f"{n} {a}" for n, a in eligible)
        raise ValueError(f"several global IPv6 addresses could be the host's data address "
                         f"({found}); choose one with host=")
    LOG.info("host address %s on %s (the controller is reached through %s)", eligible[0][1],
             eligible[0][0], towards or "an unknown interface")
    return str(eligible[0][1])


def interface_of(host: str) -> tuple[str, int]:
    """(name, index) of the interface holding ``host``."""
    wanted = ipaddress.IPv6Address(host)
    for name, address in _interfaces_v6():
        if address == wanted:
            return name, socket.if_nametoindex(name)
    raise ValueError(f"no interface of this host has the address {host}")


def announce(host: str) -> None:
    """One byte from ``host`` to prefix::fffe of its /64 (discard port): the kernel's neighbour
    solicitation for it tells the controller that the host exists. Never raises."""
    a = ipaddress.IPv6Address(host)
    if a.is_link_local or a.is_loopback or a.is_multicast:
        return
    target = int(a) & ~((1 << 64) - 1) | 0xFFFE
    if target == int(a):
        target ^= 0x3  # the host is ::fffe itself: ::fffd
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) as s:
            s.bind((host, 0))
            s.sendto(b"\0", (str(ipaddress.IPv6Address(target)), DISCARD_PORT))
    except OSError as e:
        LOG.warning("could not announce %s (datagram to %s): %s", host,
                    ipaddress.IPv6Address(target), e)
