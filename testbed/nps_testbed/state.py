"""Files in /run/netpubsub: the state file others read, the `up` process's pid file and its lock."""

from __future__ import annotations

import fcntl
import json
import os

RUN_DIR = os.environ.get("NPS_TESTBED_RUN_DIR", "/run/netpubsub")
STATE_FILE = os.path.join(RUN_DIR, "testbed.json")
PID_FILE = os.path.join(RUN_DIR, "testbed.pid")
LOCK_FILE = os.path.join(RUN_DIR, "testbed.lock")


class NotRunning(RuntimeError):
    """No test bed is up (no state file)."""


def acquire_lock():
    """Takes the single-instance lock for the lifetime of the returned file; None when it is held.

    flock is released by the kernel when the holder dies, even by kill -9, so a crash never
    leaves the lock stuck."""
    os.makedirs(RUN_DIR, exist_ok=True)
    f = open(LOCK_FILE, "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        return None
    return f


def write_pid(pid: int) -> None:
    _write_atomic(PID_FILE, f"{pid}\n")


def read_pid() -> int | None:
    try:
        with open(PID_FILE) as f:
            return int(f.read().strip())
    except (FileNotFoundError, ValueError):
        return None


def write_state(state: dict) -> None:
    _write_atomic(STATE_FILE, json.dumps(state, indent=2) + "\n")


def read_state() -> dict:
    try:
        with open(STATE_FILE) as f:
            return json.load(f)
    except FileNotFoundError as e:
        raise NotRunning(f"no test bed is up ({STATE_FILE} is missing); start one with `nps-testbed up`") from e


def remove_files() -> list[str]:
    """Removes the state and pid files; returns those that existed."""
    removed = []
    for path in (STATE_FILE, PID_FILE):
        try:
            os.remove(path)
            removed.append(path)
        except FileNotFoundError:
            pass
    return removed


def _write_atomic(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
