"""Where one ``publish`` spends its time: each step of the publish path timed alone over the
benchmark's events (throughput.py's schema, events and sink), per event in thread CPU time, the
empty loop subtracted; then the whole calls for comparison, and with ``--profile`` a cProfile of
the buffered publish with content addresses. ``--net dummy``: the datagrams leave through
throughput.py's dropping device in a namespace of its own (netns.py), not to loopback. Run from
the repository root:

    taskset -c 0 env PYTHONPATH=clients/python python3 clients/python/benchmarks/breakdown.py
"""

from __future__ import annotations

import cProfile
import os
import pstats
import socket
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import netns  # noqa: E402
import throughput as tp  # noqa: E402

from netpubsub import Event, PubSubConfig, Publisher  # noqa: E402


def _per_event(run, count: int) -> float:
    """µs of thread CPU time per event of run() (best of 3)."""
    best = float("inf")
    for _ in range(3):
        t = time.thread_time()
        run()
        best = min(best, time.thread_time() - t)
    return best / count * 1e6


def main():
    dummy = "--net" in sys.argv and sys.argv[sys.argv.index("--net") + 1:][:1] == ["dummy"]
    if dummy:
        netns.enter()
    count = tp.COUNT
    config = PubSubConfig(tp.SCHEMA, 34)
    sink = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    sink.bind(("::1", 0))
    host, to = (netns.HOST, netns.SINK) if dummy else ("::1", ("::1", sink.getsockname()[1]))
    names = [a.name for a in tp.SCHEMA.attributes]
    attrs = [dict(zip(names, v)) for v in tp.events(1000)]
    batch = [attrs[i % len(attrs)] for i in range(count)]

    def publisher(addressed: bool, **options):
        pub = Publisher(tp._Offline("http://[::1]:1"), host=host, config=config, linger=0,
                        destination=None if addressed else to, **options)
        if addressed:
            tp._addressed(pub, to)
        pub.advertise(tp.ADVERTISE)
        return pub

    pub = publisher(True)
    pick, encode, match, address = pub._pick, pub.codec._encode, pub._match, config.address
    values = [list(pick(a)) for a in batch]
    pid, now = pub.publisher_id, time.time_ns()
    datas = [encode(v, b"", pid, i, now) for i, v in enumerate(values)]
    addresses = [address(v) for v in values]
    for a in set(addresses):
        pub._sockaddr(a)
    sockaddrs = pub._sockaddrs
    names_to = [sockaddrs[a] for a in addresses]
    lock = threading.Lock()
    time_ns = time.time_ns

    def empty():
        for _ in batch:
            pass

    def loop(body: str, **scope):
        code = compile(f"def run():\n    for x, v, d, a in items:\n        {body}\n", "<step>",
                       "exec")
        scope["items"] = list(zip(batch, values, datas, addresses))
        exec(code, scope)
        return scope["run"]

    steps = {
        "attrs -> values (itemgetter, list)": loop("list(pick(x)); len(x)", pick=pick),
        "clock (time.time_ns)": loop("time_ns()", time_ns=time_ns),
        "encode (generated)": loop("encode(v, b'', pid, 7, now)", encode=encode, pid=pid,
                                   now=now),
        "advertisement check": loop("match(v)", match=match),
        "content address": loop("address(v)", address=address),
        "sockaddr cache look-up": loop("sockaddrs.get(a)", sockaddrs=sockaddrs),
        "lock (with)": loop("with lock: pass", lock=lock),
        "Event(...)": loop("Event(s, v, bytes(b''), 1, 2, 3)", Event=Event, s=tp.SCHEMA),
    }
    sender = pub._sender
    connected = Publisher(tp._Offline("http://[::1]:1"), host=host, config=config, linger=0,
                          destination=to)._sender
    cap = sender.capacity

    def sends(s, with_names):
        def run():
            for i in range(0, count, cap):
                s.send(datas[i:i + cap], names_to[i:i + cap] if with_names else None)
        return run

    base = _per_event(empty, count)
    out = [(k, _per_event(run, count) - base) for k, run in steps.items()]
    out.append((f"sendmmsg per {cap}, connected (per event)", _per_event(sends(connected, False),
                                                                          count) - base / cap))
    out.append((f"sendmmsg per {cap}, to sockaddrs (per event)",
                _per_event(sends(sender, True), count) - base / cap))
    for addressed in (False, True):
        for options in ({"batch": False}, {}):
            p = publisher(addressed, **options)
            each = tp._each(p.publish, batch)

            def run():
                each()
                p.flush()
            kind = "buffered" if options == {} else "batch=False"
            out.append((f"whole publish, {'addressed' if addressed else 'fixed'}, {kind}",
                        _per_event(run, count) - base))
            p.close()
    width = max(len(k) for k, _ in out)
    print(f"{'dummy device' if dummy else 'loopback'}, load {tp.load()}, {count} events, µs per event (thread CPU, best of 3)")
    for k, us in out:
        print(f"{k:<{width}}  {us:6.3f}")
    if "--profile" in sys.argv[1:]:
        p = publisher(True)
        each = tp._each(p.publish, batch)
        profile = cProfile.Profile()
        profile.runcall(each)
        p.close()
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
    pub.close()
    sink.close()


if __name__ == "__main__":
    main()
