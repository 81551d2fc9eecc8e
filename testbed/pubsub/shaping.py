"""Link shaping on the test bed without netem: a token bucket (tbf) on each root-namespace veth
end of a switch-to-switch link, and a check with a paced UDP stream that it really limits what
OVS's userspace datapath sends."""

from __future__ import annotations

import subprocess

from pubsub.session import TESTBED, SessionError, Testbed, log

CLIENT_PYTHON = "/usr/bin/python3"


def switch_link_interfaces(state: dict, link: dict) -> list[str]:
    """The two root-namespace veth ends of a switch-to-switch link (OVS transmits on each)."""
    by_name = {s["name"]: s for s in state["switches"]}
    out = []
    for end, port in ((link["a"], link["a_port"]), (link["b"], link["b_port"])):
        out += [p["interface"] for p in by_name[end]["ports"] if p["port"] == port]
    return out


def shape(interface: str, mbit: float) -> None:
    """A token bucket on the interface's egress: OVS's userspace datapath sends through the
    kernel's qdisc, so this limits one direction of the link. Burst 64 KB (≈5 ms at 100 Mbit/s),
    queue up to 50 ms, then drops (what a router's full output queue does)."""
    subprocess.run(["tc", "qdisc", "replace", "dev", interface, "root", "tbf", "rate",
                    f"{mbit}mbit", "burst", "64kb", "latency", "50ms"], check=True,
                   capture_output=True, timeout=10)


def shape_switch_links(state: dict, mbit: float) -> None:
    for link in state["links"]:
        if link["kind"] == "switch":
            for interface in switch_link_interfaces(state, link):
                shape(interface, mbit)
    log(f"every switch-to-switch link shaped to {mbit} Mbit/s (tbf, both directions)")


# A paced UDP sender and a counter for the shaping check, run with /usr/bin/python3 in hosts.
SEND = ("import socket,sys,time\n"
        "s=socket.socket(socket.AF_INET6,socket.SOCK_DGRAM)\n"
        "b=b'x'*1200; pps=float(sys.argv[3])*1e6/8/len(b); n=int(pps*float(sys.argv[4]))\n"
        "t=time.monotonic()\n"
        "for i in range(n):\n"
        "  d=t+i/pps-time.monotonic()\n"
        "  if d>0: time.sleep(d)\n"
        "  s.sendto(b,(sys.argv[1],int(sys.argv[2])))\n")
COUNT = ("import socket,sys,time\n"
         "s=socket.socket(socket.AF_INET6,socket.SOCK_DGRAM); s.bind(('::',int(sys.argv[1])))\n"
         "s.setsockopt(socket.SOL_SOCKET,socket.SO_RCVBUF,4<<20)\n"
         "s.settimeout(1.0); print('ready',flush=True); got=0; first=last=None\n"
         "while True:\n"
         "  try: d=s.recv(65535)\n"
         "  except socket.timeout:\n"
         "    if first is not None: break\n"
         "    continue\n"
         "  now=time.monotonic(); first=first or now; last=now; got+=len(d)\n"
         "print(got, last-first)\n")


def udp_rate(testbed: Testbed, a: str, b: str, offered_mbit: float, seconds: float) -> float:
    """Mbit/s that arrive at host b of a UDP stream host a sends at `offered_mbit`: bytes over
    the time between the first and the last datagram."""
    counter = subprocess.Popen([TESTBED, "exec", b, "--", CLIENT_PYTHON, "-c", COUNT, "9999"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        if counter.stdout.readline().strip() != "ready":
            raise SessionError(f"UDP counter on {b}: {counter.stderr.read()}")
        sent = testbed.exec(a, CLIENT_PYTHON, "-c", SEND, testbed.host(b)["address"], "9999",
                                str(offered_mbit), str(seconds), timeout=seconds + 30)
        if sent.returncode != 0:
            raise SessionError(f"UDP sender on {a}: {sent.stderr}")
        out, _ = counter.communicate(timeout=30)
    finally:
        if counter.poll() is None:
            counter.kill()
    got, span = out.split()
    return int(got) * 8 / max(1e-9, float(span)) / 1e6


def verify_shaping(testbed: Testbed, rate_mbit: float, limit: float = 10, offered: float = 30,
                   seconds: float = 3) -> dict:
    """Proves the qdisc limits the userspace datapath: a paced UDP stream of `offered` Mbit/s
    between the hosts at the two ends of a link arrives at about `limit` with the link shaped to
    `limit`, and whole with the link shaped to `rate_mbit`."""
    link = next(x for x in testbed.state["links"] if x["kind"] == "switch")
    a, b = link["a"].replace("s", "h"), link["b"].replace("s", "h")
    interfaces = switch_link_interfaces(testbed.state, link)
    for interface in interfaces:
        shape(interface, limit)
    limited = udp_rate(testbed, a, b, offered, seconds)
    for interface in interfaces:
        shape(interface, rate_mbit)
    unlimited = udp_rate(testbed, a, b, offered, seconds)
    log(f"shaping check on {link['a']}-{link['b']}: {offered} Mbit/s offered arrive at "
        f"{limited:.1f} Mbit/s through {limit} Mbit/s, {unlimited:.1f} through {rate_mbit}")
    if not (limited <= 1.15 * limit and unlimited >= 0.8 * offered):
        raise SessionError("tbf does not limit the link as configured")
    return {"link": f"{link['a']}-{link['b']}", "limit_mbit": limit, "offered_mbit": offered,
            "received_mbit": limited, "received_unshaped_mbit": unlimited}


