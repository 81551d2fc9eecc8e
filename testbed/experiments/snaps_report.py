"""The report of the SNAPS test-bed experiment: its plot and its Markdown."""

from __future__ import annotations

from pubsub.session import percentile
from snaps_scenarios import LINK_RATE_MBIT, MODES, SCENARIOS

COLORS = {"classic": "tab:red", "federated": "tab:orange", "netpubsub": "tab:green",
          "netpubsub-amqp": "tab:olive",
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
                 f"{r.get('classic_broker')}) vs federated Mosquitto vs netpubsub over Mosquitto "
                 "and RabbitMQ (groups-udp: its multicast groups alone)")
    fig.tight_layout()
    fig.savefig(png, dpi=100)


def markdown(r: dict) -> str:
    lines = [
        "# SNAPS on the test bed: classic vs federated vs netpubsub, MQTT and AMQP "
        "(Table I, Fig. 9)", "",
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
        "- **netpubsub-amqp**: netpubsub with AMQP: a private RabbitMQ 3.10 node per "
        "participating host (`testbed/pubsub/rabbitmq.py`) with `nps edge-agent --broker "
        "amqp://…` beside it, the topic exchange `snaps` declared at the publisher's broker "
        "and mirrored to the others by the coordinator, pika clients "
        "(`testbed/pubsub/amqp_load.py`: routing key `data`, the same payload and schedule; "
        "consumers bind `data`, auto-ack). Brokers' drops are not read in this mode.",
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


