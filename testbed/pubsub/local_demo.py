"""`make local-demo`: `make demo`'s seven subscribers and publisher on `nps local` (docs/local.md):
no root, no Open vSwitch. The controller installs its flows on ten simulated switches of the test
bed's shape; events cross them as loopback UDP. At the end: per subscriber the events expected
(direct evaluation), received, false positives dropped by the subscriber and missing; the content
flows per switch. Exit 0 only if every subscriber got exactly what its filter asks for. Latency
is not reported: the local network is for developing applications, not for measuring them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from pubsub.demo import FIRST_SEQUENCE, SCHEMA, SUBSCRIPTIONS, setup
from pubsub.session import CLIENT_JAVA_OPTS, NPS, SessionError, ground_truth, log, poll


def lines(path: str) -> list[dict]:
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    pass  # a line still being written
    return out


def main() -> int:
    args, work, events_file = setup(__doc__, "nps-local-demo-")
    env = dict(os.environ, NPS_JAVA_OPTS=CLIENT_JAVA_OPTS)
    procs: list[subprocess.Popen] = []

    def start(name: str, argv: list[str], environ=None) -> str:
        path = os.path.join(work, name)
        procs.append(subprocess.Popen(argv, stdout=open(path, "w"),
                                      stderr=open(path + ".err", "w"), env=environ))
        return path

    try:
        log(f"starting nps local with {os.path.relpath(SCHEMA)}: the controller and 10 simulated "
            "switches (no root)")
        local = start("local.jsonl", [NPS, "local", "--schema", SCHEMA, "--api",
                                      "http://127.0.0.1:0", "--json"])
        ready = poll(lambda: [l for l in lines(local) if l.get("kind") == "local"]
                     or procs[0].poll() is not None, 300, "nps local to start")
        if procs[0].poll() is not None:
            raise SessionError("nps local failed: " + open(local + ".err").read().strip())
        api = ready[0]["api"]
        log(f"local network ready: api {api}, local switch {ready[0]['local_switch']}")
        subs = []
        for host, text in SUBSCRIPTIONS:
            n = int(host[1:])
            subs.append((host, text, start(f"{host}.jsonl", [
                NPS, "sub", "--json", "--stats", "-c", api, "--host", f"fd6e:7073:1::{n}", text],
                env)))
        for host, text, path in subs:
            got = poll(lambda: [l for l in lines(path) if l.get("kind") == "subscribed"]
                       or None, 300, f"{host} to subscribe")[0]
            log(f"  {host} subscribed {text!r} ({got['id']}, flows acknowledged in "
                f"{got['response_ms']:.1f} ms)")
        log(f"h1 advertises and publishes {args.events} quotes at {args.rate:.0f}/s")
        pub = start("h1.jsonl", [NPS, "pub", "--json", "-c", api, "--host", "fd6e:7073:1::1",
                                 "--rate", str(args.rate), "--from", events_file], env)
        publisher = procs[-1]
        poll(lambda: publisher.poll() is not None, 600, "the publisher to finish")
        summary = [l for l in lines(pub) if l.get("kind") == "published"]
        if publisher.returncode != 0 or not summary:
            raise SessionError("nps pub failed: " + open(pub + ".err").read().strip())
        log(f"published {summary[0]['events']} events in {summary[0]['seconds']:.1f} s")
        truth = ground_truth(SCHEMA, events_file, [text for _, text, _ in subs])
        for (host, _, path), want in zip(subs, truth):
            try:
                poll(lambda: sum(1 for l in lines(path) if l.get("kind") == "delivery")
                     >= len(want), 30, f"deliveries at {host}")
            except SessionError:
                pass  # reported as missing below
        for p in procs[1:1 + len(subs)]:
            p.send_signal(signal.SIGTERM)
        for p in procs[1:1 + len(subs)]:
            p.wait(timeout=120)
        flows = [l for l in lines(local) if l.get("kind") == "flows"]
        return report(subs, truth, flows)
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


def report(subs, truth, flows) -> int:
    ok = True
    print()
    print(f"{'host':5} {'filter':52} {'expected':>8} {'received':>8} {'false+':>7} {'missing':>7}")
    for (host, text, path), want in zip(subs, truth):
        out = lines(path)
        got = [d["sequence"] for d in out if d.get("kind") == "delivery"]
        stats = next((d for d in out if d.get("kind") == "stats"), {})
        indices = {seq - FIRST_SEQUENCE for seq in got}
        missing, extra, dup = len(want - indices), len(indices - want), len(got) - len(set(got))
        ok &= missing == 0 and extra == 0 and dup == 0
        print(f"{host:5} {text[:52]:52} {len(want):8} {len(got):8} "
              f"{stats.get('false_positives', 0):7} {missing:7}"
              + ("" if extra == 0 and dup == 0 else f"  !! {extra} unexpected, {dup} duplicates"))
    busiest = max(flows, key=lambda f: sum(f["content_flows"].values()), default=None)
    if busiest is not None:
        print()
        print("content flows per switch (while the publisher's advertisement stood): " + ", ".join(
            f"{s}={n}" for s, n in busiest["content_flows"].items()))
        last = flows[-1]
        print(f"local switch: {last['events']} events, {last['deliveries']} deliveries, "
              f"{last['unmatched']} stopped in the switches, {last['malformed']} malformed")
    print("RESULT: " + ("every subscriber received exactly its events" if ok
                        else "MISMATCH (see above)"))
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except SessionError as e:
        log(f"local demo failed: {e}")
        sys.exit(1)
