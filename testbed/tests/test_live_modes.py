"""Real test beds: secure mode wired to a controller (OpenFlow 1.3 HELLO, API relay), cleanup after
kill -9, and a fat tree in standalone mode. Needs root."""

import http.server
import json
import os
import signal
import socket
import subprocess
import threading
import time

from live import PYTHON, TESTBED, UpProcess, in_host, leftovers, needs_root, nothing_left, poll, tb, tb_json

pytestmark = needs_root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakeController:
    """Accepts OpenFlow connections, records the switch's HELLO header and answers with a HELLO."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.hellos: list[bytes] = []
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.settimeout(5)
            self.conns.append(conn)
            try:
                hello = conn.recv(8)
                self.hellos.append(hello)
                rest = int.from_bytes(hello[2:4], "big") - 8 if len(hello) == 8 else 0
                if rest > 0:
                    conn.recv(rest)  # HELLO elements (version bitmap)
                conn.sendall(bytes([0x04, 0, 0, 8, 0, 0, 0, 1]))  # our HELLO: OpenFlow 1.3 agreed
            except OSError:
                pass

    def close(self):
        self.sock.close()
        for c in self.conns:
            c.close()


class Api(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'{"api":"reached"}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_secure_mode_connects_openflow13_and_relays_the_api():
    controller = FakeController()
    api = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Api)
    threading.Thread(target=api.serve_forever, daemon=True).start()
    api_port = api.server_address[1]
    up = UpProcess("--topo", "linear:2", "--controller", f"tcp:127.0.0.1:{controller.port}",
                   "--api", f"127.0.0.1:{api_port}", "--wait-connected", "30")
    try:
        event = up.wait_event("up", timeout=60)
        assert event["standalone"] is False and event["controller"] == f"tcp:127.0.0.1:{controller.port}"
        assert event["connected"] == 2  # --wait-connected waited for both handshakes
        assert len(controller.hellos) >= 2
        assert all(h[0] == 0x04 and h[1] == 0 for h in controller.hellos)  # OpenFlow 1.3, OFPT_HELLO
        cols = subprocess.run(["ovs-vsctl", "--columns=fail_mode,datapath_type,protocols", "list", "Bridge", "npts1"],
                              capture_output=True, text=True).stdout
        assert "secure" in cols and "netdev" in cols and "OpenFlow13" in cols
        h2 = "fd6e:7073:1::2"
        assert in_host("h1", "ping", "-6", "-c1", "-W1", h2).returncode != 0  # secure: no flows, no forwarding
        for bridge in ("npts1", "npts2"):
            subprocess.run(["ovs-ofctl", "-O", "OpenFlow13", "add-flow", bridge, "actions=NORMAL"], check=True)
        poll(lambda: in_host("h1", "ping", "-6", "-c1", "-W1", h2).returncode == 0, 20, "ping over NORMAL flows")
        url = f"http://[fd6e:7073:ffff::c0]:{api_port}/"
        fetch = in_host("h2", PYTHON, "-c", f"import urllib.request; print(urllib.request.urlopen('{url}').read().decode())")
        assert json.loads(fetch.stdout) == {"api": "reached"}, fetch.stderr
        assert up.proc.poll() is None
        second = tb("up", "--topo", "linear:1", "--standalone")
        assert second.returncode == 1 and "already up" in second.stderr
    finally:
        up.stop()
        controller.close()
        api.shutdown()
    assert nothing_left(), leftovers()


def test_clean_after_kill_9_removes_every_leftover():
    up = UpProcess("--topo", "tree:2,2", "--standalone")
    sleeper = None
    try:
        up.wait_event("up", timeout=60)
        sleeper = subprocess.Popen([TESTBED, "exec", "h1", "--", "sleep", "300"])
        poll(lambda: open(f"/proc/{sleeper.pid}/cmdline").read().startswith("sleep\0"), 10, "nsenter to exec sleep")
        os.kill(up.proc.pid, signal.SIGKILL)
        up.proc.wait(timeout=10)
        assert leftovers()["bridges"], "kill -9 leaves bridges behind"
        result = tb("clean", "--json", timeout=90)
        assert result.returncode == 0, result.stderr
        summary = json.loads(result.stdout)
        assert summary["bridges"] == 3 and summary["left"] == {"bridges": [], "links": [], "processes": [], "files": []}
        assert sleeper.wait(timeout=10) == -signal.SIGKILL  # the namespace's processes went too
        assert leftovers() == {"links": [], "bridges": [], "shells": [], "files": []}
        again = tb_json("clean")
        assert (again["processes"], again["bridges"], again["links"]) == (0, 0, 0)
    finally:
        if sleeper and sleeper.poll() is None:
            sleeper.kill()
        up.stop()


def test_fattree_4_standalone_comes_up_with_16_hosts_and_rstp():
    started = time.monotonic()
    up = UpProcess("--topo", "fattree:4", "--standalone")
    try:
        event = up.wait_event("up", timeout=90)
        assert time.monotonic() - started < 90
        assert (event["switches"], event["hosts"], event["switch_links"]) == (20, 16, 32)
        listed = tb_json("hosts")["hosts"]
        assert [h["name"] for h in listed] == [f"h{i}" for i in range(1, 17)]
        assert len({h["pid"] for h in listed}) == 16
        # RSTP has cut the loops: a host in pod 0 reaches one in pod 3 without a broadcast storm.
        poll(lambda: in_host("h1", "ping", "-6", "-c1", "-W1", "fd6e:7073:1::16").returncode == 0, 30, "h1 -> h16")
        blocked = subprocess.run(["ovs-vsctl", "--columns=rstp_status", "list", "Port"],
                                 capture_output=True, text=True).stdout.count("rstp_port_state=Discarding")
        assert blocked >= 32 - 19  # a spanning tree of 20 switches keeps 19 of the 32 links
    finally:
        up.stop()
    assert nothing_left(), leftovers()
