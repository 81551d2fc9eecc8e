"""The deployments the SNAPS test-bed experiment compares (experiments/snaps_testbed.py): one
central Mosquitto (classic), Mosquitto bridges (federated), Mosquitto with `nps edge-agent` and
`nps edge-coordinator` (netpubsub), the same with RabbitMQ (netpubsub-amqp), and the network
part alone (groups-udp) — each started as
real processes in the hosts of a shaped test-bed network."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.parse

from pubsub import auth
from pubsub.datagram_key import agent_args, coordinator_file
from pubsub.session import (NPS, TESTBED, Controller, JsonLines, SessionError, Testbed,
                            client_env, poll, wait_for_network)
from pubsub.rabbitmq import AMQP_PORT, RabbitNode
from pubsub.shaping import CLIENT_PYTHON, shape_switch_links, verify_shaping

MQTT_PORT = 1883
AGENT_PORT = 7447        # every edge agent listens on the same UDP port (network mode)
COORDINATOR_PORT = 7448
CLASSIC_BROKER = "h2"    # the paper's "Classic-2"
BRIDGE_PREFIX = "bridged/"
GROUP = "snaps/data"     # the topic the groups-udp mode stands in for
AMQP_EXCHANGE = "snaps"  # the topic exchange of the netpubsub-amqp mode (amqp_load.py's default)
# what an operator does before the applications start: declare the exchange at one broker
DECLARE_EXCHANGE = ("import pika,sys\n"
                    "c=pika.BlockingConnection(pika.ConnectionParameters('127.0.0.1'))\n"
                    "c.channel().exchange_declare(sys.argv[1],exchange_type='topic')\n"
                    "c.close()\n")

# What the edge agent needs from its broker: it learns local (un)subscriptions from the broker's
# log, published on $SYS/broker/log/... when log_dest includes topic.
AGENT_BROKER_LINES = ["log_dest topic", "log_dest stderr", "log_type subscribe",
                      "log_type unsubscribe", "log_type notice"]


# ---- the network ---------------------------------------------------------------------------

class Network:
    """Controller (no schema; `controller_args` added) + a test-bed topology whose `switch_links`
    links are all shaped to `link_mbit`; torn down on close()."""

    def __init__(self, work: str, topology: str, switch_links: int, link_mbit: float,
                 controller_args: tuple[str, ...] = ()):
        self.work = work
        self.controller = Controller(None, *controller_args,
                                     log_path=os.path.join(work, "controller.log"))
        try:
            self.testbed = Testbed(topology, self.controller)
            wait_for_network(self.controller, self.testbed, links=switch_links)
            self.state = self.testbed.state
            self.shaping = verify_shaping(self.testbed, link_mbit)
            shape_switch_links(self.state, link_mbit)
        except BaseException:
            self.close()
            raise

    def address(self, host: str) -> str:
        return self.testbed.host(host)["address"]

    def close(self) -> None:
        if hasattr(self, "testbed"):
            self.testbed.down()
        self.controller.terminate()


# ---- processes in hosts ---------------------------------------------------------------------

def in_host(host: str, *argv: str, stdin: bool = False, env: dict | None = None,
            log_path: str | None = None) -> JsonLines:
    err = open(log_path, "w") if log_path else None
    return JsonLines([TESTBED, "exec", host, "--", *argv], stdin=stdin, env=env, stderr=err)


def broker_config(work: str, host: str, lines: list[str]) -> str:
    path = os.path.join(work, f"mosquitto-{host}.conf")
    with open(path, "w") as f:
        f.write("\n".join([f"listener {MQTT_PORT} ::", "allow_anonymous true",
                           "set_tcp_nodelay true", "sys_interval 1", *lines]) + "\n")
    return path


def bridge_lines(host: str, upstreams: list[tuple[str, str]]) -> list[str]:
    """The federated broker on `host` pulls snaps/# from every upstream (name, address)."""
    lines = []
    for name, address in upstreams:
        lines += [f"connection {host}-from-{name}",
                  f"address {address}:{MQTT_PORT}",  # mosquitto splits host:port at the last colon
                  f"remote_clientid bridge-{host}-from-{name}",  # unique per pair: Mininet
                  f"local_clientid local-{host}-from-{name}",    # hosts share one hostname
                  "cleansession true", "notifications false", "try_private true",
                  "restart_timeout 1", "start_type automatic",
                  f'topic snaps/# in 0 {BRIDGE_PREFIX} ""']
    return lines


def start_broker(net: Network, host: str, lines: list[str]) -> JsonLines:
    conf = broker_config(net.work, host, lines)
    return in_host(host, "mosquitto", "-c", conf,
                   log_path=os.path.join(net.work, f"mosquitto-{host}.log"))


