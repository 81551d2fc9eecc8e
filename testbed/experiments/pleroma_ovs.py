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
import re
import subprocess
import sys
import tempfile

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)

import ovs_stats  # noqa: E402
from response_split import (datapath_flows, stage_buckets, stage_split,  # noqa: E402
                            vswitchd_work)
from nps_testbed.ovs import prefix_tracking_args  # noqa: E402
from pubsub import linkstats  # noqa: E402
from results import redraw, write  # noqa: E402
from pubsub.demo import SUBSCRIPTIONS, quotes  # noqa: E402
from pubsub.session import (NPS, ROOT, TESTBED, Controller, JsonLines, PublisherProcess,  # noqa: E402
                            SessionError, SubscriberProcess, Testbed, build, ground_truth, log,
                            percentile, poll, wait_for_network)

MQTT_PUBLISHER = os.path.join(TESTBED_DIR, "pubsub", "mqtt_publisher.py")
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
                                     "100000", *extra, log_path=os.path.join(work, "controller.log"),
                                     warm_up=None)  # as an operator runs it: its own warm-up on
        self.max_idle_set = False
        try:
            self.testbed = Testbed("pleroma", self.controller)
            self.ovs_settings()
            wait_for_network(self.controller, self.testbed, links=16)
        except BaseException:
            self.controller.terminate()
            raise

    def ovs_settings(self) -> None:
        """The OVS settings this experiment runs with, as an operator's (docs/results/
        ovs-response-p99.md, "Stop 40, OVS side"): NPS_PLEROMA_OVS_PREFIXES=1 gives every table
        IPv6 prefix tracking (docs/controller.md recommends it to operators; the test bed's
        tests keep OVS's default), NPS_PLEROMA_OVS_MAX_IDLE=MS sets the datapath flows' idle
        time for the run: 1 000 ms by default, as docs/controller.md recommends operators (the
        datapath caches a megaflow per content address, and every flow-table change makes the
        revalidator revisit them all: stop 40's quiet runs, ovs-response-p99.md), `default` for
        OVS's own 10 000 ms."""
        if os.environ.get("NPS_PLEROMA_OVS_PREFIXES", "0") == "1":
            for sw in self.testbed.state["switches"]:
                subprocess.run(["ovs-vsctl", "-t", "30", *prefix_tracking_args(sw["bridge"])],
                               check=True, capture_output=True, timeout=60)
        max_idle = os.environ.get("NPS_PLEROMA_OVS_MAX_IDLE", "1000")
        if max_idle != "default":
            subprocess.run(["ovs-vsctl", "-t", "30", "set", "Open_vSwitch", ".",
                            f"other_config:max-idle={int(max_idle)}"], check=True,
                           capture_output=True, timeout=60)
            self.max_idle_set = True

    def close(self) -> None:
        self.testbed.down()
        self.controller.terminate()
        if self.max_idle_set:  # a global setting: back to OVS's default for the next OVS user
            subprocess.run(["ovs-vsctl", "-t", "30", "remove", "Open_vSwitch", ".",
                            "other_config", "max-idle"], capture_output=True, timeout=60)


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
            # Warm-up, not measured: the probes' JVMs compile their receive path.
            PublisherProcess(tb, "h1", events_file, args.rate).wait_done()
            # A standing advertisement of everything from the publisher's host, so that every
            # subscription below installs flows: its response time is request → flows acked.
            code, body = c.call("POST", "/v1/advertisements",
                                {"host": tb.host("h1")["address"], "filter": "true"})
            if code != 201:
                raise SessionError(f"standing advertisement refused: {code} {body}")
            warm_up(c, tb, filters, args.warm_up, model)
            controller_warm_up = controller_warmed(os.path.join(work, "controller.log"), model)
            dp_flows = datapath_flows()
            flushed = os.environ.get("NPS_PLEROMA_OVS_FLUSH", "0") == "1"
            if flushed:  # a diagnostic: docstring of datapath_flows
                # the revalidator's records (ukeys) too: after `dpctl/del-flows` alone it still
                # re-translated every one on each pass until max-idle expired them (stop 42)
                subprocess.run(["ovs-appctl", "--timeout=30", "revalidator/purge"], check=True,
                               capture_output=True, timeout=60)
            log(f"[{model}] {dp_flows} datapath flows at the first measured request"
                + (" (deleted)" if flushed else ""))
            stages_before = stage_buckets(c)
            vswitchd_before = ovs_stats.snapshot()
            done = 0
            for n in sorted(args.subscriptions):
                times, changes = [], []
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
                    changes.append(body["flow_changes"])
                    if i % 250 == 249:
                        log(f"[{model}] {i + 1}/{n} subscriptions")
                done = n
                vswitchd = vswitchd_work(ovs_stats.difference(vswitchd_before,
                                                              ovs_stats.snapshot()))
                stages = stage_split(stages_before, stage_buckets(c))
                before = [len(p.deliveries()) for p in probes]
                pub = PublisherProcess(tb, "h1", events_file, args.rate)
                # its advertisement pairs with every subscription: n at once
                advertise_ms = pub.wait_advertised()["response_ms"]
                flows = content_flow_count(c)
                log(f"[{model}] advertisement paired with {n + len(probes)} subscriptions in "
                    f"{advertise_ms:.1f} ms: {flows} content flows")
                summary = pub.wait_done()
                settle(lambda: all(len(p.deliveries()) - b >= args.events
                                   for p, b in zip(probes, before)), 20)
                lat = [d["latency_us"] for p, b in zip(probes, before) for d in p.deliveries()[b:]]
                got = sum(len(p.deliveries()) - b for p, b in zip(probes, before))
                row = {"subscriptions": n, "content_flows": flows, "advertise_ms": advertise_ms,
                       "response_ms": {"p50": percentile(times, 50), "p90": percentile(times, 90),
                                       "p99": percentile(times, 99)} if times else None,
                       "delay_us": {"p50": percentile(lat, 50), "p90": percentile(lat, 90),
                                    "p99": percentile(lat, 99),
                                    "mean": sum(lat) / len(lat) if lat else float("nan")},
                       "flow_changes_per_subscription": sum(changes) / len(changes)
                       if changes else None,
                       "deliveries": got, "expected": args.events * len(probes),
                       "warm_up": args.warm_up,
                       "datapath_flows_at_start": dp_flows, "datapath_flushed": flushed,
                       "stages_ms": stages, "vswitchd": vswitchd,
                       "controller_warm_up": controller_warm_up,
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


def warm_up(c: Controller, tb: Testbed, filters: list[dict], n: int, model: str) -> None:
    """A diagnostic, off by default: n of the workload's subscriptions subscribed and withdrawn
    before the measured ones, so the controller's request path is compiled by the JIT when they
    start (the flows are back as before: the same flow changes per request follow). Against a
    cold run it separates the controller's warm-up from its steady state (ovs-response-p99.md)."""
    ids = []
    for i in range(n):
        f = filters[i % len(filters)]
        code, body = c.call("POST", "/v1/subscriptions", {"host": tb.host(f["host"])["address"],
                                                          "filter": f["filter"], "port": 7073})
        if code != 201:
            raise SessionError(f"warm-up subscription {i} refused: {code} {body}")
        ids.append(body["id"])
    for sid in ids:
        code, body = c.call("DELETE", f"/v1/subscriptions/{sid}")
        if code != 200:
            raise SessionError(f"warm-up withdrawal {sid} refused: {code} {body}")
    if n:
        log(f"[{model}] warm-up: {n} subscriptions subscribed and withdrawn")


def controller_warmed(log_path: str, model: str, timeout: float = 180) -> int | None:
    """Waits until the controller's own start-up warm-up has ended (it runs beside the controller
    once it listens, docs/controller.md), so that it is not measured with the requests; returns
    the synthetic requests it ran (its log line), or None when off or it failed."""
    if os.environ.get("NPS_CONTROLLER_WARM_UP", "") == "0":
        return None
    found: list[int | None] = []

    def ended() -> bool:
        with open(log_path, errors="replace") as f:
            for line in f:
                m = re.search(r"warm-up: (\d+) synthetic requests", line)
                if m or "warm-up failed" in line:
                    found.append(int(m.group(1)) if m else None)
                    return True
        return False

    try:
        poll(ended, timeout, "the controller's warm-up to end", interval=0.5)
    except SessionError:
        log(f"[{model}] the controller's warm-up did not end in {timeout:.0f} s")
        return None
    log(f"[{model}] the controller's warm-up ran {found[0]} requests")
    return found[0]


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
        broker = run_broker(tb, subs_spec, events_file, truth, args)
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
        pub.wait_advertised()
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


# The narrowest MQTT topic filters (topics are quotes/<exchange>/<symbol>) that contain each
# subscriber's events, knowing the symbol list; the client drops the rest, as an MQTT user would.
MQTT_TOPICS = {
    "h2": ["quotes/+/IBM"],                                    # symbol == "IBM"
    "h3": ["quotes/#"],                                        # price > 80000
    "h4": ["quotes/#"],                                        # price < 10000 && volume > 500000
    "h5": ["quotes/+/AAPL", "quotes/+/AMZN", "quotes/+/ADBE"],  # symbol prefix "A" && price …
    "h6": ["quotes/#"],                                        # volume < 50000
    "h7": ["quotes/NYSE/#"],                                   # exchange == "NYSE" && price …
    "h8": ["quotes/#"],                                        # … || volume > 990000
}


def run_broker(tb, subs_spec, events_file, truth, args) -> dict:
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
            topics = [a for t in MQTT_TOPICS[h] + ["quotes/warmup"] for a in ("-t", t)]
            subs[h] = JsonLines([TESTBED, "exec", h, "--", "mosquitto_sub", "-h", broker_addr,
                                 *topics, "-F", '{"recv": "%U", "msg": "%p"}'])
        pub = JsonLines([TESTBED, "exec", "h1", "--", sys.executable, MQTT_PUBLISHER, "--broker",
                         broker_addr, "--events", events_file, "--rate", str(args.rate)],
                        stdin=True)
        pub.wait_for(lambda o: o.get("kind") == "connected", 30, "the MQTT publisher")

        def warm() -> bool:
            pub.proc.stdin.write("warmup\n")
            pub.proc.stdin.flush()
            return all(any(o.get("msg") == "warmup" for o in s.all) for s in subs.values())

        poll(warm, 30, "every MQTT subscriber connected", interval=0.3)
        counted = {h: len(s.all) for h, s in subs.items()}
        before = linkstats.snapshot(tb.state)
        pub.proc.stdin.write("go\n")
        pub.proc.stdin.flush()
        pub.wait_for(lambda o: o.get("kind") == "published", 600, "the MQTT publisher")
        settle(lambda: all(len(received(subs[h], counted[h])) >= len(w)
                           for (h, _), w in zip(subs_spec, truth)), 30)
        after = linkstats.snapshot(tb.state)
    finally:
        if pub is not None:
            pub.terminate()
        for s in subs.values():
            s.terminate()
        broker.terminate()
    lat, per = [], []
    for (h, _), want in zip(subs_spec, truth):
        got = received(subs[h], counted[h])
        for recv, msg in got:
            lat.append((recv * 1e9 - int(msg[1])) / 1000)
        idx = {int(msg[0]) for _, msg in got}
        per.append({"host": h, "topics": MQTT_TOPICS[h], "received": len(got),
                    "matching": len(want), "false_positives": len(idx - want),
                    "missing": len(want - idx)})
    links = linkstats.link_bytes(tb.state, before, after)
    packets = linkstats.link_bytes(tb.state, before, after, packets=True)
    log(f"[mosquitto] {sum(links.values())} bytes, {sum(packets.values())} packets on all links")
    return {"links": links, "total_bytes": sum(links.values()), "link_packets": packets,
            "total_packets": sum(packets.values()),
            "latency_us": {"p50": percentile(lat, 50), "p90": percentile(lat, 90),
                           "p99": percentile(lat, 99)},
            "per_subscriber": per}


def received(sub: JsonLines, skip: int) -> list[tuple[float, list[str]]]:
    """(receive time, payload fields) of the quotes a mosquitto_sub printed after `skip` lines."""
    out = []
    for o in sub.all[skip:]:
        if "recv" in o and o.get("msg", "warmup") != "warmup":
            out.append((float(o["recv"]), o["msg"].split()))
    return out


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


def markdown_scale(r: dict) -> str:
    lines = ["# PLEROMA on Open vSwitch: delay and response time vs subscriptions (Fig. 8a)", "",
             "`testbed/.venv/bin/python testbed/experiments/pleroma_ovs.py scale` (root). "
             f"Machine: {r['machine']}.", "",
             "PLEROMA's test bed (10 OVS bridges, 8 hosts). The subscriptions of one workload "
             "(hosts h1–h8) are added through the REST API while h1 advertises everything, so "
             "each one installs its flows; the response time is request → every flow change "
             "acknowledged by barrier. Then a publisher on h1 advertises everything (pairing with every "
             "subscription at once; its response time is the *advertisement* column) and publishes "
             f"{r['events']} events at {r['rate']:.0f}/s to seven probe subscribers (`nps sub "
             "true` on h2–h8), which measure end-to-end delay. dz length "
             f"{r['dz_length']}, at most {r['max_cells']} cells per subscription.", "",
             "![delay, response time and flows vs subscriptions](pleroma-ovs-scale.png)", "",
             "| model | subscriptions | content flows | flow changes / request | response p50 / p90 "
             "/ p99 (ms) | advertisement (ms) | delay p50 / p90 / p99 (ms) | delivered |",
             "|---|---:|---:|---:|---|---:|---|---:|"]
    for model, rows in r["models"].items():
        for x in rows:
            resp = x["response_ms"]
            resp_s = (f"{resp['p50']:.1f} / {resp['p90']:.1f} / {resp['p99']:.1f}" if resp
                      else "—")
            changes = x.get("flow_changes_per_subscription")
            changes_s = f"{changes:.1f}" if changes is not None else "—"
            d = x["delay_us"]
            lines.append(f"| {model} | {x['subscriptions']} | {x['content_flows']} | {changes_s} | "
                         f"{resp_s} | {x['advertise_ms']:.1f} | {d['p50'] / 1000:.2f} / {d['p90'] / 1000:.2f} / "
                         f"{d['p99'] / 1000:.2f} | {x['deliveries']}/{x['expected']} |")
    warmed = {x.get("warm_up", 0) for rows in r["models"].values() for x in rows} - {0}
    if warmed:
        lines += ["", f"Warmed controller (diagnostic, not the goal's cold measurement): "
                  f"{', '.join(map(str, sorted(warmed)))} subscriptions subscribed and withdrawn "
                  "before the measured ones."]
    lines.append("")
    return "\n".join(lines)


def markdown_bandwidth(r: dict) -> str:
    p, m = r["pleroma"], r["mosquitto"]
    lines = ["# Bandwidth and latency: in-network pub/sub vs one Mosquitto broker", "",
             "`testbed/.venv/bin/python testbed/experiments/pleroma_ovs.py bandwidth` (root). "
             f"Machine: {r['machine']}.", "",
             f"PLEROMA's test bed; h1 publishes {r['events']} stock quotes at {r['rate']:.0f}/s to "
             "six subscribers (h2–h7, the filters of `make demo`). netpubsub: one UDP datagram "
             "per event, filtered and replicated by the switches. Baseline: Mosquitto on h8, "
             "topics quotes/<exchange>/<symbol>, each subscriber on the narrowest MQTT topic "
             "filters that hold its events (knowing the symbol list), the rest dropped by the "
             "client; the payload is compact text about as long as netpubsub's binary event. "
             "Bytes and packets per link come from OVS port counters (both directions, TCP "
             "acknowledgements included).", "",
             "![bytes per link and latency](pleroma-ovs-bandwidth.png)", "",
             "| | netpubsub | Mosquitto | ratio |", "|---|---:|---:|---:|",
             f"| bytes on all links | {p['total_bytes']:,} | {m['total_bytes']:,} | "
             f"{m['total_bytes'] / max(1, p['total_bytes']):.1f}× |",
             f"| packets on all links | {p['total_packets']:,} | {m['total_packets']:,} | "
             f"{m['total_packets'] / max(1, p['total_packets']):.1f}× |"]
    for q in ("p50", "p90", "p99"):
        lines.append(f"| latency {q} (ms) | {p['latency_us'][q] / 1000:.2f} | "
                     f"{m['latency_us'][q] / 1000:.2f} | "
                     f"{m['latency_us'][q] / max(1e-9, p['latency_us'][q]):.1f}× |")
    lines += ["", "| subscriber | filter | matching | netpubsub received (false +) | "
              "Mosquitto received (false +) | missing (netpubsub / Mosquitto) |",
              "|---|---|---:|---:|---:|---|"]
    for s, ps, ms in zip(r["subscribers"], p["per_subscriber"], m["per_subscriber"]):
        pm = ps["matching"] - ps["delivered"]
        lines.append(f"| {s['host']} | `{s['filter']}` | {s['matching']} | {ps['received']} "
                     f"({ps['false_positives']}) | {ms['received']} ({ms['false_positives']}) | "
                     f"{pm} / {ms['missing']} |")
    lines += ["", "netpubsub's false positives come from the index: the quotes schema indexes "
              "price and volume, so symbol and exchange constraints are left to the subscriber's "
              "exact check (docs/pubsub.md, *False positives*). They cost bytes on the last "
              "links only; the broker's cost every subscriber's copy on every shared link.", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["scale", "bandwidth", "all"])
    ap.add_argument("--subscriptions", type=lambda s: [int(x) for x in s.split(",")],
                    default=[0, 1000, 4000, 16000])
    ap.add_argument("--models", type=lambda s: s.split(","), default=["uniform", "zipf"])
    ap.add_argument("--events", type=int, default=1000)
    ap.add_argument("--rate", type=float, default=200)
    ap.add_argument("--warm-up", type=int, default=int(os.environ.get("NPS_PLEROMA_WARMUP", "0")),
                    metavar="N", help="scale: subscribe and withdraw N subscriptions before the "
                    "measured ones (a diagnostic: the controller's steady state without its JIT "
                    "warm-up; default 0 or $NPS_PLEROMA_WARMUP, which ovs_response.py's --build "
                    "can set)")
    ap.add_argument("--dz-length", type=int, default=12)
    ap.add_argument("--max-cells", type=int, default=16)
    ap.add_argument("--replot", action="store_true",
                    help="rewrite the plots and tables from the committed JSON; run nothing")
    args = ap.parse_args()
    if args.replot:
        for name, plot, markdown, what in REPORTS:
            if args.what in (what, "all"):
                redraw(name, plot, markdown)
        return 0
    build()
    work = tempfile.mkdtemp(prefix="nps-exp-")
    if args.what in ("scale", "all"):
        write("pleroma-ovs-scale", scale(args, work), plot_scale, markdown_scale)
    if args.what in ("bandwidth", "all"):
        write("pleroma-ovs-bandwidth", bandwidth(args, work), plot_bandwidth, markdown_bandwidth)
    return 0


REPORTS = [("pleroma-ovs-scale", plot_scale, markdown_scale, "scale"),
           ("pleroma-ovs-bandwidth", plot_bandwidth, markdown_bandwidth, "bandwidth")]


if __name__ == "__main__":
    sys.exit(main())
