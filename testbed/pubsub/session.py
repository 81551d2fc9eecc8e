"""One pub/sub session on the test bed: `nps controller --schema`, `nps-testbed up`, hosts
learned, `nps sub` / `nps pub` in host namespaces, and direct evaluation (`nps filter match`)
as ground truth. Everything is a real process; every wait polls with a deadline."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import Future, ThreadPoolExecutor

from nps_testbed import commands as testbed_commands
from nps_testbed import state as testbed_state
from pubsub import auth as auth_module
from pubsub import openflow_tls

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NPS = os.path.join(ROOT, "nps")
TESTBED = os.path.join(ROOT, "testbed", "nps-testbed")
STATE = "/run/netpubsub/testbed.json"
UNUSED = "fd6e:7073:1::ffff"  # no host has it: pinging it makes the kernel solicit
# Client JVMs in host namespaces: small heaps, quick start (the launcher adds its AOT cache of the
# jar's classes; an -Xshare option here would turn the cache off).
CLIENT_JAVA_OPTS = "-Xmx192m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"

_T0 = time.monotonic()


class SessionError(RuntimeError):
    """Something in the session did not happen in time, or a process failed."""


def log(message: str) -> None:
    print(f"[{time.monotonic() - _T0:6.1f}s] {message}", file=sys.stderr, flush=True)


def poll(condition, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SessionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_BUILT = threading.Event()


def build() -> None:
    """Builds the CLI jar once, before processes start it concurrently. Once per process: every
    later `./nps` start checks the jar against the sources itself; the check here only keeps a
    rebuild out of the timed waits, and `nps --version` is a JVM start (a test bed module each)."""
    if _BUILT.is_set():
        return
    r = subprocess.run([NPS, "--version"], capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        raise SessionError(f"building nps failed: {r.stderr}")
    _BUILT.set()


class JsonLines:
    """A process whose stdout is JSON lines, read by a thread onto a queue."""

    def __init__(self, argv: list[str], env: dict | None = None, stderr=None,
                 stdin: bool = False):
        self.stderr = stderr if stderr is not None else tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self.stderr,
                                     stdin=subprocess.PIPE if stdin else None, text=True, env=env)
        self.lines: queue.Queue = queue.Queue()
        self.all: list[dict] = []
        self.term_sent = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                obj = {"kind": "text", "text": line}
            self.all.append(obj)
            self.lines.put(obj)

    def wait_for(self, predicate, timeout: float, what: str) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            try:
                obj = self.lines.get(timeout=max(0.0, min(0.5, deadline - time.monotonic())))
                if predicate(obj):
                    return obj
            except queue.Empty:
                if self.proc.poll() is not None and self.lines.empty():
                    raise SessionError(f"{what}: process exited with {self.proc.returncode}: "
                                       f"{self.error_text()}")
            if time.monotonic() > deadline:
                raise SessionError(f"timed out after {timeout}s waiting for {what}: {self.error_text()}")

    def error_text(self) -> str:
        if hasattr(self.stderr, "seek"):
            self.stderr.seek(0)
            return self.stderr.read()[-2000:]
        return ""

    def send_term(self) -> None:
        """SIGTERM, once, without waiting: several processes then shut down at the same time."""
        if self.proc.poll() is None and not self.term_sent:
            self.proc.send_signal(signal.SIGTERM)
            self.term_sent = True

    def terminate(self, timeout: float = 30) -> int:
        if self.proc.poll() is None:
            self.send_term()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.reader.join(timeout=10)  # stdout drained to EOF
        return self.proc.returncode


class Controller(JsonLines):
    """`./nps controller [--schema S]` on free ports (REST on 127.0.0.1); without a schema it
    serves base forwarding (IPv6 unicast) and multicast groups only. By default with the session's
    principals (`--auth`, pubsub/auth.py; its own requests as `operator`) and OpenFlow over TLS
    (pubsub/openflow_tls.py); `auth=False` / `tls=False` for a test of the plain behaviour, and
    an `--auth FILE` of the test's own in `extra` replaces the session's. The controller's start-up
    warm-up is off (`warm_up=0`): the test bed starts controllers hundreds of times and needs no
    warmed request path; `warm_up=None` keeps the controller's own default, as an operator runs it
    (pleroma_ovs.py's measurement, docs/controller.md)."""

    def __init__(self, schema: str | None, *extra: str, log_path: str | None = None,
                 openflow_port: int | None = None, api_port: int | None = None,
                 tls: dict | bool | None = None, auth: bool | None = None,
                 warm_up: int | None = 0):
        self.openflow_port = openflow_port or free_port()  # a restart keeps its ports
        self.api_port = api_port or free_port()
        self.api = f"http://127.0.0.1:{self.api_port}"
        self.tls = openflow_tls.choose(tls)
        self.scheme = "ssl" if self.tls else "tcp"
        tls_args = openflow_tls.controller_args(self.tls) if self.tls else []
        self.auth = (auth if auth is not None else auth_module.enabled()) and "--auth" not in extra
        auth_args = ["--auth", auth_module.session()["file"]] if self.auth else []
        self.headers = auth_module.headers() if self.auth else {}
        err = open(log_path, "w") if log_path else None
        super().__init__([NPS, "controller", "--openflow", f"{self.scheme}:127.0.0.1:{self.openflow_port}",
                          *tls_args, *auth_args, "--api", self.api, "--probe-interval", "1s",
                          *(["--schema", schema] if schema else []), "--json",
                          *([] if warm_up is None or "--warm-up" in extra
                            else ["--warm-up", str(warm_up)]), *extra],
                         stderr=err)
        self.started = self.wait_for(lambda o: o.get("kind") == "controller", 120, "the controller")

    def get(self, path: str) -> dict:
        req = urllib.request.Request(self.api + path, headers=self.headers)
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    def call(self, method: str, path: str, body: dict | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.api + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **self.headers,
                                              **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def content_flows(self) -> dict[str, int]:
        """Content flows per switch, read from the switches themselves."""
        out = {}
        for s in self.get("/v1/topology")["switches"]:
            flows = self.get(f"/v1/switches/{s['dpid']}/flows?source=switch")["flows"]
            out[s["dpid"]] = sum(1 for f in flows if f["cookie"] == "4e50530000000002")
        return out

    def tables_match_switches(self, skip_disconnected: bool = False) -> bool:
        """CP-config == DP-config: every switch holds exactly the controller's flows (a failed,
        disconnected switch has no tables to read: skip it when told to)."""
        return not self.table_differences(skip_disconnected)

    def table_differences(self, skip_disconnected: bool = False) -> dict:
        """Per switch whose flows differ from the controller's: the flows it lacks and those it
        holds besides (what a failed reconciliation left, for the failure message)."""
        out = {}
        for s in self.get("/v1/topology")["switches"]:
            if skip_disconnected and not s["connected"]:
                continue
            want = {f["flow"] for f in self.get(f"/v1/switches/{s['dpid']}/flows")["flows"]}
            have = {f["flow"] for f in
                    self.get(f"/v1/switches/{s['dpid']}/flows?source=switch")["flows"]}
            if want != have:
                out[s["dpid"]] = {"connected": s["connected"], "missing": sorted(want - have),
                                  "extra": sorted(have - want)}
        return out


class Testbed(JsonLines):
    """`nps-testbed up --topo T` wired to a controller (and to the other processes of its cluster,
    `also`: every bridge connects to each); hosts reach the first one's API through the relay."""

    __test__ = False  # not a pytest test class

    def __init__(self, topo: str, controller: Controller, timeout: float = 240,
                 also: tuple[Controller, ...] = ()):
        targets = ",".join(f"{getattr(c, 'scheme', 'tcp')}:127.0.0.1:{c.openflow_port}" for c in (controller, *also))
        self.tls = getattr(controller, "tls", None)
        if self.tls:
            openflow_tls.configure_ovs(self.tls)
        super().__init__([TESTBED, "up", "--topo", topo, "--controller", targets, "--api",
                          f"127.0.0.1:{controller.api_port}", "--wait-connected", "60"])
        self.event = self.wait_for(lambda o: o.get("event") == "up", timeout, f"test bed {topo}")
        with open(STATE) as f:
            self.state = json.load(f)
        self.hosts = self.state["hosts"]
        self.api_for_hosts = self.state["management"]["api"]

    def host(self, name: str) -> dict:
        return next(h for h in self.hosts if h["name"] == name)

    def exec(self, host: str, *cmd: str, timeout: float = 60) -> subprocess.CompletedProcess:
        return subprocess.run([TESTBED, "exec", host, "--", *cmd], capture_output=True,
                              text=True, timeout=timeout)

    def down(self) -> None:
        if self.proc.poll() is None:
            subprocess.run([TESTBED, "down"], capture_output=True, timeout=120)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        subprocess.run([TESTBED, "clean"], capture_output=True, timeout=120)
        if self.tls:
            openflow_tls.clear_ovs()


def wait_for_network(controller: Controller, testbed: Testbed, links: int, timeout: float = 90) -> None:
    """Every link discovered and every host learned (unknown hosts are made to solicit)."""
    poll(lambda: len(controller.get("/v1/topology")["links"]) >= links, timeout,
         f"{links} links discovered", interval=0.5)

    def learned() -> bool:
        known = {h["address"] for h in controller.get("/v1/topology")["hosts"]}
        solicit([(h["name"], UNUSED) for h in testbed.hosts if h["address"] not in known])
        return len(known) >= len(testbed.hosts)

    poll(learned, timeout, f"{len(testbed.hosts)} hosts learned", interval=0.2)


def solicit(targets: list[tuple[str, str]]) -> None:
    """Makes each (host, target) host send a neighbour solicitation, so that the controller learns
    its address in the target's scope: a ping of `target`, an address no host has. All at once
    (one after the other: 16 s on a fat tree). The kernel solicits as the ping is sent and the
    answer never comes, so waiting 0.2 s for it instead of 1 s loses nothing. Through nsenter
    alone, not `nps-testbed exec`: that starts Python twice (the system's, then the venv's) and
    imports the CLI per ping, 2.1-3.6 s each for 16 pings 8 at a time at load 14 against 0.2 s,
    and at load 12-29 one took over the 15 s below (docs/testing-load-failures.md, stop 44)."""
    doc = testbed_state.read_state()

    def ping(host: str, target: str) -> None:
        argv = testbed_commands.in_host_argv(doc, host, ["ping", "-6", "-c1", "-W0.2", target])
        subprocess.run(argv, capture_output=True, timeout=15, env={**os.environ, "NPS_HOST": host})

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda t: ping(*t), targets))


