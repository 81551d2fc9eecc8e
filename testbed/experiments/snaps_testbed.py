"""SNAPS on the test bed (issue 8; SNAPS §IV-B, Table I, Fig. 9): classic vs federated vs
netpubsub with real Mosquitto brokers and real MQTT clients on an ISP network.

Network: `zoo:Abilene` (11 switches, 14 switch links, host hN on switch sN), every switch-to-switch
link shaped to 100 Mbit/s with a TBF qdisc on both root-namespace veth ends (no delay emulation:
netem is absent here). The netpubsub controller (`nps controller`, no schema) routes IPv6 unicast
and serves multicast groups (/v1/groups).

Modes, per scenario (publisher host, subscriber hosts, message size; Table I):
  classic    one Mosquitto on h2; publisher and subscribers connect to it over the network
  federated  one Mosquitto per participating host, clients local; every broker pulls from every
             other participating broker over a Mosquitto bridge `topic snaps/# in 0 bridged/ ""`:
             what a bridge pulls lands under bridged/… and no bridge subscribes to that, so each
             message crosses one bridge at most (RabbitMQ federation's max-hops 1): a full mesh
             without loops or duplicates
  netpubsub  one Mosquitto per participating host with `nps edge-agent` beside it and one
             `nps edge-coordinator` in the root namespace on the management network, which asks
             the controller for multicast groups; the switches replicate. Skipped (with a message)
             when this build of nps has no edge-agent command.
  groups-udp the network part of netpubsub alone: the controller embeds the group the
             coordinator would ask for, and a UDP sender on the publisher's host sends the
             stream to its send_to address; UDP receivers on the subscribers' hosts (no broker,
             no agent: what the switches do with the stream, and the floor for netpubsub)

Measured per scenario and mode: Mbit/s on every switch-to-switch link while the publisher
publishes (OVS port counters, both directions), message loss per subscriber (not delivered within
--settle seconds after the last publish) and per-message latency (send timestamp in the payload).

Writes docs/results/snaps-testbed.{json,md,png}. Needs root.
  PYTHONPATH=testbed testbed/.venv/bin/python testbed/experiments/snaps_testbed.py
      [--scenarios scen-1,scen-2] [--modes classic,federated] [--seconds 12] [--replot]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)

from pleroma_ovs import machine  # noqa: E402
from pubsub import linkstats  # noqa: E402
from pubsub.session import (NPS, TESTBED, Controller, JsonLines, SessionError, Testbed,  # noqa: E402
                            build, client_env, log, percentile, poll, wait_for_network)
from results import RESULTS, redraw, write  # noqa: E402

NAME = "snaps-testbed"
TOPOLOGY = "zoo:Abilene"
SWITCH_LINKS = 14
MQTT_LOAD = os.path.join(TESTBED_DIR, "pubsub", "mqtt_load.py")
UDP_LOAD = os.path.join(TESTBED_DIR, "pubsub", "udp_load.py")
CLIENT_PYTHON = "/usr/bin/python3"  # Debian's python3-paho-mqtt
MQTT_PORT = 1883
AGENT_PORT = 7447        # every edge agent listens on the same UDP port (network mode)
COORDINATOR_PORT = 7448
CLASSIC_BROKER = "h2"    # the paper's "Classic-2"
INTERVAL_MS = 4.5        # the paper's publishing interval
LINK_RATE_MBIT = 100     # the paper's link bandwidth
BRIDGE_PREFIX = "bridged/"
MODES = ["classic", "federated", "netpubsub", "groups-udp"]

SCEN_2_SUBS = [2, 3, 5, 7, 10, 8, 4]
ALL_SUBS = list(range(2, 11))
# Table I: name → (publisher host, subscriber hosts, message bytes)
SCENARIOS = {
    "scen-1": (1, [3], 1500),
    "scen-2": (1, SCEN_2_SUBS, 1500),
    "scen-3": (2, [1, 3, 5, 7, 10, 8, 4], 1500),
    "scen-4": (1, ALL_SUBS, 1500),
    "scen-5": (1, ALL_SUBS, 6000),
    "scen-6": (1, ALL_SUBS, 12000),
    "scen-7": (1, SCEN_2_SUBS, 12000),
}

# What the edge agent needs from its broker: it learns local (un)subscriptions from the broker's
# log, published on $SYS/broker/log/... when log_dest includes topic.
AGENT_BROKER_LINES = ["log_dest topic", "log_dest stderr", "log_type subscribe",
                      "log_type unsubscribe", "log_type notice"]


# ---- the network ---------------------------------------------------------------------------

class Network:
    """Controller (no schema) + Abilene, every switch link shaped; torn down on close()."""

    def __init__(self, work: str):
        self.work = work
        self.controller = Controller(None, log_path=os.path.join(work, "controller.log"))
        try:
            self.testbed = Testbed(TOPOLOGY, self.controller)
            wait_for_network(self.controller, self.testbed, links=SWITCH_LINKS)
            self.state = self.testbed.state
            self.shaping = verify_shaping(self)
            shape_switch_links(self.state, LINK_RATE_MBIT)
        except BaseException:
            self.close()
            raise

    def address(self, host: str) -> str:
        return self.testbed.host(host)["address"]

    def close(self) -> None:
        if hasattr(self, "testbed"):
            self.testbed.down()
        self.controller.terminate()


def switch_link_interfaces(state: dict, link: dict) -> list[str]:
    """The two root-namespace veth ends of a switch-to-switch link (OVS transmits on each)."""
    by_name = {s["name"]: s for s in state["switches"]}
    out = []
    for end, port in ((link["a"], link["a_port"]), (link["b"], link["b_port"])):
        out += [p["interface"] for p in by_name[end]["ports"] if p["port"] == port]
    return out


def shape(interface: str, mbit: float) -> None:
    """A token bucket on the interface's egress: OVS's userspace datapath sends through the
    kernel's qdisc, so this limits one direction of the link. Burst 64 KB (≈5 ms at 100 Mbit/s),
    queue up to 50 ms, then drops (what a router's full output queue does)."""
    subprocess.run(["tc", "qdisc", "replace", "dev", interface, "root", "tbf", "rate",
                    f"{mbit}mbit", "burst", "64kb", "latency", "50ms"], check=True,
                   capture_output=True, timeout=10)


def shape_switch_links(state: dict, mbit: float) -> None:
    for link in state["links"]:
        if link["kind"] == "switch":
            for interface in switch_link_interfaces(state, link):
                shape(interface, mbit)
    log(f"every switch-to-switch link shaped to {mbit} Mbit/s (tbf, both directions)")


# A paced UDP sender and a counter for the shaping check, run with /usr/bin/python3 in hosts.
SEND = ("import socket,sys,time\n"
        "s=socket.socket(socket.AF_INET6,socket.SOCK_DGRAM)\n"
        "b=b'x'*1200; pps=float(sys.argv[3])*1e6/8/len(b); n=int(pps*float(sys.argv[4]))\n"
        "t=time.monotonic()\n"
        "for i in range(n):\n"
        "  d=t+i/pps-time.monotonic()\n"
        "  if d>0: time.sleep(d)\n"
        "  s.sendto(b,(sys.argv[1],int(sys.argv[2])))\n")
COUNT = ("import socket,sys,time\n"
         "s=socket.socket(socket.AF_INET6,socket.SOCK_DGRAM); s.bind(('::',int(sys.argv[1])))\n"
         "s.setsockopt(socket.SOL_SOCKET,socket.SO_RCVBUF,4<<20)\n"
         "s.settimeout(1.0); print('ready',flush=True); got=0; first=last=None\n"
         "while True:\n"
         "  try: d=s.recv(65535)\n"
         "  except socket.timeout:\n"
         "    if first is not None: break\n"
         "    continue\n"
         "  now=time.monotonic(); first=first or now; last=now; got+=len(d)\n"
         "print(got, last-first)\n")


def udp_rate(net: Network, a: str, b: str, offered_mbit: float, seconds: float) -> float:
    """Mbit/s that arrive at host b of a UDP stream host a sends at `offered_mbit`: bytes over
    the time between the first and the last datagram."""
    counter = subprocess.Popen([TESTBED, "exec", b, "--", CLIENT_PYTHON, "-c", COUNT, "9999"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if counter.stdout.readline().strip() != "ready":
            raise SessionError(f"UDP counter on {b}: {counter.stderr.read()}")
        sent = net.testbed.exec(a, CLIENT_PYTHON, "-c", SEND, net.address(b), "9999",
                                str(offered_mbit), str(seconds), timeout=seconds + 30)
        if sent.returncode != 0:
            raise SessionError(f"UDP sender on {a}: {sent.stderr}")
        out, _ = counter.communicate(timeout=30)
    finally:
        if counter.poll() is None:
            counter.kill()
    got, span = out.split()
    return int(got) * 8 / max(1e-9, float(span)) / 1e6


def verify_shaping(net: Network, limit: float = 10, offered: float = 30,
                   seconds: float = 3) -> dict:
    """Proves the qdisc limits the userspace datapath: a paced UDP stream of `offered` Mbit/s
    between the hosts at the two ends of a link arrives at about `limit` with the link shaped to
    `limit`, and whole with the link shaped to the real rate."""
    link = next(x for x in net.state["links"] if x["kind"] == "switch")
    a, b = link["a"].replace("s", "h"), link["b"].replace("s", "h")
    interfaces = switch_link_interfaces(net.state, link)
    for interface in interfaces:
        shape(interface, limit)
    limited = udp_rate(net, a, b, offered, seconds)
    for interface in interfaces:
        shape(interface, LINK_RATE_MBIT)
    unlimited = udp_rate(net, a, b, offered, seconds)
    log(f"shaping check on {link['a']}-{link['b']}: {offered} Mbit/s offered arrive at "
        f"{limited:.1f} Mbit/s through {limit} Mbit/s, {unlimited:.1f} through {LINK_RATE_MBIT}")
    if not (limited <= 1.15 * limit and unlimited >= 0.8 * offered):
        raise SessionError("tbf does not limit the link as configured")
    return {"link": f"{link['a']}-{link['b']}", "limit_mbit": limit, "offered_mbit": offered,
            "received_mbit": limited, "received_unshaped_mbit": unlimited}


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


TOPICS = ["snaps/data", "snaps/warmup"]  # exact topics: no mode has to expand a wildcard


def subscriber_topics(mode: str) -> list[str]:
    """A federated subscriber also takes what its broker pulled over a bridge."""
    return TOPICS + [BRIDGE_PREFIX + t for t in TOPICS] if mode == "federated" else TOPICS


def start_subscriber(host: str, broker: str, topics: list[str]) -> JsonLines:
    return in_host(host, CLIENT_PYTHON, MQTT_LOAD, "sub", "--broker", broker, "--name",
                   f"sub-{host}", *[a for t in topics for a in ("--topic", t)])


def start_publisher(host: str, broker: str, size: int, seconds: float) -> JsonLines:
    return in_host(host, CLIENT_PYTHON, MQTT_LOAD, "pub", "--broker", broker, "--name",
                   f"pub-{host}", "--size", str(size), "--interval-ms", str(INTERVAL_MS),
                   "--seconds", str(seconds), stdin=True)


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
    """A broker and an edge agent on every participating host, one coordinator in the root
    namespace on the management address (hosts reach it over mgmt0, so its traffic is on no data
    link); it asks the controller for multicast groups. Clients are local."""
    mgmt = net.state["management"]["address"]
    coordinator = f"[{mgmt}]:{COORDINATOR_PORT}"
    db = os.path.join(net.work, f"coordinator-{time.monotonic_ns()}.sqlite")
    d.add(JsonLines([NPS, "edge-coordinator", "--listen", coordinator, "--db", f"sqlite:{db}",
                     "--controller", net.controller.api, "--json"],
                    stderr=open(os.path.join(net.work, "coordinator.log"), "w")))
    poll(lambda: tcp_open(mgmt, COORDINATOR_PORT), 60, "the edge coordinator listening")
    hosts = [pub, *subs]
    for h in hosts:
        d.add(start_broker(net, h, AGENT_BROKER_LINES))
    for h in hosts:
        poll(lambda: listening(net, h, MQTT_PORT), 20, f"the broker on {h} listening")
    agents = []
    for h in hosts:
        agents.append(d.add(in_host(h, NPS, "edge-agent", "--broker", f"mqtt://[::1]:{MQTT_PORT}",
                                    "--coordinator", f"http://{coordinator}", "--edge", h,
                                    "--listen", f"[{net.address(h)}]:{AGENT_PORT}", "--json",
                                    env=client_env(),
                                    log_path=os.path.join(net.work, f"agent-{h}.log"))))
    # an agent learns subscriptions from the broker log while connected (docs/edge.md): the
    # clients may subscribe only once every agent has started
    for h, a in zip(hosts, agents):
        a.wait_for(lambda o: o.get("kind") == "edge-agent", 120, f"the edge agent on {h}")
    return "::1"


def deploy_groups_udp(net: Network, d: Deployment, pub: str, subs: list[str]) -> str:
    """No broker, no agent: the controller embeds the group the coordinator would ask for (the
    subscribers' hosts as members, the publisher's as source) and the publisher's stream goes as
    UDP datagrams to the group's send_to address; returns that address."""
    path = "/v1/groups/" + urllib.parse.quote("snaps/data", safe="")
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
            "GET", "/v1/groups/" + urllib.parse.quote("snaps/data", safe=""))
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
          "groups-udp": deploy_groups_udp}


def start_clients(mode: str, target: str, pub: str, subs: list[str], size: int,
                  seconds: float, d: Deployment) -> tuple[JsonLines, dict[str, JsonLines]]:
    """The publisher and the subscribers of a run: MQTT clients at their broker (h2's address in
    classic mode, the local broker otherwise), or the UDP stand-ins in groups-udp mode."""
    if mode == "groups-udp":
        subscribers = {h: d.add(in_host(h, CLIENT_PYTHON, UDP_LOAD, "sub", "--port",
                                        str(AGENT_PORT))) for h in subs}
        publisher = in_host(pub, CLIENT_PYTHON, UDP_LOAD, "pub", "--to", target, "--port",
                            str(AGENT_PORT), "--size", str(size), "--interval-ms",
                            str(INTERVAL_MS), "--seconds", str(seconds), stdin=True)
    else:
        broker = target if mode == "classic" else "::1"
        subscribers = {h: d.add(start_subscriber(h, broker, subscriber_topics(mode)))
                       for h in subs}
        publisher = start_publisher(pub, broker, size, seconds)
    for h, s in subscribers.items():
        s.wait_for(lambda o: o.get("kind") == "subscribed", 60, f"subscriber {h}")
    return d.add(publisher), subscribers


def warm_up(publisher: JsonLines, subscribers: dict[str, JsonLines], timeout: float) -> None:
    """Warm-up messages until every subscriber got one: brokers, bridges, agents and groups are
    in place end to end (nothing is measured before)."""
    publisher.wait_for(lambda o: o.get("kind") == "connected", 60, "the publisher connected")

    def all_warm() -> bool:
        publisher.proc.stdin.write("warm\n")
        publisher.proc.stdin.flush()
        return all(any(o.get("kind") == "warm" for o in s.all) for s in subscribers.values())

    poll(all_warm, timeout, "every subscriber reached by a warm-up message", interval=0.3)


def count(sub: JsonLines) -> int:
    counts = [o["n"] for o in sub.all if o.get("kind") == "count"]
    return counts[-1] if counts else 0


def run(net: Network, scenario: str, mode: str, args) -> dict:
    pub_n, sub_ns, size = SCENARIOS[scenario]
    pub, subs = f"h{pub_n}", [f"h{n}" for n in sub_ns]
    tag = f"[{scenario}/{mode}]"
    d = Deployment()
    try:
        target = DEPLOY[mode](net, d, pub, subs)
        publisher, subscribers = start_clients(mode, target, pub, subs, size, args.seconds, d)
        warm_up(publisher, subscribers, args.warm_timeout)
        log(f"{tag} {len(subs)} subscribers reachable; publishing {size} B every {INTERVAL_MS} ms"
            f" for {args.seconds:.0f} s")
        load_before = os.getloadavg()[0]
        before, t0 = linkstats.snapshot(net.state), time.monotonic()
        publisher.proc.stdin.write("go\n")
        publisher.proc.stdin.flush()
        published = publisher.wait_for(lambda o: o.get("kind") == "published",
                                       args.seconds * 3 + 60, "the publisher")
        after, t1 = linkstats.snapshot(net.state), time.monotonic()
        load = (load_before, os.getloadavg()[0])
        n = published["messages"]
        try:
            poll(lambda: all(count(s) >= n for s in subscribers.values()), args.settle,
                 "every message delivered")
        except SessionError:
            pass  # what has not arrived by now is lost
        network = network_state(net, mode, pub, target)
        drops = ({} if mode == "groups-udp" else
                 broker_drops([CLASSIC_BROKER], target) if mode == "classic" else
                 broker_drops([pub, *subs], "::1"))
        publisher.proc.stdin.write("quit\n")
        publisher.proc.stdin.flush()
        for s in subscribers.values():
            s.terminate()
        summaries = {h: summary(s, h) for h, s in subscribers.items()}
    except SessionError as e:
        raise SessionError(f"{e}; {'; '.join(d.exited()) or 'no process had exited'}") from e
    finally:
        d.stop()
    result = summarize(net.state, before, after, t1 - t0, published, summaries, size)
    result["broker_drops"] = drops  # -1: not read
    result["network_after"] = network
    result["load_average"] = load  # 1-minute, before and after publishing: the machine is shared
    log(f"{tag} max link {result['max_link_mbps']:.1f} Mbit/s = "
        f"{result['max_over_publisher']:.2f}× the publisher's {result['publisher_mbps']:.2f}, "
        f"{len(result['active_links'])} active links, loss {100 * result['loss']:.1f} %, "
        f"latency p50 {result['latency_ms']['p50']:.2f} ms p99 {result['latency_ms']['p99']:.2f} ms")
    return result


def summary(sub: JsonLines, host: str) -> dict:
    found = [o for o in sub.all if o.get("kind") == "summary"]
    if not found:
        raise SessionError(f"subscriber {host} printed no summary: {sub.error_text()}")
    return found[-1]


def summarize(state: dict, before: dict, after: dict, seconds: float, published: dict,
              summaries: dict, size: int) -> dict:
    """Link rates over the publishing window, loss and latency over every subscriber."""
    link_bytes = linkstats.link_bytes(state, before, after)
    switch_links = {f"{x['a']}-{x['b']}" for x in state["links"] if x["kind"] == "switch"}
    mbps = {k: v * 8 / seconds / 1e6 for k, v in link_bytes.items()}
    publisher_mbps = size * 8 / (INTERVAL_MS / 1000) / 1e6
    active = {k: v for k, v in mbps.items() if k in switch_links and v > 0.1 * publisher_mbps}
    n = published["messages"]
    lat = sorted(x / 1000 for s in summaries.values() for x in s["latency_us"])
    return {
        "messages": n, "publish_seconds": published["seconds"],
        "publisher_mbps": publisher_mbps,
        "publisher_measured_mbps": published["bytes"] * 8 / published["seconds"] / 1e6,
        "window_seconds": seconds,
        "switch_link_mbps": {k: v for k, v in mbps.items() if k in switch_links},
        "host_link_mbps": {k: v for k, v in mbps.items() if k not in switch_links},
        "active_links": sorted(active),
        "max_link_mbps": max(active.values(), default=0.0),
        "max_over_publisher": max(active.values(), default=0.0) / publisher_mbps,
        "max_over_min_active": (max(active.values()) / min(active.values())) if active else None,
        "total_switch_link_mbps": sum(v for k, v in mbps.items() if k in switch_links),
        "loss": 1 - sum(s["unique"] for s in summaries.values()) / (n * len(summaries)),
        "late_1s": sum(1 for x in lat if x > 1000) / len(lat) if lat else 0.0,
        "per_subscriber": {h: {"received": s["received"], "unique": s["unique"],
                               "duplicates": s["received"] - s["unique"],
                               "loss": 1 - s["unique"] / n} for h, s in summaries.items()},
        "latency_ms": quantiles(lat),
    }


def quantiles(values: list[float]) -> dict:
    q = {f"p{p}": percentile(values, p) for p in (1, 25, 50, 75, 99)}
    q.update({"min": values[0] if values else float("nan"),
              "max": values[-1] if values else float("nan"),
              "mean": sum(values) / len(values) if values else float("nan"),
              "count": len(values)})
    return q


# ---- the experiment --------------------------------------------------------------------------

def measure(args) -> dict:
    """Every selected scenario in every selected mode on one network; other results are kept
    from the committed JSON, so a partial run refreshes just its cells."""
    r = load() if (args.scenarios != list(SCENARIOS) or args.modes != MODES) else {}
    runs = r.setdefault("runs", {})
    skipped = r.setdefault("skipped", {})
    modes = list(args.modes)
    if "netpubsub" in modes:
        ok, why = edge_commands_available()
        if not ok:
            log(f"netpubsub mode skipped: {why}")
            skipped["netpubsub"] = why
            modes.remove("netpubsub")
        else:
            skipped.pop("netpubsub", None)
    work = tempfile.mkdtemp(prefix="nps-snaps-")
    log(f"logs of brokers, agents and the controller in {work}")
    net = Network(work)
    try:
        r.update(setup(net, args))
        total, done = len(args.scenarios) * len(modes), 0
        for scenario in args.scenarios:
            for mode in modes:
                done += 1
                log(f"run {done}/{total}: {scenario} in {mode} mode")
                old = runs.get(scenario, {}).get(mode)
                if old:  # a re-run cell keeps what it replaces on the record
                    r.setdefault("replaced", []).append(replaced(scenario, mode, old))
                try:
                    runs.setdefault(scenario, {})[mode] = run(net, scenario, mode, args)
                except SessionError as e:  # one failed run does not lose the others
                    log(f"[{scenario}/{mode}] failed: {e}")
                    runs[scenario][mode] = {"error": str(e)}
    finally:
        net.close()
    return r


def replaced(scenario: str, mode: str, x: dict) -> dict:
    """The headline of a cell a partial run replaces."""
    if "error" in x:
        return {"scenario": scenario, "mode": mode, "error": x["error"]}
    return {"scenario": scenario, "mode": mode, "loss": x["loss"],
            "max_over_publisher": x["max_over_publisher"], "latency_ms_p50": x["latency_ms"]["p50"],
            "load_average": x.get("load_average"), "network_after": x.get("network_after")}


def setup(net: Network, args) -> dict:
    return {"machine": machine(), "topology": TOPOLOGY, "link_mbit": LINK_RATE_MBIT,
            "interval_ms": INTERVAL_MS, "classic_broker": CLASSIC_BROKER,
            "seconds": args.seconds, "settle_seconds": args.settle,
            "shaping_check": net.shaping,
            "labels": {s["name"]: s.get("label") for s in net.state["switches"]},
            "scenarios": {k: {"publisher": f"h{p}", "subscribers": [f"h{x}" for x in s],
                              "bytes": b} for k, (p, s, b) in SCENARIOS.items()}}


def load() -> dict:
    path = os.path.join(RESULTS, NAME + ".json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return json.load(f)


# ---- the report ------------------------------------------------------------------------------

COLORS = {"classic": "tab:red", "federated": "tab:orange", "netpubsub": "tab:green",
          "groups-udp": "tab:blue"}


def cells(r: dict):
    """(scenario, mode, result) in scenario order, modes in MODES order."""
    for scenario in SCENARIOS:
        for mode in MODES:
            x = r.get("runs", {}).get(scenario, {}).get(mode)
            if x and "error" not in x:
                yield scenario, mode, x


def plot(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    runs = list(cells(r))
    fig, ax = plt.subplots(3, 1, figsize=(13, 11), sharex=True)
    scen_index = {s: i for i, s in enumerate(SCENARIOS)}
    width = 0.8 / len(MODES)
    for scenario, mode, x in runs:
        pos = scen_index[scenario] + (MODES.index(mode) - (len(MODES) - 1) / 2) * width
        active = [x["switch_link_mbps"][k] for k in x["active_links"]] or [0.0]
        b = ax[0].boxplot([active], positions=[pos], widths=width * 0.9, patch_artist=True,
                          showfliers=True, medianprops={"color": "black"})
        b["boxes"][0].set_facecolor(COLORS[mode])
        ax[0].plot([pos - width / 2, pos + width / 2], [x["publisher_mbps"]] * 2, "k:", lw=1)
        ax[1].bar(pos, 100 * x["loss"], width * 0.9, color=COLORS[mode])
        q = x["latency_ms"]
        stats = [{"med": q["p50"], "q1": q["p25"], "q3": q["p75"], "whislo": q["p1"],
                  "whishi": q["p99"], "fliers": []}]
        lb = ax[2].bxp(stats, positions=[pos], widths=width * 0.9, patch_artist=True,
                       medianprops={"color": "black"})
        lb["boxes"][0].set_facecolor(COLORS[mode])
    ax[0].axhline(r.get("link_mbit", LINK_RATE_MBIT), color="grey", ls="--", lw=1)
    for mode in MODES:
        ax[0].bar(0, 0, color=COLORS[mode], label=mode if mode in {m for _, m, _ in runs}
                  else f"{mode} (not run)")
    ax[0].legend(loc="upper left")
    ax[0].set(ylabel="Mbit/s per active link", yscale="log",
              title=f"(a) traffic on every active switch-to-switch link (dotted: the publisher's "
                    f"rate; dashed: the links' {r.get('link_mbit')} Mbit/s)")
    ax[1].set_ylim(0, max([5.0] + [110 * x["loss"] for _, _, x in runs]))
    ax[1].set(ylabel="loss (%)", title=f"(b) messages not delivered within "
                                       f"{r.get('settle_seconds')} s of the last publish")
    ax[2].set(ylabel="latency (ms)", yscale="log",
              title="(c) per-message latency (box: p25–p75, whiskers: p1–p99)")
    ax[2].set_xticks(range(len(SCENARIOS)), [
        f"{s}\n{v[2] / 1000:g} KB, {len(v[1])} subs" for s, v in SCENARIOS.items()])
    for a in ax:
        a.grid(alpha=0.3, axis="y")
    fig.suptitle(f"SNAPS scenarios (Table I) on {r.get('topology')}: classic (one Mosquitto on "
                 f"{r.get('classic_broker')}) vs federated Mosquitto vs netpubsub (groups-udp: "
                 "its multicast groups alone)")
    fig.tight_layout()
    fig.savefig(png, dpi=100)


def markdown(r: dict) -> str:
    lines = [
        "# SNAPS on the test bed: classic vs federated vs netpubsub (Table I, Fig. 9)", "",
        "`PYTHONPATH=testbed testbed/.venv/bin/python testbed/experiments/snaps_testbed.py` "
        "(root; `--scenarios`, `--modes`, `--seconds` shorten it, `--replot` redraws). "
        f"Machine: {r.get('machine')}: a 2-core VM shared with other work, Open vSwitch on the "
        "userspace datapath, so absolute latencies and the highest rates are the machine's, "
        "not the network's. Other work ran on the machine meanwhile (the table gives the "
        "1-minute load average before and after each run's publishing): latencies vary from run "
        "to run by an order of magnitude (e.g. scen-5 classic: median 1.7 ms in one run, 251 ms "
        "in another), and so does loss where links saturate (scen-6 federated: 0.7 % in one "
        "run, 16.9 % in another); which links carry how many copies does not vary.",
        "",
        f"Network: `{r.get('topology')}` (11 switches, 14 switch links, host hN on switch sN), "
        f"every switch-to-switch link shaped to {r.get('link_mbit')} Mbit/s by a TBF qdisc on "
        "both root-namespace veth ends (burst 64 KB, 50 ms queue, then drops); host links are "
        "not shaped. **No delay is emulated** (netem is absent on these machines), so latency "
        "here is processing and queueing, not the paper's 10 ms per link. Shaping check: "
        + shaping_text(r.get("shaping_check")) + ".", "",
        f"Load: the publisher sends one MQTT QoS 0 message every {r.get('interval_ms')} ms for "
        f"{r.get('seconds')} s (1.5 KB ≈ 2.67 Mbit/s, 6 KB ≈ 10.7, 12 KB ≈ 21.3), paho-mqtt "
        "clients in the host namespaces, real `mosquitto` 2.0 brokers, every one with "
        "`set_tcp_nodelay true` (Nagle off, so latency is not Nagle's algorithm waiting for a "
        "delayed acknowledgement). Latency: send "
        "timestamp in the payload (the hosts share one clock). Loss: messages a subscriber had "
        f"not received {r.get('settle_seconds')} s after the last publish (MQTT runs over TCP, "
        "so a saturated link shows first as latency; a broker drops a QoS 0 message when the "
        "receiving client's queue is full: *dropped by brokers* sums the brokers' "
        "`$SYS/broker/publish/messages/dropped`, which counts per receiving client, so one "
        "message dropped for three subscribers counts three times). Link rates: OVS port counters over the publishing window, "
        "both directions (TCP acknowledgements included); a link is *active* above 10 % of the "
        "publisher's rate.", "",
        "Modes:", "",
        f"- **classic**: one Mosquitto on {r.get('classic_broker')}; publisher and subscribers "
        "connect to it over the network (IPv6 unicast routed by `nps controller`).",
        "- **federated**: one Mosquitto per participating host (publisher's and subscribers'), "
        "clients connect locally. Every broker has an inbound bridge from every other "
        "participating broker, `topic snaps/# in 0 bridged/ \"\"`: what a bridge pulls is "
        "republished under `bridged/…`, which no bridge subscribes to, so a message crosses one "
        "bridge at most (RabbitMQ federation's max-hops 1) — a full mesh with no loops and no "
        "duplicates. (The plain mesh, `topic snaps/# in 0` everywhere, loops: a bridge also "
        "pulls what its upstream pulled from a third broker, and messages come back to where "
        "they were published; on linear:3 the publisher's own subscriber got 213 copies of 100 "
        "messages. `testbed/tests/test_federation_ovs.py` proves the prefixed mesh exact.) Subscribers subscribe to `snaps/data` and `bridged/snaps/data` (in the "
        "other modes to `snaps/data` only; and to the warm-up topic). Each bridge has "
        "its own `remote_clientid` (Mininet hosts share one hostname, and mosquitto's default "
        "bridge client id is hostname.connection).",
        "- **netpubsub**: one Mosquitto per participating host with `nps edge-agent` beside it "
        "(UDP port 7447 on every host), one `nps edge-coordinator` in the root namespace on the "
        "management address, `--controller` the controller's API, which embeds a multicast "
        "group per topic; the switches replicate. What the agent needs from its broker: "
        "`log_dest topic`, `log_type subscribe`, `log_type unsubscribe`, `log_type notice` (it "
        "learns local subscriptions from `$SYS/broker/log/...`).",
        "- **groups-udp**: the network part of netpubsub alone, without brokers or agents: "
        "the controller embeds the group the coordinator would ask for (`PUT /v1/groups/"
        "snaps%2Fdata`, the subscribers' hosts as members, the publisher's as source), and "
        "the publisher's stream goes as UDP datagrams of the same size and schedule to the "
        "group's `send_to` (`ff1e:5e00:…`); the switches replicate and rewrite to each "
        "member; UDP receivers on the subscribers' hosts (`testbed/pubsub/udp_load.py`). "
        "Datagrams above the 1500-byte MTU travel as IPv6 fragments (1.5 KB: 2, 12 KB: 9), "
        "which the switches replicate and rewrite like any packet.", "",
    ]
    if r.get("skipped"):
        for mode, why in r["skipped"].items():
            lines += [f"**{mode} mode not measured**: {why}.", ""]
    lines += summary_lines(r)
    lines += ["![per-link rate, loss, latency](snaps-testbed.png)", "",
              "| scenario | mode | publisher Mbit/s | active links | per-link Mbit/s min / median"
              " / max | max ÷ publisher | max ÷ min | all switch links Mbit/s | loss % | "
              "latency p50 / p99 ms | delivered > 1 s late % | dropped by brokers | load average |",
              "|---|---|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---|"]
    for scenario, mode, x in cells(r):
        rates = sorted(x["switch_link_mbps"][k] for k in x["active_links"]) or [0.0]
        spread = x["max_over_min_active"]
        lines.append(
            f"| {scenario} | {mode} | {x['publisher_mbps']:.2f} | {len(x['active_links'])} | "
            f"{rates[0]:.1f} / {percentile(rates, 50):.1f} / {rates[-1]:.1f} | "
            f"{x['max_over_publisher']:.2f}× | {f'{spread:.2f}×' if spread else '—'} | "
            f"{x['total_switch_link_mbps']:.1f} | {100 * x['loss']:.1f} | "
            f"{x['latency_ms']['p50']:.2f} / {x['latency_ms']['p99']:.2f} | "
            f"{100 * x.get('late_1s', 0):.1f} | {drops_text(x.get('broker_drops'))} | "
            f"{load_text(x.get('load_average'))} |")
    failed = [(s, m, x["error"]) for s, ms in r.get("runs", {}).items() for m, x in ms.items()
              if "error" in x]
    if failed:
        lines += ["", "Failed runs:", ""] + [f"- {s} {m}: {e}" for s, m, e in failed]
    if r.get("replaced"):
        lines += ["", "Cells re-run by a partial run (`--scenarios`/`--modes`); what they "
                  "replaced (each run records in `network_after` whether the controller still "
                  "had every link and host afterwards and, in groups-udp mode, whether the "
                  "group still sent to the publisher's address; the stand-in UDP sender does not "
                  "follow a moved tree):", ""]
        for x in r["replaced"]:
            what = x.get("error") or (
                f"loss {100 * x['loss']:.1f} %, max ÷ publisher {x['max_over_publisher']:.2f}×, "
                f"latency p50 {x['latency_ms_p50']:.2f} ms, load average "
                f"{load_text(x.get('load_average'))}")
            lines.append(f"- {x['scenario']} {x['mode']}: {what}")
    lines += ["", "Per subscriber loss (%), and duplicates where any (there should be none):",
              ""]
    for scenario, mode, x in cells(r):
        per = ", ".join(f"{h} {100 * s['loss']:.1f}" + (
            f" ({s['received'] - s['unique']} duplicates)" if s["received"] != s["unique"] else "")
            for h, s in x["per_subscriber"].items())
        lines.append(f"- {scenario} {mode}: {per}")
    lines += ["", "Switches (Abilene points of presence): " + ", ".join(f"s{i + 1} {label}" for i, label in
                                               enumerate((r.get('labels') or {}).values())), ""]
    return "\n".join(lines)


def drops_text(drops: dict | None) -> str:
    if not drops:  # no broker in the run
        return "—"
    return "?" if any(v < 0 for v in drops.values()) else f"{sum(drops.values()):,}"


def goal_text(xs: list[dict]) -> str:
    if not xs:
        return "not measured"
    worst = max(x["max_over_min_active"] or 1.0 for x in xs)
    return f"{'met' if worst <= 1.05 else 'not met'} (worst {worst:.2f}×)"


def load_text(load) -> str:
    return f"{load[0]:.1f} → {load[1]:.1f}" if load else "—"


def summary_lines(r: dict) -> list[str]:
    """Per mode, the ranges over the scenarios; then the issue's goal for netpubsub."""
    out = ["Summary over the scenarios measured:", ""]
    for mode in MODES:
        xs = [x for _, m, x in cells(r) if m == mode]
        if not xs:
            out.append(f"- **{mode}**: not measured")
            continue
        ratio = [x["max_over_publisher"] for x in xs]
        spread = [x["max_over_min_active"] or 1.0 for x in xs]
        p50 = [x["latency_ms"]["p50"] for x in xs]
        out.append(f"- **{mode}**: the busiest active link carries {min(ratio):.2f}–"
                   f"{max(ratio):.2f}× the publisher's rate, {min(spread):.2f}–{max(spread):.2f}× "
                   f"the least busy one; loss up to {100 * max(x['loss'] for x in xs):.1f} %; "
                   f"median latency {min(p50):.1f}–{max(p50):.1f} ms")
    nps = [x for _, m, x in cells(r) if m == "netpubsub"]
    net = [x for _, m, x in cells(r) if m == "groups-udp"]
    out += ["", "Goal of issue 8: with netpubsub every active link carries one copy of the "
            f"stream, max ÷ min active link ≤ 1.05: netpubsub **{goal_text(nps)}**; its network "
            f"part alone (groups-udp) **{goal_text(net)}**. One copy costs more than the "
            "payload rate on the wire (headers; TCP acknowledgements in the broker modes: one "
            "TCP copy is ≈ 1.15× the payload, scen-1 federated), so max ÷ publisher is "
            "the payload-relative figure and max ÷ min, where no link is saturated, the number "
            "of copies on the busiest link.", ""]
    return out


def shaping_text(s: dict | None) -> str:
    if not s:
        return "not run"
    return (f"a paced {s['offered_mbit']:.0f} Mbit/s UDP stream over {s['link']} arrived at "
            f"{s['received_mbit']:.1f} Mbit/s with the link shaped to {s['limit_mbit']} Mbit/s "
            f"and at {s['received_unshaped_mbit']:.1f} Mbit/s with it at {LINK_RATE_MBIT} Mbit/s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenarios", "--only", type=lambda s: s.split(","), default=list(SCENARIOS),
                    help="comma-separated, e.g. scen-1,scen-6 (default: all seven)")
    ap.add_argument("--modes", type=lambda s: s.split(","), default=list(MODES),
                    help="comma-separated of classic,federated,netpubsub,groups-udp "
                         "(default: all)")
    ap.add_argument("--seconds", type=float, default=12, help="publishing time per run")
    ap.add_argument("--settle", type=float, default=10,
                    help="seconds after the last publish before the rest counts as lost")
    ap.add_argument("--warm-timeout", type=float, default=90)
    ap.add_argument("--replot", action="store_true",
                    help="rewrite the plot and the table from the committed JSON; run nothing")
    args = ap.parse_args()
    if args.replot:
        redraw(NAME, plot, markdown)
        return 0
    for s in args.scenarios:
        if s not in SCENARIOS:
            ap.error(f"unknown scenario {s}: {', '.join(SCENARIOS)}")
    for m in args.modes:
        if m not in MODES:
            ap.error(f"unknown mode {m}: {', '.join(MODES)}")
    if os.geteuid() != 0:
        ap.error("needs root (Mininet, Open vSwitch, tc)")
    build()
    write(NAME, measure(args), plot, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