def listening(net: Network, host: str, port: int) -> bool:
    r = net.testbed.exec(host, "ss", "-Hltn", f"sport = :{port}")
    return r.returncode == 0 and bool(r.stdout.strip())


TOPICS = [GROUP, "snaps/warmup"]  # exact topics: no mode has to expand a wildcard


def subscriber_topics(mode: str) -> list[str]:
    """A federated subscriber also takes what its broker pulled over a bridge."""
    return TOPICS + [BRIDGE_PREFIX + t for t in TOPICS] if mode == "federated" else TOPICS


def broker_drops(hosts: list[str], broker: str) -> dict[str, int]:
    """Per broker, the messages it dropped (`$SYS/broker/publish/messages/dropped`: a client's
    queue was full), read in parallel; $SYS messages are retained and refreshed every second
    (`sys_interval 1`)."""
    readers = {h: subprocess.Popen([TESTBED, "exec", h, "--", "mosquitto_sub", "-h", broker,
                                    "-t", "$SYS/broker/publish/messages/dropped", "-C", "1",
                                    "-W", "10"], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True) for h in hosts}
    out = {}
    for h, p in readers.items():
        text, _ = p.communicate(timeout=30)
        out[h] = int(text.strip()) if text.strip().isdigit() else -1
    return out


def edge_commands_available() -> tuple[bool, str]:
    """Whether this build of nps has the edge agent and coordinator (picocli answers an unknown
    subcommand with the top-level usage and exit 0, so the usage line is what tells)."""
    for command in ("edge-agent", "edge-coordinator"):
        r = subprocess.run([NPS, command, "--help"], capture_output=True, text=True, timeout=120)
        if r.returncode != 0 or not (r.stdout + r.stderr).lstrip().startswith(
                f"Usage: nps {command}"):
            return False, f"`nps {command} --help` does not show its usage: not in this build"
    return True, ""


# ---- one run: a scenario in a mode ----------------------------------------------------------

class Deployment:
    """The processes of one run, stopped in reverse order of start."""

    def __init__(self):
        self.processes: list[JsonLines] = []
        self.cleanups: list = []  # called after the processes stopped

    def add(self, p: JsonLines) -> JsonLines:
        self.processes.append(p)
        return p

    def stop(self) -> None:
        for p in reversed(self.processes):
            p.terminate()
        for cleanup in self.cleanups:
            cleanup()

    def exited(self) -> list[str]:
        """The processes that have already exited (when something did not happen in time)."""
        return [f"`{' '.join(os.path.basename(a) for a in p.proc.args[-12:])}` exited with "
                f"{p.proc.returncode}" for p in self.processes if p.proc.poll() is not None]


def deploy_classic(net: Network, d: Deployment, pub: str, subs: list[str]) -> str:
    """One broker on h2; returns the address every client connects to."""
    d.add(start_broker(net, CLASSIC_BROKER, []))
    poll(lambda: listening(net, CLASSIC_BROKER, MQTT_PORT), 20, "the classic broker listening")
    return net.address(CLASSIC_BROKER)


def deploy_federated(net: Network, d: Deployment, pub: str, subs: list[str]) -> str:
    """A broker on every participating host pulling from every other one; clients are local."""
    hosts = [pub, *subs]
    for h in hosts:
        d.add(start_broker(net, h, bridge_lines(h, [(u, net.address(u)) for u in hosts if u != h])))
    for h in hosts:
        poll(lambda: listening(net, h, MQTT_PORT), 20, f"the broker on {h} listening")
    return "::1"


def deploy_netpubsub(net: Network, d: Deployment, pub: str, subs: list[str]) -> str:
    """A Mosquitto broker and an edge agent on every participating host, one coordinator (see
    start_coordinator). Clients are local."""
    coordinator = start_coordinator(net, d)
    hosts = [pub, *subs]
    for h in hosts:
        d.add(start_broker(net, h, AGENT_BROKER_LINES))
    for h in hosts:
        poll(lambda: listening(net, h, MQTT_PORT), 20, f"the broker on {h} listening")
    start_agents(net, d, hosts, f"mqtt://[::1]:{MQTT_PORT}", coordinator)
    return "::1"


