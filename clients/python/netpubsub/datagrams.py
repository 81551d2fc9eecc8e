"""Sending a batch of UDP datagrams: ``sendmmsg(2)`` through ctypes on Linux (one system call per
batch of up to ``capacity`` datagrams), a ``send``/``sendto`` loop elsewhere (chosen once, at
import). Either way :func:`send_all` continues partial sends and retries transient errors, and
names every datagram that could not be sent: none is lost silently.

A destination is a packed ``sockaddr_in6`` (:func:`sockaddr`), built once per address by the
publisher and cached: the kernel reads it as it is, with nothing to parse per datagram.
"""

from __future__ import annotations

import ctypes
import errno
import os
import socket
import struct
import sys
from array import array
from itertools import accumulate

# Worth another try: a signal, a full buffer, or (on a connected socket) the ICMP "port
# unreachable" of an earlier datagram, reported on this send although this one is fine.
TRANSIENT = frozenset({errno.EINTR, errno.EAGAIN, errno.ENOBUFS, errno.ECONNREFUSED})
RETRIES = 3
_NAME_LEN = 28  # sizeof(struct sockaddr_in6)


def sockaddr(address: int, port: int) -> bytes:
    """The ``struct sockaddr_in6`` of a 128-bit address and a port (flow info and scope 0)."""
    return (struct.pack("=H", socket.AF_INET6) + struct.pack(">HI", port, 0)
            + address.to_bytes(16, "big") + b"\0\0\0\0")


def sockaddr_head(port: int) -> bytes:
    """The 8 bytes that precede the address in every :func:`sockaddr` of ``port``."""
    return struct.pack("=H", socket.AF_INET6) + struct.pack(">HI", port, 0)


def name_text(name: bytes) -> tuple[str, int]:
    """sendto's ``(text, port)`` of a :func:`sockaddr`."""
    return socket.inet_ntop(socket.AF_INET6, name[8:24]), int.from_bytes(name[2:4], "big")


def send_all(send_some, count: int, retries: int = RETRIES) -> list:
    """Sends datagrams 0..count-1 in order by calls of ``send_some(start)``, which sends from
    ``start`` on and returns how many it sent (at least one) or raises OSError for datagram
    ``start``. A partial send is continued with the rest; a transient error (:data:`TRANSIENT`)
    is retried up to ``retries`` times, any other error skips that datagram. Returns
    ``[(index, OSError)]`` of the datagrams not sent (empty when all were)."""
    failed = []
    start = tries = 0
    while start < count:
        try:
            start += send_some(start)
            tries = 0
        except OSError as e:
            if e.errno in TRANSIENT and tries < retries:
                tries += 1
                continue
            failed.append((start, e))
            start += 1
            tries = 0
    return failed


class LoopSender:
    """One ``send`` (connected) or ``sendto`` per datagram: where sendmmsg is missing."""

    def __init__(self, sock: socket.socket, capacity: int, connected: bool):
        self.capacity = capacity
        self._sock = sock
        self._connected = connected

    def send(self, datas: list, names: list | None) -> list:
        """Sends ``datas`` (to ``names``, one each, unless connected): see :func:`send_all`."""
        if self._connected:
            send = self._sock.send
            return send_all(lambda i: send(datas[i]) and 1, len(datas))
        sendto = self._sock.sendto
        return send_all(lambda i: sendto(datas[i], name_text(names[i])) and 1, len(datas))


class _Iovec(ctypes.Structure):
    _fields_ = [("iov_base", ctypes.c_void_p), ("iov_len", ctypes.c_size_t)]


class _Msghdr(ctypes.Structure):
    _fields_ = [("msg_name", ctypes.c_void_p), ("msg_namelen", ctypes.c_uint32),
                ("msg_iov", ctypes.c_void_p), ("msg_iovlen", ctypes.c_size_t),
                ("msg_control", ctypes.c_void_p), ("msg_controllen", ctypes.c_size_t),
                ("msg_flags", ctypes.c_int)]


class _Mmsghdr(ctypes.Structure):
    _fields_ = [("msg_hdr", _Msghdr), ("msg_len", ctypes.c_uint)]


def _libc_sendmmsg():
    """libc's sendmmsg, or None off Linux or where it is missing."""
    if not sys.platform.startswith("linux") or ctypes.sizeof(_Iovec) != 16:
        return None
    try:
        f = ctypes.CDLL(None, use_errno=True).sendmmsg
    except (OSError, AttributeError):
        return None
    f.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_uint, ctypes.c_int]
    f.restype = ctypes.c_int
    return f


_SENDMMSG = _libc_sendmmsg()
_MSG_SIZE = ctypes.sizeof(_Mmsghdr)


class MmsgSender:
    """sendmmsg(2) over prebuilt arrays: per batch, the datagrams are joined into one buffer
    and the names into another (two copies in C), and the iovecs point into the first; the
    message headers never change (one iovec each, the i-th name slot or none when connected)."""

    def __init__(self, sock: socket.socket, capacity: int, connected: bool):
        self.capacity = capacity
        self._fd = sock.fileno()
        self._msgs = (_Mmsghdr * capacity)()
        self._iov = array("Q", bytes(16 * capacity))  # (base, length) per datagram
        self._names = ctypes.create_string_buffer(_NAME_LEN * capacity)
        self._connected = connected
        iov = self._iov.buffer_info()[0]
        names = ctypes.addressof(self._names)
        for i, m in enumerate(self._msgs):
            m.msg_hdr.msg_iov, m.msg_hdr.msg_iovlen = iov + 16 * i, 1
            if not connected:
                m.msg_hdr.msg_name, m.msg_hdr.msg_namelen = names + _NAME_LEN * i, _NAME_LEN
        self._msgs_at = ctypes.addressof(self._msgs)
        self._grow(65536)

    def _grow(self, size: int):
        self._data = ctypes.create_string_buffer(size)
        self._data_at = ctypes.addressof(self._data)

    def send(self, datas: list, names: list | None) -> list:
        """Sends ``datas`` (at most ``capacity``; to ``names`` unless connected): see
        :func:`send_all`."""
        n = len(datas)
        joined = b"".join(datas)
        if len(joined) > len(self._data):
            self._grow(max(len(joined), 2 * len(self._data)))
        ctypes.memmove(self._data_at, joined, len(joined))
        lengths = array("Q", map(len, datas))
        iov = self._iov
        iov[1:2 * n:2] = lengths
        iov[0:2 * n:2] = array("Q", accumulate(lengths[:-1], initial=self._data_at))
        if not self._connected:
            ctypes.memmove(self._names, b"".join(names), _NAME_LEN * n)
        fd, msgs = self._fd, self._msgs_at

        def send_some(start: int) -> int:
            sent = _SENDMMSG(fd, msgs + start * _MSG_SIZE, n - start, 0)
            if sent < 0:
                code = ctypes.get_errno()
                raise OSError(code, os.strerror(code))
            return sent

        return send_all(send_some, n)


def sender(sock: socket.socket, capacity: int, connected: bool):
    """The fastest sender this system has for ``sock``."""
    kind = MmsgSender if _SENDMMSG is not None else LoopSender
    return kind(sock, capacity, connected)
