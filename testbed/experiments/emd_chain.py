"""EMD Figure 10 on real Open vSwitch: the delay of a ping across a chain of N bridges when every
hop asks the controller (reactive forwarding by the learning-switch app on the northbound bus,
`nps controller --forwarding reactive --apps simple+3red`), for three ways the bus hands
packet-ins to its apps:

  broadcast  every app gets every packet-in (Ryu/ONOS style); topics as match fields
  fields     classified by OpenFlow match fields (EMD)
  bytes      classified by protocol-independent byte windows (EMD "+i", bytes@12/2=86dd)

Each round deletes the learned flows on every bridge, then h1 pings hN once: the echo request and
the reply each cause one packet-in, flow-mod and packet-out per bridge. A ping with the flows in
place gives the data path's own share. Writes docs/results/emd-chain.{json,md,png}. Needs root.

  testbed/.venv/bin/python testbed/experiments/emd_chain.py [--lengths 2,4,8,16] [--rounds 20]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

TESTBED_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTBED_DIR)

from results import measure, pick, table  # noqa: E402
from pubsub.session import (Controller, Testbed, build, free_port, log,  # noqa: E402
                            wait_for_network)
from pleroma_ovs import machine  # noqa: E402

NAME = "emd-chain"
MODES = {"broadcast": ("broadcast", "fields"), "fields": ("classified", "fields"),
         "bytes": ("classified", "bytes")}
LEARNED_PRIORITY = 10  # LearningSwitchApp.PRIORITY
RTT = re.compile(r"time=([0-9.]+) ms")


def reactive_controller(openflow_port: int, api_port: int, mode: str, apps: str,
                        log_path: str) -> Controller:
    """`nps controller --forwarding reactive` on given ports (so switches reconnect to a new one),
    with the test bed's principals and OpenFlow over TLS like every other controller it starts
    (pubsub/session.py; NPS_TESTBED_AUTH=0 / NPS_TESTBED_OPENFLOW_TLS=0 for the plain runs that
    docs/results/emd-chain.md measured). The controller's own warm-up default is kept."""
    nbi, topics = MODES[mode]
    return Controller(None, "--forwarding", "reactive", "--apps", apps, "--nbi", nbi,
                      "--nbi-topics", topics, log_path=log_path, openflow_port=openflow_port,
                      api_port=api_port, warm_up=None)


def ping_ms(testbed: Testbed, src: str, dst_address: str) -> float | None:
    r = testbed.exec(src, "ping", "-6", "-c1", "-W2", dst_address, timeout=30)
    m = RTT.search(r.stdout)
    return float(m.group(1)) if m else None


def forget_learned(testbed: Testbed, addresses: list[str]) -> None:
    """Deletes the learning switch's flows for these destinations on every bridge (strictly, so
    the controller's own punt entries stay)."""
    for s in testbed.state["switches"]:
        for a in addresses:
            subprocess.run(["ovs-ofctl", "-O", "OpenFlow13", "del-flows", "--strict", s["bridge"],
                            f"priority={LEARNED_PRIORITY},ipv6,ipv6_dst={a}"],
                           check=True, capture_output=True, timeout=30)


def chain(n: int, modes: list[str], rounds: int, apps: str, work: str) -> list[dict]:
    rows = []
    of_port, api_port = free_port(), free_port()
    controller = reactive_controller(of_port, api_port, modes[0], apps,
                                     os.path.join(work, f"controller-{n}-{modes[0]}.log"))
    testbed = None
    try:
        testbed = Testbed(f"linear:{n}", controller)
        for i, mode in enumerate(modes):
            if i > 0:  # a new controller on the same ports: the bridges reconnect to it
                controller.terminate()
                controller = reactive_controller(of_port, api_port, mode, apps,
                                                 os.path.join(work, f"controller-{n}-{mode}.log"))
            wait_for_network(controller, testbed, links=n - 1, timeout=120)
            src, dst = testbed.host("h1"), testbed.host(f"h{n}")
            for _ in range(3):  # learn both ends' ports on every bridge
                ping_ms(testbed, "h1", dst["address"])
            first, steady = [], []
            for r in range(rounds):
                forget_learned(testbed, [src["address"], dst["address"]])
                first.append(ping_ms(testbed, "h1", dst["address"]))
                steady.append(ping_ms(testbed, "h1", dst["address"]))
            ok = [x for x in first if x is not None]
            base = [x for x in steady if x is not None]
            row = {"switches": n, "mode": mode, "apps": apps, "rounds": rounds,
                   "lost": len(first) - len(ok),
                   "first_ms_median": statistics.median(ok) if ok else None,
                   "first_ms_mean": statistics.mean(ok) if ok else None,
                   "steady_ms_median": statistics.median(base) if base else None,
                   "first_ms": ok}
            log(f"[chain {n}] {mode}: first ping median {row['first_ms_median']} ms, "
                f"with flows {row['steady_ms_median']} ms, lost {row['lost']}")
            rows.append(row)
    finally:
        if testbed is not None:
            testbed.down()
        controller.terminate()
    return rows