def client_env(address: str | None = None, jar: str | None = None,
               java_opts: str | None = None) -> dict:
    """The environment of a client JVM; with a test host's address, its token (NPS_TOKEN); `jar`:
    another build of the CLI (a benchmark's before); `java_opts` instead of CLIENT_JAVA_OPTS."""
    env = dict(os.environ)
    env["NPS_JAVA_OPTS"] = CLIENT_JAVA_OPTS if java_opts is None else java_opts
    if jar:
        env["NPS_JAR"] = jar
    return auth_module.client_env(env, address) if address else env


class SubscriberProcess(JsonLines):
    """`nps sub --json --stats [EXTRA...] FILTER` in a host's namespace."""

    def __init__(self, testbed: Testbed, host: str, filter_text: str, port: int | None = None,
                 api: str | None = None, jar: str | None = None,
                 report_interval: str | None = None, extra: tuple[str, ...] = (),
                 java_opts: str | None = None):
        self.host = host
        self.filter = filter_text
        args = [TESTBED, "exec", host, "--", NPS, "sub", "--controller", api or testbed.api_for_hosts,
                "--host", testbed.host(host)["address"], "--json", "--stats"]
        if port:
            args += ["--port", str(port)]
        if report_interval:
            args += ["--report-interval", report_interval]
        super().__init__(args + list(extra) + [filter_text],
                         env=client_env(testbed.host(host)["address"], jar, java_opts))

    def wait_subscribed(self, timeout: float = 90) -> dict:
        self.subscribed = self.wait_for(lambda o: o.get("kind") == "subscribed", timeout,
                                        f"subscription of {self.host}")
        return self.subscribed

    def deliveries(self) -> list[dict]:
        return [o for o in self.all if o.get("kind") == "delivery"]

    def stop(self) -> dict:
        """SIGTERM: the subscriber unsubscribes and prints its stats."""
        self.terminate()
        stats = [o for o in self.all if o.get("kind") == "stats"]
        return stats[-1] if stats else {}


