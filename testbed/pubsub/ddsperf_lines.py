"""What `ddsperf ping` prints, taken apart (pure): one line per second and ponger,
`[PID] T  HOST:PID size S mean Mus min Aus 50% Pus 90% Qus 99% Rus max Xus cnt N`, whose latencies
are half the round trip (ddsperf divides the round trip by two), over the pongs of that second."""

from __future__ import annotations

import re

LINE = re.compile(r"\[(\d+)\]\s+([\d.]+)\s+(\S+:\d+)\s+size\s+(\d+)\s+mean\s+([\d.]+)us\s+"
                  r"min\s+([\d.]+)us\s+50%\s+([\d.]+)us\s+90%\s+([\d.]+)us\s+99%\s+([\d.]+)us\s+"
                  r"max\s+([\d.]+)us\s+cnt\s+(\d+)")


def parse(line: str) -> dict | None:
    """One second's latencies towards one ponger (`peer` is its HOST:PID), or None."""
    m = LINE.search(line)
    if not m:
        return None
    return {"t": float(m[2]), "peer": m[3], "mean_us": float(m[5]), "min_us": float(m[6]),
            "p50_us": float(m[7]), "p90_us": float(m[8]), "p99_us": float(m[9]),
            "max_us": float(m[10]), "count": int(m[11])}


def median(xs: list[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
