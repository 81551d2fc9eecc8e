"""Thin wrappers over the commands and /proc files the test bed uses (root namespace side)."""

from __future__ import annotations

import os
import subprocess
import sys

from . import naming


class CommandError(RuntimeError):
    """A system command failed; carries its output."""


def run(args: list[str], check: bool = True, input: str | None = None, timeout: float = 60) -> str:
    """Runs a command, returns stdout; raises CommandError with stderr when it fails and check is set."""
    proc = subprocess.run(args, input=input, capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise CommandError(f"{' '.join(args[:6])}{' ...' if len(args) > 6 else ''}: "
                           f"exit {proc.returncode}: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc.stdout


def ip_batch(commands: list[str], force: bool = False) -> None:
    """Runs many `ip` commands in one process (ip -batch); with force, failures don't stop the rest."""
    if commands:
        run(["ip"] + (["-force"] if force else []) + ["-batch", "-"], check=not force,
            input="\n".join(commands) + "\n")


def log(message: str) -> None:
    """Human-readable progress goes to stderr; stdout carries only JSON lines."""
    print(f"nps-testbed: {message}", file=sys.stderr, flush=True)


def alive(pid: int) -> bool:
    """True when the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def cmdline(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [part.decode(errors="replace") for part in f.read().split(b"\0") if part]
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return []


def netns_inode(pid: int | str) -> str | None:
    try:
        return os.readlink(f"/proc/{pid}/ns/net")
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None


def pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def link_names() -> list[str]:
    """Names of the links in the root network namespace."""
    out = run(["ip", "-o", "link", "show"])
    names = []
    for line in out.splitlines():
        parts = line.split(":", 2)
        if len(parts) >= 2:
            names.append(parts[1].strip().split("@")[0])
    return names


def holds_host_address(pid: int | str) -> bool:
    """Does the process's network namespace hold a test-bed host address on eth0 or mgmt0?
    That is what makes a namespace a host's, whether or not its Mininet shell is still alive."""
    try:
        with open(f"/proc/{pid}/net/if_inet6") as f:
            for line in f:
                fields = line.split()
                if len(fields) == 6 and fields[0].startswith(naming.ADDRESS_HEX_PREFIXES) and fields[5] in (
                        naming.DATA_IF, naming.MGMT_IF):
                    return True
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        pass
    return False


def in_host_netns() -> bool:
    """Are we inside a test-bed host rather than in the root namespace?"""
    return holds_host_address("self")