def deploy_netpubsub_amqp(net: Network, d: Deployment, pub: str, subs: list[str]) -> str:
    """netpubsub with AMQP: a private RabbitMQ node and an edge agent on every participating
    host, one coordinator. The topic exchange is declared at the publisher's broker first (as an
    operator would), so the coordinator has every agent mirror it before the clients bind.
    Clients are local."""
    coordinator = start_coordinator(net, d)
    os.chmod(net.work, 0o755)  # the nodes run as the rabbitmq user
    hosts = [pub, *subs]
    nodes = [RabbitNode(h, net.work) for h in hosts]
    d.cleanups.append(lambda: [n.stop() for n in nodes])
    for n in nodes:
        poll(lambda: n.exited() or listening(net, n.host, AMQP_PORT), 120,
             f"RabbitMQ on {n.host} listening")
        if n.exited():
            raise SessionError(f"RabbitMQ on {n.host} exited: {n.log()}")
    start_agents(net, d, hosts, f"amqp://127.0.0.1:{AMQP_PORT}", coordinator)
    declared = net.testbed.exec(pub, CLIENT_PYTHON, "-c", DECLARE_EXCHANGE, AMQP_EXCHANGE)
    if declared.returncode != 0:
        raise SessionError(f"declaring {AMQP_EXCHANGE} on {pub}: {declared.stderr}")
    return "127.0.0.1"


def start_coordinator(net: Network, d: Deployment) -> str:
    """`nps edge-coordinator` in the root namespace on the management address (hosts reach it
    over mgmt0, so its traffic is on no data link); it asks the controller for multicast
    groups. Returns its URL."""
    mgmt = net.state["management"]["address"]
    db = os.path.join(net.work, f"coordinator-{time.monotonic_ns()}.sqlite")
    d.add(JsonLines([NPS, "edge-coordinator", "--listen", f"[{mgmt}]:{COORDINATOR_PORT}", "--db",
                     f"sqlite:{db}", "--controller", net.controller.api,
                     *auth.coordinator_args(net.controller.auth, coordinator_file(net.work)),
                     "--json"],
                    stderr=open(os.path.join(net.work, "coordinator.log"), "w")))
    poll(lambda: tcp_open(mgmt, COORDINATOR_PORT), 60, "the edge coordinator listening")
    return f"http://[{mgmt}]:{COORDINATOR_PORT}"


def start_agents(net: Network, d: Deployment, hosts: list[str], broker: str,
                 coordinator: str) -> None:
    """`nps edge-agent` beside the broker of every host, started before any client: an agent
    learns subscriptions (bindings) from its broker while connected (docs/edge.md)."""
    agents = []
    for h in hosts:
        agents.append(d.add(in_host(h, NPS, "edge-agent", "--broker", broker, "--coordinator",
                                    coordinator, "--edge", h, "--listen",
                                    f"[{net.address(h)}]:{AGENT_PORT}",
                                    *agent_args(net.work), "--json",
                                    env=client_env(net.address(h)),
                                    log_path=os.path.join(net.work, f"agent-{h}.log"))))
    for h, a in zip(hosts, agents):
        a.wait_for(lambda o: o.get("kind") == "edge-agent", 120, f"the edge agent on {h}")


def deploy_groups_udp(net: Network, d: Deployment, pub: str, subs: list[str]) -> str:
    """No broker, no agent: the controller embeds the group the coordinator would ask for (the
    subscribers' hosts as members, the publisher's as source) and the publisher's stream goes as
    UDP datagrams to the group's send_to address; returns that address."""
    path = "/v1/groups/" + urllib.parse.quote(GROUP, safe="")
    code, group = net.controller.call("PUT", path, {
        "members": [net.address(h) for h in subs], "sources": [net.address(pub)]})
    if code != 200:
        raise SessionError(f"group refused: {code} {group}")
    d.cleanups.append(lambda: net.controller.call("DELETE", path))
    return group["sources"][net.address(pub)]["send_to"]


def network_state(net: Network, mode: str, pub: str, target: str) -> dict:
    """What the controller sees after the publishing: links and hosts (a link that expired
    under load re-routes everything), and in groups-udp mode whether the group still sends to
    the address the publisher used (a re-embedded tree may move it, and the stand-in sender
    does not follow)."""
    topo = net.controller.get("/v1/topology")
    out = {"links": len(topo["links"]), "hosts": len(topo["hosts"])}
    if mode == "groups-udp":
        code, group = net.controller.call(
            "GET", "/v1/groups/" + urllib.parse.quote(GROUP, safe=""))
        send_to = group.get("sources", {}).get(net.address(pub), {}).get("send_to")
        out.update({"group_status": code, "send_to_unchanged": send_to == target})
    return out


def tcp_open(address: str, port: int) -> bool:
    try:
        with socket.create_connection((address, port), timeout=1):
            return True
    except OSError:
        return False


DEPLOY = {"classic": deploy_classic, "federated": deploy_federated, "netpubsub": deploy_netpubsub,
          "netpubsub-amqp": deploy_netpubsub_amqp,
          "groups-udp": deploy_groups_udp}