def plot(r: dict, png: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = r["chain"]["rows"]
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for mode in MODES:
        pts = sorted((x["switches"], x["first_ms_median"]) for x in pick(rows, mode=mode)
                     if x["first_ms_median"] is not None)
        ax[0].plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=mode)
        base = {x["switches"]: x["first_ms_median"] for x in pick(rows, mode="broadcast")}
        rel = [(n, 100 * (v / base[n] - 1)) for n, v in pts if base.get(n)]
        ax[1].plot([p[0] for p in rel], [p[1] for p in rel], marker="o", label=mode)
    ax[0].set_xlabel("switches in the chain")
    ax[0].set_ylabel("first-ping RTT, median (ms)")
    ax[0].set_xscale("log", base=2)
    ax[0].legend()
    ax[1].set_xlabel("switches in the chain")
    ax[1].set_ylabel("vs broadcast (%)")
    ax[1].set_xscale("log", base=2)
    ax[1].axhline(0, color="grey", lw=0.5)
    ax[1].legend()
    fig.suptitle(f"EMD Fig. 10 on OVS: reactive forwarding, {r['chain']['apps']}")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def markdown(r: dict) -> str:
    c = r["chain"]
    rows = sorted(c["rows"], key=lambda x: (x["switches"], list(MODES).index(x["mode"])))
    base = {x["switches"]: x["first_ms_median"] for x in pick(rows, mode="broadcast")}

    def fmt(v):
        return "–" if v is None else f"{v:.3f}"

    def rel(x):
        b = base.get(x["switches"])
        return "–" if not b or x["first_ms_median"] is None else \
            f"{100 * (x['first_ms_median'] / b - 1):+.1f} %"

    out = ["# EMD Figure 10 on Open vSwitch: reactive forwarding along a chain", "",
           f"Machine: {c['machine']}. Command: `testbed/.venv/bin/python "
           f"testbed/experiments/emd_chain.py --lengths {c['lengths']} --rounds {c['rounds']}`.",
           "",
           f"`nps controller --forwarding reactive --apps {c['apps']}` on `linear:N` (one host per "
           "bridge); each round deletes the learned flows and h1 pings hN once, so the echo request "
           "and the reply each cost one packet-in, flow-mod and packet-out per bridge. "
           "*with flows* is the next ping, answered by the data path alone.", ""]
    out += table(rows, [("switches", lambda x: str(x["switches"])), ("mode", lambda x: x["mode"]),
                        ("first ping median (ms)", lambda x: fmt(x["first_ms_median"])),
                        ("mean (ms)", lambda x: fmt(x["first_ms_mean"])),
                        ("vs broadcast", rel),
                        ("with flows (ms)", lambda x: fmt(x["steady_ms_median"])),
                        ("lost", lambda x: str(x["lost"]))])
    out += ["", "![chain](emd-chain.png)", "", "## Reading", "", c.get("reading", ""), ""]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lengths", default="2,4,8,16")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--apps", default="simple+3red")
    ap.add_argument("--modes", default=",".join(MODES))
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("emd_chain.py needs root (Mininet, Open vSwitch)", file=sys.stderr)
        return 2
    build()
    modes = args.modes.split(",")
    work = tempfile.mkdtemp(prefix="nps-emd-chain-")

    def run() -> dict:
        rows = []
        for n in [int(x) for x in args.lengths.split(",")]:
            rows += chain(n, modes, args.rounds, args.apps, work)
        return {"machine": machine(), "lengths": args.lengths, "rounds": args.rounds,
                "apps": args.apps, "rows": rows}

    measure(NAME, {"chain": run}, None, plot, markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
