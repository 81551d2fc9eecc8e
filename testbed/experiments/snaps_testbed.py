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
  netpubsub-amqp  the same with a private RabbitMQ node per host (`nps edge-agent --broker
             amqp://…`), the exchange mirrored by the coordinator, pika clients (amqp_load.py)
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
import sys
import tempfile
import time

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)

from pleroma_ovs import machine  # noqa: E402
from pubsub import linkstats  # noqa: E402
from pubsub.session import JsonLines, SessionError, build, log, percentile, poll  # noqa: E402
from pubsub.shaping import CLIENT_PYTHON  # noqa: E402
from pubsub.snaps_modes import (AGENT_PORT, CLASSIC_BROKER, DEPLOY, Deployment,  # noqa: E402
                                Network, broker_drops, edge_commands_available, in_host,
                                network_state, subscriber_topics)
from results import RESULTS, redraw, write  # noqa: E402
from snaps_report import markdown, plot  # noqa: E402
from snaps_scenarios import (INTERVAL_MS, LINK_RATE_MBIT, MODES, SCENARIOS,  # noqa: E402
                             SWITCH_LINKS, TOPOLOGY)

NAME = "snaps-testbed"
MQTT_LOAD = os.path.join(TESTBED_DIR, "pubsub", "mqtt_load.py")
UDP_LOAD = os.path.join(TESTBED_DIR, "pubsub", "udp_load.py")
AMQP_LOAD = os.path.join(TESTBED_DIR, "pubsub", "amqp_load.py")


def start_subscriber(host: str, broker: str, topics: list[str]) -> JsonLines:
    return in_host(host, CLIENT_PYTHON, MQTT_LOAD, "sub", "--broker", broker, "--name",
                   f"sub-{host}", *[a for t in topics for a in ("--topic", t)])


def start_publisher(host: str, broker: str, size: int, seconds: float,
                    interval_ms: float) -> JsonLines:
    return in_host(host, CLIENT_PYTHON, MQTT_LOAD, "pub", "--broker", broker, "--name",
                   f"pub-{host}", "--size", str(size), "--interval-ms", str(interval_ms),
                   "--seconds", str(seconds), stdin=True)


def start_clients(mode: str, target: str, pub: str, subs: list[str], size: int,
                  seconds: float, d: Deployment,
                  interval_ms: float = INTERVAL_MS) -> tuple[JsonLines, dict[str, JsonLines]]:
    """The publisher and the subscribers of a run: MQTT clients at their broker (h2's address in
    classic mode, the local broker otherwise), AMQP clients at the local RabbitMQ in
    netpubsub-amqp mode, or the UDP stand-ins in groups-udp mode."""
    if mode == "groups-udp":
        subscribers = {h: d.add(in_host(h, CLIENT_PYTHON, UDP_LOAD, "sub", "--port",
                                        str(AGENT_PORT))) for h in subs}
        publisher = in_host(pub, CLIENT_PYTHON, UDP_LOAD, "pub", "--to", target, "--port",
                            str(AGENT_PORT), "--size", str(size), "--interval-ms",
                            str(interval_ms), "--seconds", str(seconds), stdin=True)
    elif mode == "netpubsub-amqp":
        subscribers = {h: d.add(in_host(h, CLIENT_PYTHON, AMQP_LOAD, "sub")) for h in subs}
        publisher = in_host(pub, CLIENT_PYTHON, AMQP_LOAD, "pub", "--size", str(size),
                            "--interval-ms", str(interval_ms), "--seconds", str(seconds),
                            stdin=True)
    else:
        broker = target if mode == "classic" else "::1"
        subscribers = {h: d.add(start_subscriber(h, broker, subscriber_topics(mode)))
                       for h in subs}
        publisher = start_publisher(pub, broker, size, seconds, interval_ms)
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
        drops = ({} if mode in ("groups-udp", "netpubsub-amqp") else
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
              summaries: dict, size: int, interval_ms: float = INTERVAL_MS) -> dict:
    """Link rates over the publishing window, loss and latency over every subscriber."""
    link_bytes = linkstats.link_bytes(state, before, after)
    switch_links = {f"{x['a']}-{x['b']}" for x in state["links"] if x["kind"] == "switch"}
    mbps = {k: v * 8 / seconds / 1e6 for k, v in link_bytes.items()}
    publisher_mbps = size * 8 / (interval_ms / 1000) / 1e6
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
    for edge_mode in ("netpubsub", "netpubsub-amqp"):
        if edge_mode in modes:
            ok, why = edge_commands_available()
            if not ok:
                log(f"{edge_mode} mode skipped: {why}")
                skipped[edge_mode] = why
                modes.remove(edge_mode)
            else:
                skipped.pop(edge_mode, None)
    work = tempfile.mkdtemp(prefix="nps-snaps-")
    log(f"logs of brokers, agents and the controller in {work}")
    net = Network(work, TOPOLOGY, SWITCH_LINKS, LINK_RATE_MBIT)
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
