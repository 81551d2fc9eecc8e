"""DDS sites for the test bed (issue 25): one network namespace per site, so that DDS multicast
discovery stays inside it; used by tests/test_dds_overlay.py and experiments/dds_latency.py.
Needs root and iproute2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from pubsub.session import JsonLines


def sh(*args: str) -> None:
    subprocess.run(args, check=True, capture_output=True, timeout=30)


class Site:
    """A network namespace with one veth to the root namespace: 10.231.N.2 inside (interface
    `site`), 10.231.N.1 outside; forwarding on the outer end only, so edges reach each other
    (NACKs, direct paths) without the machine's global ip_forward."""

    def __init__(self, tag: str, n: int):
        self.ns, self.outer = f"nps-dds-{tag}", f"ndd{tag}"
        self.inner_ip, self.outer_ip = f"10.231.{n}.2", f"10.231.{n}.1"
        # no DNS inside: the ZooKeeper client's reverse look-ups would wait out resolv.conf's
        # servers, unreachable from here (`ip netns exec` reads /etc/netns/NS/ first)
        os.makedirs(f"/etc/netns/{self.ns}", exist_ok=True)
        with open(f"/etc/netns/{self.ns}/resolv.conf", "w") as f:
            f.write("nameserver 127.0.0.1\n")
        sh("ip", "netns", "add", self.ns)
        sh("ip", "link", "add", self.outer, "type", "veth", "peer", "name", "site", "netns", self.ns)
        sh("ip", "addr", "add", f"{self.outer_ip}/24", "dev", self.outer)
        sh("ip", "link", "set", self.outer, "up")
        sh("sysctl", "-q", "-w", f"net.ipv4.conf.{self.outer}.forwarding=1")
        for cmd in (["ip", "addr", "add", f"{self.inner_ip}/24", "dev", "site"],
                    ["ip", "link", "set", "site", "up", "multicast", "on"],
                    ["ip", "link", "set", "lo", "up"],
                    ["ip", "route", "add", "default", "via", self.outer_ip]):
            sh("ip", "netns", "exec", self.ns, *cmd)

    def run(self, *argv: str, env: dict | None = None, stdin: bool = False) -> JsonLines:
        return JsonLines(["ip", "netns", "exec", self.ns, *argv], env=env, stdin=stdin)

    def delete(self) -> None:
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
        subprocess.run(["ip", "link", "del", self.outer], capture_output=True)
        shutil.rmtree(f"/etc/netns/{self.ns}", ignore_errors=True)


def dds_env() -> dict:
    env = dict(os.environ)
    env["NPS_DDS_PYTHON"] = sys.executable
    env["NPS_JAVA_OPTS"] = "-Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
    return env
