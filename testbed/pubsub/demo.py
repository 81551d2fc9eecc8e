"""`make demo`: in-network pub/sub on PLEROMA's test bed (10 Open vSwitch switches, 8 hosts).

Seven subscribers on different hosts state filters over stock quotes; a publisher streams a few
thousand quotes, one UDP datagram each, to their content addresses; the switches alone decide
who receives what. At the end: per subscriber the events expected (direct evaluation), received,
false positives dropped by the subscriber, missing, and latency percentiles; content flows per
switch. Exit 0 only if every subscriber got exactly what its filter asks for."""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

from pubsub import auth
from pubsub.session import (NPS, ROOT, Controller, PublisherProcess, SessionError, SubscriberProcess,
                            Testbed, build, ground_truth_soon, log, percentile, poll,
                            stop_all, wait_for_network)

SCHEMA = os.path.join(ROOT, "examples", "schemas", "quotes.yaml")
SYMBOLS = ["IBM", "AAPL", "AMZN", "GOOG", "MSFT", "NVDA", "ORCL", "INTC", "CSCO", "ADBE"]
EXCHANGES = ["NYSE", "NSDQ", "BATS"]

SUBSCRIPTIONS = [
    ("h2", 'symbol == "IBM"'),
    ("h3", "price > 80000"),
    ("h4", "price < 10000 && volume > 500000"),
    ("h5", 'symbol prefix "A" && price in [20000, 40000]'),
    ("h6", "volume < 50000"),
    ("h7", 'exchange == "NYSE" && price >= 50000'),
    ("h8", 'symbol == "MSFT" || symbol == "NVDA" || volume > 990000'),
]


def quotes(n: int, seed: int) -> list[dict]:
    r = random.Random(seed)
    return [{"kind": "event", "attributes": {
        "symbol": r.choice(SYMBOLS), "price": r.randint(0, 100000),
        "volume": r.randint(0, 1000000), "exchange": r.choice(EXCHANGES)}} for _ in range(n)]


