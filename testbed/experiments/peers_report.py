"""docs/results/peers.{md,png} from peers.json: a table per load, the goal ratios, latency CDFs
and bytes per link (experiments/peers.py)."""

from __future__ import annotations

import statistics

LABEL = {"netpubsub": "netpubsub (Java client, learned layout)",
         "netpubsub-py": "netpubsub (Python client)", "mosquitto": "Mosquitto (1 broker)",
         "nats": "NATS (1 server)", "nats3": "NATS (cluster of 3)", "zenoh": "Zenoh (peers)"}


VARIANT_LABEL = {
    "prefixes": ", OVS prefix tracking on ipv6_dst",  # session 32, before it was the default
    "noprefixes": ", OVS's default classifier (no IPv6 prefix tracking)",
    "lines": ", a JSON line per delivery, JVMs at C1 (session 34)",
    "c1": ", JVMs at C1 only", "before": ", before (the base commit's client)",
    "nojit": ", no JIT warm-up (session 35)"}


def label(system: str) -> str:
    base, *flags = system.split("/")
    return LABEL[base] + "".join(VARIANT_LABEL[f] for f in flags)


def upcalls(x: dict) -> str:
    """All upcalls of the run, and (since session 35) those after the warm-up in parentheses."""
    total = x.get("datapath", {}).get("upcalls", "—")
    after = x.get("datapath_measured", {}).get("upcalls")
    return f"{total}" if after is None else f"{total} ({after})"


def load_key(load: dict, topology: str = "pleroma") -> str:
    return (f"{load['subscribers']} subscribers, {load['rate']} events/s, {load['payload']} B"
            + ("" if topology == "pleroma" else f", {topology}"))


