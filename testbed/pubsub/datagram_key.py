"""The shared datagram key every `nps edge-agent` (and overlay broker) of one test-bed run uses:
datagrams are authenticated by default (docs/security.md), so the launchers pass `--datagram-key`.
Mininet hosts share the file system, so one file serves every host of the run. With the session's
principals on (pubsub/auth.py) the agents hold no file: the edge coordinator does, and each agent
fetches the keys with its host's token (`--coordinator-keys`, docs/security-datagrams.md "Keys
from the edge coordinator"), as an operator deploys them."""

import os
import secrets
import tempfile

from pubsub import auth

_FILE = "datagram.key"


def key_file(directory: str | None = None) -> str:
    """The key file in `directory` (a new temporary one when None), made on first use: one random
    32-byte key in hex, readable by its owner only."""
    directory = directory or _default_dir()
    path = os.path.join(directory, _FILE)
    if not os.path.exists(path):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32) + "\n")
    return path


_dir: str | None = None


def _default_dir() -> str:
    global _dir
    if _dir is None:
        _dir = tempfile.mkdtemp(prefix="nps-datagram-key-")
    return _dir


def key_args(directory: str | None = None) -> list[str]:
    """The command-line arguments that give an agent or broker the run's key."""
    return ["--datagram-key", key_file(directory)]


def agent_args(directory: str | None = None) -> list[str]:
    """An edge agent's key options: `--coordinator-keys` when the coordinator runs with the
    session's principals (give it `coordinator_file(directory)`), else the run's key file."""
    return ["--coordinator-keys"] if auth.enabled() else key_args(directory)


def coordinator_file(directory: str | None = None) -> str | None:
    """The key file an edge coordinator hands to agents with `--coordinator-keys`, or None when
    authentication is off (the coordinator refuses `--datagram-key` without `--auth`)."""
    return key_file(directory) if auth.enabled() else None
