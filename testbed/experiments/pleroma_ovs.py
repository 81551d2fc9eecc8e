"""PLEROMA on real Open vSwitch (PLEROMA's test bed topology): measurements of issue 4.

  scale      end-to-end delay and subscription response time vs the number of subscriptions
             (paper Figure 8a), uniform and Zipf workloads; flows installed
  bandwidth  bytes per link and latency: in-network pub/sub vs one Mosquitto broker on a host
             serving the same subscribers (events cross shared links once per subscriber)

Writes docs/results/pleroma-ovs-{scale,bandwidth}.{json,md,png}. Needs root.
  PYTHONPATH=testbed testbed/.venv/bin/python testbed/experiments/pleroma_ovs.py scale|bandwidth|all
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from pubsub import linkstats  # noqa: E402
from pubsub.demo import SUBSCRIPTIONS, quotes  # noqa: E402
from pubsub.session import (NPS, ROOT, TESTBED, Controller, JsonLines, PublisherProcess,  # noqa: E402
                            SessionError, SubscriberProcess, Testbed, build, ground_truth, log,
                            percentile, poll, wait_for_network)

RESULTS = os.path.join(ROOT, "docs", "results")
QUOTES = os.path.join(ROOT, "examples", "schemas", "quotes.yaml")


def machine() -> str:
    cpus = os.cpu_count()
    ovs = subprocess.run(["ovs-vswitchd", "--version"], capture_output=True, text=True).stdout
    return (f"{platform.node()}: {cpus} cores, Linux {platform.release()}, "
            f"{ovs.splitlines()[0] if ovs else 'ovs ?'} (userspace datapath)")


def settle(condition, timeout: float) -> None:
    try:
        poll(condition, timeout, "deliveries")
    except SessionError:
        pass


class Network:
    """Controller + PLEROMA test bed, torn down on exit."""

    def __init__(self, schema: str, work: str, *extra: str):
        self.controller = Controller(schema, "--max-requests-per-second", "100000", "--burst",
                                     "100000", *extra, log_path=os.path.join(work, "controller.log"))
        try:
            self.testbed = Testbed("pleroma", self.controller)
            wait_for_network(self.controller, self.testbed, links=16)
        except BaseException:
            self.controller.terminate()
            raise

    def close(self) -> None:
        self.testbed.down()
        self.controller.terminate()


# ---- scale -----------------------------------------------------------------------------------

def scale(args, work: str) -> dict:
    results = {"machine": machine(), "models": {}, "dz_length": args.dz_length,
               "max_cells": args.max_cells, "events": args.events, "rate": args.rate}
    for model in args.models:
        wl = os.path.join(work, f"{model}.jsonl")
        schema = os.path.join(work, f"{model}-schema.yaml")
        n_max = max(args.subscriptions)
        subprocess.run([NPS, "workload", "gen", model, "--subscriptions", str(n_max), "--events",
                        str(args.events), "--hosts", "8", "--seed", "1", "--schema-out", schema,
                        "--out", wl], check=True, capture_output=True, timeout=300)
        lines = [json.loads(x) for x in open(wl)]
        filters = [x for x in lines if x["kind"] == "filter"]
        events_file = os.path.join(work, f"{model}-events.jsonl")
        with open(events_file, "w") as f:
            f.writelines(json.dumps(x) + "\n" for x in lines if x["kind"] == "event")
        log(f"[{model}] {len(filters)} subscriptions, {args.events} events")
        net = Network(schema, work, "--dz-length", str(args.dz_length), "--max-cells",
                      str(args.max_cells))
        rows = []
        probes: list[SubscriberProcess] = []
        try:
            tb, c = net.testbed, net.controller
            probes = [SubscriberProcess(tb, f"h{i}", "true") for i in range(2, 9)]
            for p in probes:
                p.wait_subscribed()
            done = 0
            for n in sorted(args.subscriptions):
                times = []
                for i in range(done, n):
                    f = filters[i]
                    host = tb.host(f["host"])["address"]
                    # the event port: one copy per host however many of its subscriptions match
                    # (a host agent demultiplexes); nobody listens there in this experiment
                    code, body = c.call("POST", "/v1/subscriptions",
                                        {"host": host, "filter": f["filter"], "port": 7073})
                    if code != 201:
                        raise SessionError(f"subscription {i} refused: {code} {body}")
                    times.append(body["response_ms"])
                    if i % 250 == 249:
                        log(f"[{model}] {i + 1}/{n} subscriptions")
                done = n
                before = [len(p.deliveries()) for p in probes]
                pub = PublisherProcess(tb, "h1", events_file, args.rate)
                t0 = time.monotonic()
                pub.wait_advertised(c)
                # the probes ask for everything: once the advertisement's flows are in, some exist
                flows = poll(lambda: content_flow_count(c), 120, "the advertisement's flows")
                log(f"[{model}] advertised after {time.monotonic() - t0:.1f} s: {flows} flows")
                summary = pub.wait_done()
                settle(lambda: all(len(p.deliveries()) - b >= args.events
                                   for p, b in zip(probes, before)), 20)
                lat = [d["latency_us"] for p, b in zip(probes, before) for d in p.deliveries()[b:]]
                got = sum(len(p.deliveries()) - b for p, b in zip(probes, before))
                row = {"subscriptions": n, "content_flows": flows,
                       "response_ms": {"p50": percentile(times, 50), "p90": percentile(times, 90),
                                       "p99": percentile(times, 99)} if times else None,
                       "delay_us": {"p50": percentile(lat, 50), "p90": percentile(lat, 90),
                                    "p99": percentile(lat, 99),
                                    "mean": sum(lat) / len(lat) if lat else float("nan")},
                       "deliveries": got, "expected": args.events * len(probes),
                       "publish_rate": summary["rate"]}
                rows.append(row)
                log(f"[{model}] n={n}: flows={flows}, delay p50={row['delay_us']['p50']:.0f} µs, "
                    f"response p50={row['response_ms']['p50'] if times else 0:.1f} ms, "
                    f"{got}/{row['expected']} delivered")
        finally:
            for p in probes:
                p.terminate()
            net.close()
        results["models"][model] = rows
    return results


def content_flow_count(c: Controller) -> int:
    """Content flows the controller wants, all switches together."""
    return sum(len([f for f in c.get(f"/v1/switches/{s['dpid']}/flows")["flows"]
                    if f["cookie"] == "4e50530000000002"])
               for s in c.get("/v1/topology")["switches"])


def plot_scale(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 3, figsize=(14, 4))
    for model, rows in r["models"].items():
        n = [x["subscriptions"] for x in rows]
        ax[0].plot(n, [x["delay_us"]["p50"] / 1000 for x in rows], "o-", label=f"{model} p50")
        ax[0].plot(n, [x["delay_us"]["p99"] / 1000 for x in rows], "x--", label=f"{model} p99")
        rn = [x["subscriptions"] for x in rows if x["response_ms"]]
        ax[1].plot(rn, [x["response_ms"]["p50"] for x in rows if x["response_ms"]], "o-",
                   label=f"{model} p50")
        ax[1].plot(rn, [x["response_ms"]["p99"] for x in rows if x["response_ms"]], "x--",
                   label=f"{model} p99")
        ax[2].plot(n, [x["content_flows"] for x in rows], "o-", label=model)
    ax[0].set(xlabel="subscriptions", ylabel="end-to-end delay (ms)", title="delay vs subscriptions")
    ax[1].set(xlabel="subscriptions", ylabel="response time (ms)",
              title="subscription response (request → flows acked)")
    ax[2].set(xlabel="subscriptions", ylabel="content flows (all switches)", title="flows")
    for a in ax:
        a.legend()
        a.grid(alpha=0.3)
    fig.suptitle("PLEROMA on Open vSwitch (userspace datapath), 10 switches / 8 hosts")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


# ---- bandwidth -------------------------------------------------------------------------------

BROKER_HOST = "h8"
SUBSCRIBER_HOSTS = ["h2", "h3", "h4", "h5", "h6", "h7"]


def bandwidth(args, work: str) -> dict:
    events = quotes(args.events, 11)
    events_file = os.path.join(work, "quotes.jsonl")
    with open(events_file, "w") as f:
        f.writelines(json.dumps(e) + "\n" for e in events)
    subs_spec = [(h, text) for h, text in SUBSCRIPTIONS if h in SUBSCRIBER_HOSTS]
    truth = ground_truth(QUOTES, events_file, [t for _, t in subs_spec])
    net = Network(QUOTES, work)
    try:
        tb, c = net.testbed, net.controller
        pleroma = run_pleroma(tb, c, subs_spec, events_file, truth, args)
        broker = run_broker(tb, subs_spec, events, truth, args)
    finally:
        net.close()
    return {"machine": machine(), "events": args.events, "rate": args.rate,
            "event_datagram_bytes": "≈ 90–110 (IPv6 + UDP + EventCodec v1)",
            "subscribers": [{"host": h, "filter": t, "matching": len(w)}
                            for (h, t), w in zip(subs_spec, truth)],
            "pleroma": pleroma, "mosquitto": broker}


def run_pleroma(tb, c, subs_spec, events_file, truth, args) -> dict:
    subs = [SubscriberProcess(tb, h, t) for h, t in subs_spec]
    try:
        for s in subs:
            s.wait_subscribed()
        pub = PublisherProcess(tb, "h1", events_file, args.rate)
        pub.wait_advertised(c)
        before = linkstats.snapshot(tb.state)
        pub.wait_done()
        settle(lambda: all(len(s.deliveries()) >= len(w) for s, w in zip(subs, truth)), 20)
        after = linkstats.snapshot(tb.state)
        stats = [s.stop() for s in subs]
    finally:
        for s in subs:
            s.terminate()
    lat = [d["latency_us"] for s in subs for d in s.deliveries()]
    links = linkstats.link_bytes(tb.state, before, after)
    packets = linkstats.link_bytes(tb.state, before, after, packets=True)
    log(f"[pleroma] {sum(links.values())} bytes, {sum(packets.values())} packets on all links")
    return {"links": links, "total_bytes": sum(links.values()), "link_packets": packets,
            "total_packets": sum(packets.values()),
            "latency_us": {"p50": percentile(lat, 50), "p90": percentile(lat, 90),
                           "p99": percentile(lat, 99)},
            "per_subscriber": [{"host": s.host, "received": st.get("received"),
                                "delivered": len(s.deliveries()),
                                "false_positives": st.get("false_positives"),
                                "matching": len(w)} for s, st, w in zip(subs, stats, truth)]}


def run_broker(tb, subs_spec, events, truth, args) -> dict:
    broker_addr = tb.host(BROKER_HOST)["address"]
    conf = os.path.join(tempfile.mkdtemp(prefix="nps-mosq-"), "mosquitto.conf")
    with open(conf, "w") as f:
        f.write("listener 1883 ::\nallow_anonymous true\n")
    broker = JsonLines([TESTBED, "exec", BROKER_HOST, "--", "mosquitto", "-c", conf])
    subs = {}
    pub = None
    try:
        poll(lambda: tb.exec(BROKER_HOST, "sh", "-c", "ss -ltn | grep -q ':1883'").returncode == 0,
             20, "mosquitto listening")
        for h, _ in subs_spec:
            subs[h] = JsonLines([TESTBED, "exec", h, "--", "mosquitto_sub", "-h", broker_addr,
                                 "-t", "quotes", "-F", '{"recv": "%U", "msg": %p}'])
        pub = subprocess.Popen([TESTBED, "exec", "h1", "--", "mosquitto_pub", "-h", broker_addr,
                                "-t", "quotes", "-l"], stdin=subprocess.PIPE, text=True)

        def warm() -> bool:
            pub.stdin.write(json.dumps({"warmup": True}) + "\n")
            pub.stdin.flush()
            return all(any("warmup" in o.get("msg", {}) for o in s.all) for s in subs.values())

        poll(warm, 30, "every MQTT subscriber connected", interval=0.3)
        counted = {h: len(s.all) for h, s in subs.items()}
        before = linkstats.snapshot(tb.state)
        period = 1.0 / args.rate
        start = time.monotonic()
        for i, e in enumerate(events):
            delay = start + i * period - time.monotonic()
            if delay > 0:
                time.sleep(delay)  # pacing the publisher, not waiting for an outcome
            pub.stdin.write(json.dumps({"i": i, "sent": time.time_ns(),
                                        "attributes": e["attributes"]}) + "\n")
            pub.stdin.flush()
        settle(lambda: all(len(s.all) - counted[h] >= len(events) for h, s in subs.items()), 30)
        after = linkstats.snapshot(tb.state)
    finally:
        if pub is not None:
            pub.stdin.close()
            pub.wait(timeout=30)
        for s in subs.values():
            s.terminate()
        broker.terminate()
    lat, per = [], []
    for (h, _), want in zip(subs_spec, truth):
        got = [o for o in subs[h].all[counted[h]:] if "i" in o.get("msg", {})]
        for o in got:
            lat.append((float(o["recv"]) * 1e9 - o["msg"]["sent"]) / 1000)
        idx = {o["msg"]["i"] for o in got}
        per.append({"host": h, "received": len(got), "matching": len(want),
                    "false_positives": len(idx - want), "missing": len(want - idx)})
    links = linkstats.link_bytes(tb.state, before, after)
    packets = linkstats.link_bytes(tb.state, before, after, packets=True)
    log(f"[mosquitto] {sum(links.values())} bytes, {sum(packets.values())} packets on all links")
    return {"links": links, "total_bytes": sum(links.values()), "link_packets": packets,
            "total_packets": sum(packets.values()),
            "latency_us": {"p50": percentile(lat, 50), "p90": percentile(lat, 90),
                           "p99": percentile(lat, 99)},
            "per_subscriber": per}


def plot_bandwidth(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    links = sorted(set(r["pleroma"]["links"]) | set(r["mosquitto"]["links"]),
                   key=lambda k: -r["mosquitto"]["links"].get(k, 0))
    x = range(len(links))
    fig, ax = plt.subplots(1, 2, figsize=(15, 4.5), gridspec_kw={"width_ratios": [3, 1]})
    ax[0].bar([i - 0.2 for i in x], [r["mosquitto"]["links"].get(k, 0) / 1e3 for k in links], 0.4,
              label="one Mosquitto broker (h8)")
    ax[0].bar([i + 0.2 for i in x], [r["pleroma"]["links"].get(k, 0) / 1e3 for k in links], 0.4,
              label="in-network (PLEROMA)")
    ax[0].set_xticks(list(x), links, rotation=70, fontsize=7)
    ax[0].set(ylabel="kB on the link", title=f"bytes per link, {r['events']} events")
    ax[0].legend()
    names = ["p50", "p90", "p99"]
    ax[1].bar([i - 0.2 for i in range(3)], [r["mosquitto"]["latency_us"][n] / 1000 for n in names],
              0.4, label="Mosquitto")
    ax[1].bar([i + 0.2 for i in range(3)], [r["pleroma"]["latency_us"][n] / 1000 for n in names],
              0.4, label="PLEROMA")
    ax[1].set_xticks(range(3), names)
    ax[1].set(ylabel="ms", title="end-to-end latency")
    ax[1].legend()
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["scale", "bandwidth", "all"])
    ap.add_argument("--subscriptions", type=lambda s: [int(x) for x in s.split(",")],
                    default=[0, 250, 1000, 4000])
    ap.add_argument("--models", type=lambda s: s.split(","), default=["uniform", "zipf"])
    ap.add_argument("--events", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=200)
    ap.add_argument("--dz-length", type=int, default=12)
    ap.add_argument("--max-cells", type=int, default=16)
    args = ap.parse_args()
    build()
    work = tempfile.mkdtemp(prefix="nps-exp-")
    os.makedirs(RESULTS, exist_ok=True)
    if args.what in ("scale", "all"):
        r = scale(args, work)
        write("pleroma-ovs-scale", r, plot_scale)
    if args.what in ("bandwidth", "all"):
        r = bandwidth(args, work)
        write("pleroma-ovs-bandwidth", r, plot_bandwidth)
    return 0


def write(name: str, r: dict, plot) -> None:
    with open(os.path.join(RESULTS, name + ".json"), "w") as f:
        json.dump(r, f, indent=1)
    plot(r, os.path.join(RESULTS, name + ".png"))
    log(f"wrote docs/results/{name}.json and .png")


if __name__ == "__main__":
    sys.exit(main())
