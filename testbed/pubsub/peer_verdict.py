"""The pure logic of the head-to-head (experiments/peers.py), without I/O: the narrowest topic
filters of each demo filter in each system's syntax, whether a system may be reported (every
process alive, every subscriber got exactly the events its filter matches), latency percentiles
merged from the subscribers' HdrHistograms, and CPU seconds from /proc/PID/stat."""

from __future__ import annotations

from hdrh.histogram import HdrHistogram

ANY = None

# Per demo filter (pubsub/demo.py), the (exchange, symbol) pairs of the narrowest topic filters
# that hold all of its events, knowing the symbol list: what a user of a topic-based system
# would write. ANY is a wildcard level. The rest of each filter is checked at the subscriber.
NARROWEST: dict[str, list[tuple[str | None, str | None]]] = {
    'symbol == "IBM"': [(ANY, "IBM")],
    "price > 80000": [(ANY, ANY)],
    "price < 10000 && volume > 500000": [(ANY, ANY)],
    'symbol prefix "A" && price in [20000, 40000]': [(ANY, "AAPL"), (ANY, "AMZN"),
                                                      (ANY, "ADBE")],
    "volume < 50000": [(ANY, ANY)],
    'exchange == "NYSE" && price >= 50000': [("NYSE", ANY)],
    # the volume alternative can be any symbol on any exchange
    'symbol == "MSFT" || symbol == "NVDA" || volume > 990000': [(ANY, ANY)],
}


def topic_filters(system: str, filter_text: str) -> list[str]:
    """The topic filters (MQTT), subjects (NATS) or key expressions (Zenoh) of one filter."""
    try:
        pairs = NARROWEST[filter_text]
    except KeyError:
        raise ValueError(f"no topic mapping for filter {filter_text!r}") from None
    out = []
    for exchange, symbol in pairs:
        if system == "mosquitto":
            out.append("quotes/#" if exchange is ANY and symbol is ANY else
                       f"quotes/{exchange or '+'}/{symbol or '+'}")
        elif system == "nats":
            out.append("quotes.>" if exchange is ANY and symbol is ANY else
                       f"quotes.{exchange or '*'}.{symbol or '*'}")
        elif system == "zenoh":
            out.append("quotes/**" if exchange is ANY and symbol is ANY else
                       f"quotes/{exchange or '*'}/{symbol or '*'}")
        else:
            raise ValueError(f"system {system!r} has no topics")
    return out


def topic_matches(pairs: list[tuple[str | None, str | None]], exchange: str, symbol: str) -> bool:
    """Whether a quote's topic falls under one of the pairs (what the broker delivers)."""
    return any((e is ANY or e == exchange) and (s is ANY or s == symbol) for e, s in pairs)


def differences(expected: list[set[int]], got: list[list[int] | None],
                names: list[str]) -> list[str]:
    """What differs between each subscriber's delivered sequence numbers (event i of the file
    has sequence i + 1) and the events its filter matches; empty when every one is exact."""
    out = []
    for name, want, seqs in zip(names, expected, got):
        if seqs is None:
            out.append(f"{name}: no result (it hung or was killed before printing it)")
            continue
        indices = [s - 1 for s in seqs]
        have = set(indices)
        missing, extra = sorted(want - have), sorted(have - want)
        dups = len(indices) - len(have)
        if missing:
            out.append(f"{name}: {len(missing)} of {len(want)} events missing "
                       f"(first: {missing[:5]})")
        if extra:
            out.append(f"{name}: {len(extra)} events its filter does not match (first: "
                       f"{extra[:5]})")
        if dups:
            out.append(f"{name}: {dups} duplicate deliveries")
    if len(got) != len(expected):
        out.append(f"{len(got)} subscriber results for {len(expected)} subscribers")
    return out


def verdict(system: str, expected: list[set[int]], got: list[list[int] | None] | None,
            names: list[str], died: list[str]) -> dict:
    """{"system", "reported": bool, "reasons": [...]}: a system is reported only if none of its
    processes died mid-run and every subscriber got exactly its events."""
    reasons = [f"{p} died mid-run" for p in died]
    if got is None:
        reasons.append("no deliveries collected")
    else:
        reasons += differences(expected, got, names)
    return {"system": system, "reported": not reasons, "reasons": reasons}


def refusal_text(v: dict) -> str:
    return f"REFUSED {v['system']}: " + "; ".join(v["reasons"])


def merged_latency(encoded: list[str]) -> dict:
    """p50/p90/p99/p99.9/max (µs) and the CDF points of the subscribers' histograms merged."""
    total = HdrHistogram(1, 60_000_000, 3)
    for e in encoded:
        total.add(HdrHistogram.decode(e))
    n = total.get_total_count()
    q = {f"p{p:g}": total.get_value_at_percentile(p) if n else None
         for p in (50, 90, 99, 99.9)}
    q["max"] = total.get_max_value() if n else None
    q["count"] = n
    cdf = []
    if n:
        for p in (0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100):
            cdf.append([p, total.get_value_at_percentile(p)])
    q["cdf"] = cdf
    return q


def cpu_seconds(stat_line: str, ticks_per_second: int) -> float:
    """utime + stime of one /proc/PID/stat line (fields 14 and 15; the command name may hold
    spaces and parentheses, so fields are counted after its last ')')."""
    rest = stat_line[stat_line.rindex(")") + 2:].split()
    return (int(rest[11]) + int(rest[12])) / ticks_per_second


def per_thousand(cpu: dict[str, float], delivered: int) -> dict[str, float | None]:
    """CPU seconds per 1 000 delivered events, per role."""
    return {role: (s * 1000 / delivered if delivered else None) for role, s in cpu.items()}


def datapath_counts(pmd_stats: str) -> dict[str, int]:
    """Packets received and upcalls (misses sent to the slow path) summed over the threads of
    `ovs-appctl dpif-netdev/pmd-stats-show` (the userspace datapath)."""
    out = {"packets": 0, "upcalls": 0, "failed_upcalls": 0}
    for line in pmd_stats.splitlines():
        key, _, value = line.strip().partition(":")
        value = value.strip().split(" ")[0]
        if not value.isdigit():
            continue
        if key == "packets received":
            out["packets"] += int(value)
        elif key == "miss with success upcall":
            out["upcalls"] += int(value)
        elif key == "miss with failed upcall":
            out["failed_upcalls"] += int(value)
    return out


def max_by_tenth(deliveries: list[tuple[int, float]]) -> list[float]:
    """The highest latency among the (sequence, latency) deliveries of each tenth of the run, by
    sequence: where in the run the tail is (the first events, met by cold code, or throughout)."""
    if not deliveries:
        return []
    n = max(seq for seq, _ in deliveries)
    out = [0.0] * 10
    for seq, latency in deliveries:
        i = min(9, (seq - 1) * 10 // max(1, n))
        out[i] = max(out[i], float(latency))
    return out
