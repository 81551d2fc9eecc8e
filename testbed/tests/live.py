"""Helpers for the tests that run real test beds: the CLI as a subprocess, polling, leftovers."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTBED = os.path.join(os.path.dirname(HERE), "nps-testbed")
PREFIX = "npt"

needs_root = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("ovs-vsctl") or not os.path.exists("/usr/bin/mnexec"),
    reason="live test beds need root, Open vSwitch and Mininet")


def tb(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """Runs `nps-testbed ARGS`, capturing text output."""
    return subprocess.run([TESTBED, *args], capture_output=True, text=True, timeout=timeout)


def tb_json(*args: str) -> dict:
    result = tb(*args, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def in_host(host: str, *cmd: str, timeout: float = 30) -> subprocess.CompletedProcess:
    return tb("exec", host, "--", *cmd, timeout=timeout)


def poll(condition, timeout: float, what: str, interval: float = 0.1):
    """Polls until condition() returns something truthy; fails the test after timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


class UpProcess:
    """`nps-testbed up ...` in the background; its stdout JSON events arrive on a queue."""

    def __init__(self, *args: str):
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([TESTBED, "up", *args], stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.events: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.events.put(json.loads(line))

    def wait_event(self, name: str, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            try:
                event = self.events.get(timeout=max(0.0, min(0.5, deadline - time.monotonic())))
                if event.get("event") == name:
                    return event
            except queue.Empty:
                if self.proc.poll() is not None and self.events.empty():
                    pytest.fail(f"`up` exited with {self.proc.returncode} before '{name}': {self.log()}")
            if time.monotonic() > deadline:
                pytest.fail(f"no '{name}' event within {timeout}s: {self.log()}")

    def log(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read()

    def stop(self) -> None:
        """Always leaves the machine clean, whatever state the test left."""
        if self.proc.poll() is None:
            tb("down", timeout=90)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        tb("clean", timeout=90)


def clear_switches(bridges) -> None:
    """Deletes every flow and group of these bridges: a bed shared by the cases of a module is
    handed to the next controller with empty tables, as a fresh bed would be."""
    for bridge in bridges:
        for what in ("del-flows", "del-groups"):
            subprocess.run(["ovs-ofctl", "-O", "OpenFlow13", what, bridge], check=True,
                           capture_output=True, timeout=30)


def leftovers() -> dict:
    """Our things, found independently of the code under test: npt* links and OVS bridges,
    Mininet shells named npt*, state files."""
    links = [line.split(":")[1].strip().split("@")[0]
             for line in subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout.splitlines()]
    bridges = subprocess.run(["ovs-vsctl", "list-br"], capture_output=True, text=True).stdout.split()
    shells = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"mininet:" + PREFIX.encode() in f.read():
                    shells.append(int(pid))
        except OSError:
            pass
    return {"links": [n for n in links if n.startswith(PREFIX)],
            "bridges": [b for b in bridges if b.startswith(PREFIX)],
            "shells": shells,
            "files": [f for f in ("/run/netpubsub/testbed.json", "/run/netpubsub/testbed.pid") if os.path.exists(f)]}


def nothing_left() -> bool:
    return not any(leftovers().values())


PYTHON = sys.executable
