"""A private RabbitMQ node (Debian's rabbitmq-server) inside a test-bed host: its own epmd,
database, logs, cookie and plugins (rabbitmq_event_exchange, which the edge agent learns
bindings from) in a directory owned by the `rabbitmq` user, listening on the host's loopback.
Each host is its own network namespace, so every node can use the standard ports. The same recipe
as the JVM tests' RabbitMq helper (nps-edge)."""

from __future__ import annotations

import os
import signal
import subprocess

from pubsub.session import TESTBED

SERVER = "/usr/lib/rabbitmq/bin/rabbitmq-server"
AMQP_PORT = 5672
EPMD_PORT = 4369
DIST_PORT = 25672


class RabbitNode:
    """`rabbitmq-server` and its epmd in `host`, each in its own session so that stop() ends
    the whole process tree (runuser → the server script → beam)."""

    def __init__(self, host: str, work: str):
        self.host = host
        self.dir = os.path.join(work, f"rabbitmq-{host}")
        for sub in ("mnesia", "log", "plugins"):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
        with open(os.path.join(self.dir, "enabled_plugins"), "w") as f:
            f.write("[rabbitmq_event_exchange].\n")
        with open(os.path.join(self.dir, "rabbitmq.conf"), "w") as f:
            f.write(f"listeners.tcp.1 = 127.0.0.1:{AMQP_PORT}\nloopback_users = none\n")
        subprocess.run(["chown", "-R", "rabbitmq:rabbitmq", self.dir], check=True, timeout=30)
        env = {
            "HOME": self.dir,  # the Erlang cookie: a fresh one per node
            "RABBITMQ_NODENAME": f"nps-{host}@localhost",
            "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1",
            "RABBITMQ_NODE_PORT": str(AMQP_PORT),
            "RABBITMQ_DIST_PORT": str(DIST_PORT),
            "ERL_EPMD_PORT": str(EPMD_PORT),
            "RABBITMQ_MNESIA_BASE": os.path.join(self.dir, "mnesia"),
            "RABBITMQ_LOG_BASE": os.path.join(self.dir, "log"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": os.path.join(self.dir, "enabled_plugins"),
            "RABBITMQ_CONFIG_FILE": os.path.join(self.dir, "rabbitmq.conf"),
            "RABBITMQ_FEATURE_FLAGS_FILE": os.path.join(self.dir, "feature_flags"),
            "RABBITMQ_PLUGINS_EXPAND_DIR": os.path.join(self.dir, "plugins"),
            "RABBITMQ_PID_FILE": os.path.join(self.dir, "pid"),
        }
        prefix = [TESTBED, "exec", host, "--", "env", *[f"{k}={v}" for k, v in env.items()]]
        self.processes = [
            self._spawn("epmd.log", *prefix, "/usr/bin/epmd", "-port", str(EPMD_PORT)),
            self._spawn("server.log", *prefix, "runuser", "-u", "rabbitmq", "--", SERVER),
        ]

    def _spawn(self, log: str, *argv: str) -> subprocess.Popen:
        out = open(os.path.join(self.dir, log), "w")
        return subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)

    def exited(self) -> bool:
        return any(p.poll() is not None for p in self.processes)

    def log(self) -> str:
        with open(os.path.join(self.dir, "server.log")) as f:
            return f.read()[-2000:]

    def stop(self) -> None:
        for p in reversed(self.processes):  # the server first, then its epmd
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