def stop_all(processes: list) -> list:
    """Each process's stop() (terminate() if it has none), their SIGTERMs sent all at once first:
    the JVMs' shutdowns (a subscriber's unsubscription) overlap instead of following each other."""
    for p in processes:
        p.send_term()
    return [p.stop() if hasattr(p, "stop") else p.terminate() for p in processes]


class PublisherProcess(JsonLines):
    """`nps pub --from FILE|-` in a host's namespace."""

    def __init__(self, testbed: Testbed, host: str, source: str, rate: float | None = None,
                 advertise: str = "true", api: str | None = None, jar: str | None = None,
                 java_opts: str | None = None):
        self.host = host
        self.address = testbed.host(host)["address"]
        args = [TESTBED, "exec", host, "--", NPS, "pub", "--controller", api or testbed.api_for_hosts,
                "--host", self.address, "--advertise", advertise, "--from", source, "--json"]
        if rate:
            args += ["--rate", str(rate)]
        super().__init__(args, env=client_env(self.address, jar, java_opts), stdin=source == "-")

    def wait_advertised(self, timeout: float = 90) -> dict:
        """Until the publisher says its advertisement is live (its flows are acknowledged)."""
        self.advertised = self.wait_for(lambda o: o.get("kind") == "advertised", timeout,
                                        f"advertisement of {self.host}")
        return self.advertised

    def wait_done(self, timeout: float = 600) -> dict:
        summary = self.wait_for(lambda o: o.get("kind") == "published", timeout,
                                f"publisher on {self.host}")
        if self.proc.wait(timeout=60) != 0:
            raise SessionError(f"publisher on {self.host} exited with {self.proc.returncode}: "
                               f"{self.error_text()}")
        return summary


def publish(testbed: Testbed, host: str, events_file: str, rate: float,
            advertise: str = "true", timeout: float = 600) -> dict:
    """Publishes a file and waits for the publisher's summary line."""
    return PublisherProcess(testbed, host, events_file, rate, advertise).wait_done(timeout)


def ground_truth(schema: str, events_file: str, filters: list[str]) -> list[set[int]]:
    """Per filter, the indices of the events it matches (direct evaluation, no network)."""
    r = subprocess.run([NPS, "filter", "match", "--schema", schema, "--events", events_file,
                        "--json", *filters], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise SessionError(f"nps filter match failed: {r.stderr}")
    return [set(json.loads(line)["events"]) for line in r.stdout.splitlines() if line.strip()]


def ground_truth_soon(schema: str, events_file: str, filters: list[str]) -> Future:
    """ground_truth in a thread: direct evaluation needs no network, so its JVM runs while the
    events are published instead of after (`.result()` where the truth is needed)."""
    return _TRUTH.submit(ground_truth, schema, events_file, filters)


_TRUTH = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ground-truth")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))
    return s[k]