def by_load(r: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for row in r["runs"]:
        out.setdefault(load_key(row["load"], row.get("topology", r["topology"])), []).append(row)
    return out


def ms(us) -> str:
    return "—" if us is None else f"{us / 1000:.2f}"


def drops(row: dict) -> str:
    """Datagrams the kernel dropped in the window, by where (pubsub/drops.py)."""
    if "kernel_drops" not in row:
        return "—"
    return ", ".join(f"{k} {v}" for k, v in row["kernel_drops"].items()) or "0"


def cpu(x) -> str:
    return "—" if x is None else f"{x:.3f}"


def goals(rows: list[dict]) -> list[str]:
    """The issue's goal ratios, from the runs of one load (every repeat), per netpubsub client."""
    out = []
    variants = dict.fromkeys(x["system"] for x in rows if x["system"].startswith("netpubsub"))
    for variant in variants:
        out += [f"*{label(variant)}*:"] + goals_of(variant, rows)
    refused = [x for x in rows if not x["reported"]]
    out.append("- delivered exactly by every system: "
               + ("yes" if not refused else "NO — " + "; ".join(
                   f"{x['system']} (run {x.get('repeat', 0) + 1}): {'; '.join(x['reasons'])}"
                   for x in refused)))
    return out


def goals_of(variant: str, rows: list[dict]) -> list[str]:
    ok = [x for x in rows if x["reported"]]
    nps = [x for x in ok if x["system"] == variant]
    peers = [x for x in ok if not x["system"].startswith("netpubsub")]
    if not nps or not peers:
        return ["- not computable (netpubsub or every peer refused or missing)"]
    out = []
    best_bytes = min(statistics.median([x["total_bytes"] for x in peers if x["system"] == s])
                     for s in {x["system"] for x in peers})
    nb = statistics.median([x["total_bytes"] for x in nps])
    out.append(f"- bytes on all links (medians): {nb:,.0f} vs best peer {best_bytes:,.0f} = "
               f"{nb / best_bytes:.3f} (goal ≤ 0.2): {'met' if nb * 5 <= best_bytes else 'NOT met'}")
    if all("background_bytes" in x for x in nps + peers):  # every system's own traffic only
        def own(xs):
            return statistics.median([x["total_bytes"] - x["background_bytes"] for x in xs])
        best_own = min(own([x for x in peers if x["system"] == s]) for s in {x["system"] for x in peers})
        no = own(nps)
        out.append(f"- the same without the links' background (LLDP, ND: the idle rate before the "
                   f"run × the window, for every system): {no:,.0f} vs {best_own:,.0f} = "
                   f"{no / best_own:.3f}: {'met' if no * 5 <= best_own else 'NOT met'}")
    reps = sorted({x["repeat"] for x in rows})
    wins = []
    for rep in reps:
        n = [x for x in nps if x["repeat"] == rep]
        p = [x for x in peers if x["repeat"] == rep]
        if n and p:
            best = min(p, key=lambda x: x["latency_us"]["p99"])
            wins.append((rep, n[0]["latency_us"]["p99"], best["system"],
                         best["latency_us"]["p99"]))
    met = bool(wins) and all(a <= b for _, a, _, b in wins) and len(wins) == len(reps)
    out.append("- latency p99 ≤ best peer in every repeat: "
               + ", ".join(f"run {rep + 1}: {a / 1000:.2f} vs {s} {b / 1000:.2f} ms"
                           for rep, a, s, b in wins)
               + f": {'met' if met else 'NOT met'}")
    per = {s: statistics.median([x["cpu_s_per_1000"]["subscribers"] for x in ok
                                 if x["system"] == s]) for s in {x["system"] for x in ok}}
    best_s = min((s for s in per if not s.startswith("netpubsub")), key=per.get)
    out.append(f"- subscriber CPU per 1 000 delivered (medians): {per[variant]:.3f} s vs "
               f"best peer {best_s} {per[best_s]:.3f} s: "
               f"{'met' if per[variant] <= per[best_s] else 'NOT met'}")
    return out


def markdown(r: dict) -> str:
    v = r["versions"]
    lines = ["# Head to head: netpubsub vs Mosquitto, NATS and Zenoh (issue 26)", "",
             f"`sudo flock /tmp/nps-ovs.lock testbed/.venv/bin/python testbed/experiments/"
             f"peers.py --sweep --repeat 5` reruns everything (this file: `{r['command']}`).", "",
             f"**Measured on a loaded machine** (other jobs running; load average "
             f"{' '.join(r['loadavg_before'])} before, {' '.join(r['loadavg_after'])} after): "
             "absolute numbers are not valid, compare systems within one run. "
             f"Machine: {v['machine']}; {v['ovs']} (userspace datapath); {v['mosquitto']}; "
             f"{v['nats-server']}; eclipse-zenoh {v['eclipse-zenoh']}; nats-py {v['nats-py']}; "
             f"paho-mqtt {v['paho-mqtt']}; Python {v['python']}. Topology `{r['topology']}`.", "",
             "![latency CDFs and bytes per link](peers.png)", ""]
    segments = " ".join(r.get("index_layout", {}).get("segments", []))
    lines += [x.replace("{netpubsub}", NETPUBSUB["learned"].replace("{layout}", segments))
              .replace("{netpubsub-py}", NETPUBSUB["schema"]) for x in METHOD]
    warm = {x["load"].get("warmup", 0) for x in r["runs"]}
    if warm != {0}:  # runs since session 33
        lines += [WARMUP.format(n="/".join(str(n) for n in sorted(warm))), ""]
    for key, rows in by_load(r).items():
        lines += [f"## {key}", "",
                  "| system | run | delivered (dropped by filter) | p50 / p99 / p99.9 (ms) | "
                  "bytes / packets on all links | CPU s per 1 000 delivered: publisher / "
                  "broker / subscribers / ovs-vswitchd | OVS upcalls (after the warm-up) | kernel drops | "
                  "publisher rate |",
                  "|---|---:|---|---|---|---|---:|---|---:|"]
        for x in rows:
            run = x.get("repeat", 0) + 1
            if not x["reported"]:
                lines.append(f"| {label(x['system'])} | {run} | **REFUSED**: "
                             f"{'; '.join(x['reasons'])[:300]} | | | | | "
                             f"{drops(x)} | |")
                continue
            lat, c = x["latency_us"], x["cpu_s_per_1000"]
            lines.append(
                f"| {label(x['system'])} | {run} | {x['delivered']:,} ({x['dropped_by_filter']:,}) | "
                f"{ms(lat['p50'])} / {ms(lat['p99'])} / {ms(lat['p99.9'])} | "
                f"{x['total_bytes']:,} / {x['total_packets']:,} | {cpu(c['publisher'])} / "
                f"{cpu(c['broker'])} / {cpu(c['subscribers'])} / {cpu(c['ovs-vswitchd'])} | "
                f"{upcalls(x)} | {drops(x)} | "
                f"{x['publish_rate']:.0f}/s |")
        lines += ["", "Goals (issue 26), as measured in this run:", ""] + goals(rows) + [""]
    if r.get("notes"):  # written into the JSON after reading the run, so --replot keeps them
        lines += ["## Observations on this run", ""] + [f"- {n}" for n in r["notes"]] + [""]
    lines += FOR
    return "\n".join(lines) + "\n"


NETPUBSUB = {
    "learned": "the controller runs the demo's learned index layout (`nps index design` on "
    "another sample of the quotes and the seven filters, as `make demo` does: {layout}) and "
    "installs content flows; the Java client (`nps sub --json --stats`, and `nps pub --from - "
    "--rate R`, started, connected and advertised before the run as the peers' clients are, "
    "the events written to its stdin on *go*: it paces from the first one; the *before* "
    "client, which paced from its advertisement, is started with `--from FILE` on *go*, so "
    "its JVM start is outside the window and its advertisement's flow installation inside) sends one UDP datagram per event "
    "to its content address; the switches match address prefixes, replicate and rewrite it "
    "to each subscribing host. At the host: the exact filter drops the false positives of "
    "the index (*dropped by filter*). Since session 35 `nps sub --summary` records each "
    "delivery's latency in an HdrHistogram in the client and prints the sequences and the "
    "histogram once at the end, as the Python clients do (until session 34, and in the "
    "`/lines` variant, it printed a JSON line per delivery for the harness), and the client "
    "JVMs run with C2 (serial GC, 192 MB heap; `/lines` and `/c1`: C1 only, the test bed's "
    "quick-start setting). Since session 36 each subscriber JVM decodes and filters 20 000 "
    "synthetic events before subscribing (`nps sub --jit-warmup`: its receive path compiled, "
    "as in a subscriber that has been running; `/nojit`: without) and collects its start-up "
    "garbage. The broker CPU column is the controller's.",
    "schema": "the same controller and learned index layout as the Java client (until "
    "session 34 in a session of its own after the others; before session 33, e.g. "
    "peers-upcalls.md, on `examples/schemas/quotes.yaml`, a round-robin index over price and "
    "volume, whose false positives the host drops); the controller "
    "installs content flows; the Python client (`peer_client.py`) sends one UDP datagram per "
    "event to its content address; the switches match address prefixes, replicate and "
    "rewrite it to each subscribing host. At the host: the exact filter (*dropped by "
    "filter*). The broker CPU column is the controller's."}

WARMUP = (
    "Warm-up, the same for every system: each run publishes its first {n} events (`--warmup` "
    "seconds at the load's rate) before the measured ones, in the same paced stream. "
    "They are delivered and checked like every other event and counted in bytes, packets and "
    "CPU, but left out of the latency histograms (sequence ≤ {n}): by then the peers' "
    "connections, the JVMs' first-event code paths and most of OVS's megaflows for the "
    "content addresses in use are warm, as in a system that has been running (since session "
    "36 the default is 2 s: the last switch's rewrite of the destination makes a megaflow per "
    "content address and subscriber port, and 0.5 s left ~13 % of the measured deliveries "
    "with an address their port had not seen yet, 2 s ~5 %; peers-tail.md). Since session 35 every "
    "run starts from an empty megaflow cache (`ovs-appctl dpctl/del-flows` before its idle "
    "period), so no run inherits the megaflows of the one before it (netpubsub's Java and "
    "Python clients use the same content addresses), and the *OVS upcalls* column gives in "
    "parentheses those after the warm-up, by the publisher's pace. Every bridge tracks "
    "prefixes on ipv6_dst/ipv6_src in every table during every run (peers.py turns it on "
    "for the run and off after, since the test bed's bridges keep OVS's default; "
    "`/noprefixes`: OVS's default, for the comparison).")

METHOD = [
    "## What each system does", "",
    "Same everywhere: h1 publishes the demo's quotes (`pubsub/demo.py`, seed 11), paced, each "
    "encoded by netpubsub's EventCodec (attributes, sequence, send time, the payload) — the "
    "same bytes in every system. Subscriber *i* runs on h2…h8 in turn with the demo's filter "
    "*i* mod 7. Every broker's and Zenoh's client is a Python process "
    "(`pubsub/peer_client.py`, encoding with netpubsub's Python EventCodec) whose subscriber "
    "hands each message to netpubsub's own Python receive path (decode, exact filter: what "
    "netpubsub's host filter does) and records the latency (receive − send, one machine's "
    "clock) in an HdrHistogram; the harness merges them. Every subscriber's deliveries "
    "are compared with `nps filter match` (direct evaluation): a system "
    "that lost, added or duplicated an event, or whose process died, is refused.", "",
    "- **netpubsub** (Java client): {netpubsub}",
    "- **netpubsub-py** (Python client, same controller, test bed and rotation as the "
    "others): {netpubsub-py}",
    "- **Mosquitto**: one broker on the last host over TCP (QoS 0, no queue limit); topics "
    "`quotes/<exchange>/<symbol>`, each subscriber on the narrowest topic filters that hold "
    "its events (`pubsub/peer_verdict.py` NARROWEST); the network only forwards unicast.",
    "- **NATS** (1 server on the last host; cluster of 3 on hosts of edge switches far apart, "
    "every client on its nearest server): subjects `quotes.<exchange>.<symbol>`, the narrowest "
    "subject filters. A cluster forwards a message once per remote server with interest.",
    "- **Zenoh**: peer mode, the documented default for applications on one local network "
    "(zenoh.io, *Deployment*: peers talk directly, no router hop). Multicast scouting is off "
    "(the test bed is IPv6-only); each subscriber connects to the publisher's peer as entry "
    "point (gossip scouting). Routers would run on end hosts here, not on the switches, so "
    "they could only add a hop. Key expressions as for NATS (`quotes/*/IBM`, `quotes/**`); "
    "reliable, congestion control *block*.", "",
    "Bytes and packets: OVS port counters of every link, both directions, over the publishing "
    "and delivery window (TCP acknowledgements and the brokers' control traffic included). "
    "CPU: utime + stime from /proc/PID/stat of each process tree over the same window.", ""]

FOR = [
    "## What each system is for", "",
    "netpubsub moves filtering into the switches: for one publisher fanning out to many "
    "content filters it sends each event once per link, with no broker to run, but needs an "
    "SDN fabric it controls and at-most-once UDP. Mosquitto is the simple, standard MQTT "
    "broker: devices, persistent sessions, QoS 1/2, retained messages, one process to run. "
    "NATS is a fast general messaging system — request/reply, queue groups, JetStream "
    "persistence, clustering across data centres — that works on any IP network. Zenoh "
    "unifies pub/sub, queries and storage from microcontrollers to the cloud and routes "
    "across arbitrary topologies (peer-to-peer, routers, ROS 2). The three peers need nothing "
    "from the network; netpubsub's advantage in bytes is exactly what it asks of the "
    "network.", ""]


def plot(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    groups = by_load(r)
    key = next((k for k in groups if k.startswith("8 subscribers, 1000")), next(iter(groups)))
    rows = [x for x in groups[key] if x["reported"]]
    fig, ax = plt.subplots(1, 2, figsize=(15, 5), gridspec_kw={"width_ratios": [1, 2]})
    first = {}
    for x in rows:
        first.setdefault(x["system"], x)
    for s, x in first.items():
        cdf = x["latency_us"]["cdf"]
        ax[0].plot([v / 1000 for _, v in cdf], [p for p, _ in cdf], "o-", ms=3, label=label(s))
    ax[0].set(xscale="log", xlabel="latency (ms, log)", ylabel="percentile",
              title=f"latency CDF, {key} (first run)")
    ax[0].legend(fontsize=8)
    ax[0].grid(alpha=0.3)
    links = sorted({k for x in first.values() for k in x["links"]},
                   key=lambda k: -max(x["links"].get(k, 0) for x in first.values()))
    w = 0.8 / max(1, len(first))
    for j, (s, x) in enumerate(first.items()):
        ax[1].bar([i + (j - len(first) / 2) * w for i in range(len(links))],
                  [x["links"].get(k, 0) / 1e3 for k in links], w, label=label(s))
    ax[1].set_xticks(range(len(links)), links, rotation=70, fontsize=7)
    ax[1].set(ylabel="kB on the link", title=f"bytes per link, {key}")
    ax[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