def setup(description: str, prefix: str):
    """The options (also `make local-demo`'s), the jar built and the quotes written: (args, work
    directory, events file)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--events", type=int, default=3000)
    ap.add_argument("--rate", type=float, default=500)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    log("building the nps jar (first run only)")
    build()
    work = tempfile.mkdtemp(prefix=prefix)
    events_file = os.path.join(work, "quotes.jsonl")
    with open(events_file, "w") as f:
        for e in quotes(args.events, args.seed):
            f.write(json.dumps(e) + "\n")
    return args, work, events_file


def main() -> int:
    args, work, events_file = setup(__doc__, "nps-demo-")

    design = learn_layout(work, events_file, args.events, args.seed)
    learned = os.path.join(work, "quotes-learned.yaml")
    with open(learned, "w") as f:
        f.write(design["schema_yaml"])
    log(f"learned index layout ({design['length']} bits): "
        f"{' '.join(design['layout']['segments'])}; codings "
        + ", ".join(f"{n}={c['kind']}" for n, c in design['layout']['codings'].items()))
    log(f"starting the controller with {os.path.relpath(SCHEMA, ROOT)} and the learned layout")
    controller = Controller(learned, log_path=os.path.join(work, "controller.log"))
    # the demo runs as the tests do (docs/testbed.md): principals and OpenFlow over TLS
    log(("REST with principals (--auth " + auth.session()["file"] + "; each host's client sends "
         "its own token)" if controller.auth else "REST without authentication")
        + ("; OpenFlow over TLS (ovs-pki certificates)" if controller.tls else "; OpenFlow over tcp:"))
    testbed = None
    subs: list[SubscriberProcess] = []
    try:
        log("starting the PLEROMA test bed: 10 OVS switches (userspace datapath), 8 hosts")
        testbed = Testbed("pleroma", controller)
        wait_for_network(controller, testbed, links=16)
        log("topology discovered (16 links), 8 hosts learned from neighbour discovery")

        for host, text in SUBSCRIPTIONS:
            subs.append(SubscriberProcess(testbed, host, text))
        for s in subs:
            got = s.wait_subscribed()
            log(f"  {s.host} subscribed {s.filter!r} ({got['id']}, flows acknowledged in "
                f"{got['response_ms']:.1f} ms)")

        log(f"h1 advertises and publishes {args.events} quotes at {args.rate:.0f}/s")
        truth = ground_truth_soon(SCHEMA, events_file, [text for _, text in SUBSCRIPTIONS])
        publisher = PublisherProcess(testbed, "h1", events_file, args.rate)
        advertised = publisher.wait_advertised()
        flows = controller.content_flows()  # while the advertisement stands
        consistent = controller.tables_match_switches()
        log(f"advertisement live after {advertised['response_ms']:.1f} ms: "
            f"{sum(flows.values())} content flows installed; publishing")
        summary = publisher.wait_done()
        log(f"published {summary['events']} events in {summary['seconds']:.1f} s")

        truth = truth.result()
        # Deliveries still in flight: wait until each subscriber has its expected count.
        for s, want in zip(subs, truth):
            try:
                poll(lambda: len(s.deliveries()) >= len(want), 15, f"deliveries at {s.host}")
            except SessionError:
                pass  # reported as missing below
        # Cells per subscription (its content flows on a switch), while the subscriptions stand.
        cells = [r["cells"] for r in controller.get("/v1/subscriptions")["subscriptions"]]
        stats = stop_all(subs)
        indexed = controller.get("/v1/pubsub")["index"]["dimensions"]
        return report(subs, truth, stats, flows, consistent, summary, indexed, design, cells)
    finally:
        for s in subs:
            s.terminate()
        if testbed is not None:
            log("tearing the test bed down")
            testbed.down()
        controller.terminate()


def learn_layout(work: str, events_file: str, events: int, seed: int) -> dict:
    """`nps index design` on a sample of the same generator (another seed) and the demo's
    filters; the rates it prints are measured on the events the demo publishes."""
    sample = os.path.join(work, "layout-sample.jsonl")
    with open(sample, "w") as f:
        for host, text in SUBSCRIPTIONS:
            f.write(json.dumps({"kind": "filter", "filter": text, "host": host}) + "\n")
        for e in quotes(events, seed + 1):
            f.write(json.dumps(e) + "\n")
    r = subprocess.run([NPS, "index", "design", "--schema", SCHEMA, "--workload", sample,
                        "--measure", events_file, "--length", "40", "--json"],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise SessionError(f"nps index design failed: {r.stderr.strip()}")
    return json.loads(r.stdout)


def report(subs, truth, stats, flows, consistent, summary, indexed, design, cells) -> int:
    ok = True
    print()
    print(f"{'host':5} {'filter':52} {'expected':>8} {'received':>8} {'false+':>7} "
          f"{'missing':>7} {'p50 µs':>8} {'p99 µs':>8} {'rr false+':>9}")
    rows = design["per_subscription"]
    false_pos = 0
    delivered = 0
    worst = 0.0
    for s, want, st, row in zip(subs, truth, stats, rows):
        got = [d["sequence"] for d in s.deliveries()]
        indices = {seq - FIRST_SEQUENCE for seq in got}
        missing = len(want - indices)
        extra = len(indices - want)
        dup = len(got) - len(set(got))
        lat = [d["latency_us"] for d in s.deliveries()]
        ok &= missing == 0 and extra == 0 and dup == 0
        fp = st.get("false_positives", 0)
        false_pos += fp
        delivered += fp + len(got)
        worst = max(worst, fp / max(1, fp + len(got)))
        print(f"{s.host:5} {s.filter[:52]:52} {len(want):8} {len(got):8} "
              f"{fp:7} {missing:7} {percentile(lat, 50):8.0f} "
              f"{percentile(lat, 99):8.0f} {row['false_positives_round_robin']:9}"
              + ("" if extra == 0 and dup == 0 else
                                              f"  !! {extra} unexpected, {dup} duplicates"))
        if missing:
            print(f"      missing events (file lines): {sorted(want - indices)[:10]}; "
                  f"subscriber saw {st.get('received')} datagrams, {st.get('malformed')} malformed")
    rr = design["round_robin"]
    print(f"false+: delivered by the switches, dropped by the subscriber's exact filter (measured "
          f"on OVS), with the\nlearned layout over {', '.join(indexed)} (docs/content-model.md); "
          f"rr false+: computed for the round-robin\nindex of the schema as `nps bench fpr` does.")
    share = false_pos / max(1, delivered)
    print(f"false positives: {false_pos} of {delivered} deliveries ({100 * share:.1f} %, worst "
          f"subscriber {100 * worst:.1f} %); round-robin: {rr['false_positives']} of "
          f"{rr['delivered']} ({100 * rr['fpr']:.1f} %)")
    print(f"cells (content flows) per subscription: at most {max(cells, default=0)}")
    print()
    print("content flows per switch: " + ", ".join(
        f"s{int(d, 16)}={n}" for d, n in sorted(flows.items(), key=lambda kv: int(kv[0], 16))))
    print(f"controller view equals switch tables: {'yes' if consistent else 'NO'}")
    print(f"publisher: {summary['events']} events at {summary['rate']:.0f}/s")
    print("RESULT: " + ("every subscriber received exactly its events" if ok and consistent
                        else "MISMATCH (see above)"))
    return 0 if ok and consistent else 1


# A publisher numbers its events 1, 2, …: event i of the file has sequence i + 1.
FIRST_SEQUENCE = 1

if __name__ == "__main__":
    try:
        sys.exit(main())
    except SessionError as e:
        log(f"demo failed: {e}")
        sys.exit(1)
