"""A real linear:3 test bed in standalone (self-test) mode: addresses, checksums, the management
network, exec, link down/up, and a `down` that leaves nothing behind. Needs root."""

import json
import os
import subprocess

import pytest

from live import HERE, PYTHON, TESTBED, UpProcess, in_host, leftovers, needs_root, poll, tb, tb_json

pytestmark = needs_root


@pytest.fixture(scope="module")
def linear3():
    up = UpProcess("--topo", "linear:3", "--standalone")
    try:
        event = up.wait_event("up", timeout=60)
        yield up, event
    finally:
        up.stop()


@pytest.fixture(scope="module")
def hosts(linear3):
    return {h["name"]: h for h in tb_json("hosts")["hosts"]}


def pings(src, dst_address, wait=2):
    return in_host(src, "ping", "-6", "-c1", f"-W{wait}", dst_address).returncode == 0


def test_up_event_and_bridges(linear3):
    _, event = linear3
    assert event["topology"] == "linear:3" and event["switches"] == 3 and event["hosts"] == 3
    assert event["standalone"] is True and event["controller"] is None
    with open(event["state"]) as f:
        state = json.load(f)
    assert state["pid"] == event["pid"]
    s2 = next(s for s in state["switches"] if s["name"] == "s2")
    assert s2["dpid"] == "0000000000000002" and s2["bridge"] == "npts2"
    cols = subprocess.run(["ovs-vsctl", "--columns=datapath_type,fail_mode,protocols,other_config,rstp_enable",
                           "list", "Bridge", "npts2"], capture_output=True, text=True).stdout
    for expected in ("netdev", "standalone", "OpenFlow13", 'datapath-id="0000000000000002"', "dp-desc=s2"):
        assert expected in cols
    for port in s2["ports"]:  # port numbers are the ones the state file promises
        ofport = subprocess.run(["ovs-vsctl", "get", "Interface", port["interface"], "ofport"],
                                capture_output=True, text=True).stdout.strip()
        assert int(ofport) == port["port"]


def test_hosts_json_lists_three_hosts(hosts):
    assert sorted(hosts) == ["h1", "h2", "h3"]
    assert hosts["h3"]["address"] == "fd6e:7073:1::3" and hosts["h3"]["switch"] == "s3"
    assert hosts["h1"]["management_address"] == "fd6e:7073:ffff::1"


def test_host_addresses_and_no_dad(hosts):
    out = in_host("h2", "ip", "-6", "-o", "addr", "show").stdout
    assert f"{hosts['h2']['address']}/64" in out and hosts["h2"]["link_local"] in out
    assert "tentative" not in out
    assert "inet " not in in_host("h2", "ip", "-o", "addr", "show", "dev", "eth0").stdout  # data: IPv6 only


def test_ping_across_the_data_network(hosts):
    assert pings("h1", hosts["h3"]["address"])


def test_host_reaches_the_management_bridge(linear3):
    _, event = linear3
    assert event["api"] == "http://[fd6e:7073:ffff::c0]:8080"
    assert pings("h2", "fd6e:7073:ffff::c0")


def send_udp(src, dst, port):
    code = ("import socket,sys; s=socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); "
            f"s.sendto(b'checksum me', ('{dst}', {port}))")
    assert in_host(src, PYTHON, "-c", code).returncode == 0


def probe_udp(src, dst, port, timeout):
    probe = subprocess.Popen([TESTBED, "exec", "h3", "--", PYTHON,
                              os.path.join(HERE, "udp_probe.py"), dst, str(port), str(timeout)],
                             stdout=subprocess.PIPE, text=True)
    assert probe.stdout.readline().strip() == "ready"
    send_udp(src, dst, port)
    result = json.loads(probe.stdout.readline())
    probe.wait(timeout=10)
    return result


def test_udp_arrives_with_a_valid_checksum(hosts):
    result = probe_udp("h1", hosts["h3"]["address"], 5555, timeout=10)
    assert result == {"payload": "checksum me", "checksum_ok": True}


def test_the_checksum_probe_detects_tx_offload(hosts):
    """With TX checksum offload back on, the userspace datapath delivers a broken checksum."""
    assert in_host("h1", "ethtool", "-K", "eth0", "tx", "on").returncode == 0
    try:
        result = probe_udp("h1", hosts["h3"]["address"], 5556, timeout=2)
    finally:
        in_host("h1", "ethtool", "-K", "eth0", "tx", "off")
    assert result == {"payload": None, "checksum_ok": False}


def test_exec_passes_exit_code_and_output(linear3):
    result = in_host("h2", "sh", "-c", "echo $NPS_HOST; ip -o link show eth0 >/dev/null; exit 7")
    assert result.returncode == 7 and result.stdout.strip() == "h2"
    assert tb("exec", "h9", "--", "true").returncode == 2


def test_link_down_breaks_the_path_and_up_restores_it(hosts):
    assert tb_json("link", "s1", "s2", "down")["interfaces"] == ["npts1-p2", "npts2-p2"]
    try:
        assert not pings("h1", hosts["h3"]["address"], wait=1)
    finally:
        assert tb("link", "s1", "s2", "up").returncode == 0
    poll(lambda: pings("h1", hosts["h3"]["address"], wait=1), 30, "h1 to reach h3 again")
    assert tb("link", "s1", "s3", "down").returncode == 2  # not adjacent


def test_clean_refuses_to_run_inside_a_host(linear3):
    result = in_host("h1", TESTBED, "clean")
    assert result.returncode == 1 and "root network namespace" in result.stderr
    assert pings("h1", "fd6e:7073:1::2")  # still up


def test_down_removes_everything(linear3):
    up, _ = linear3
    assert leftovers()["bridges"], "the test bed should still be up here"
    result = tb("down", "--json")
    assert result.returncode == 0 and json.loads(result.stdout)["was_running"] is True
    assert up.proc.wait(timeout=10) == 0
    assert up.wait_event("down", timeout=5)["topology"] == "linear:3"
    assert leftovers() == {"links": [], "bridges": [], "shells": [], "files": []}
    assert tb("hosts").returncode == 1
