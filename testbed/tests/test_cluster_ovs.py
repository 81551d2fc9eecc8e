"""The partitioned control plane spread over three `nps controller` processes on real Open vSwitch
(root; issue: partitioned control plane, "Across machines"; docs/control-plane.md).

Three controller processes share 16 event-space partitions through an embedded ZooKeeper
(`nps overlay zookeeper`); every bridge of a `tree:2,4` network connects to all three (OpenFlow's
EQUAL role). Each process discovers the topology and learns the hosts itself.
- Subscriptions (`nps sub`) and advertisements (`nps pub`) go to different processes; deliveries
  equal direct evaluation, and every switch holds exactly the union of the flows the processes
  want (each wants the base flows and the content flows of its own partitions).
- A host registered by hand at one process reaches every process (through ZooKeeper), and a
  multicast group put at another is written by the one multicast writer and answered alike by
  every process: the switches hold the union of what the processes want (the writer's
  multicast flows among it), and nobody's reconcile removes them. The group then stays, so the
  kill and the restart below check the union with it (a new writer, a process that joins
  later).
- A burst of REST subscriptions and cross-process withdrawals goes to all three while one process
  (the multicast writer) is killed with SIGKILL: the survivors take its partitions over, every request completes (a
  request the dead process did not answer is retried at a survivor with the same
  Idempotency-Key, the documented contract), and afterwards every switch holds the survivors'
  union and deliveries are exact again.
- The killed process restarts: every switch reconnects to it and it reconciles them (base flows
  only) while the others hold all content flows; it takes its share of partitions back from
  them, and deliveries stay exact."""

from __future__ import annotations

import json
import os
import random
import signal
import tempfile
import threading
import urllib.error
from concurrent.futures import ThreadPoolExecutor

import pytest

from live import needs_root
from nps_testbed import naming
from nps_testbed.relay import ApiRelay
from pubsub import auth
from pubsub.session import (NPS, Controller, JsonLines, PublisherProcess, SubscriberProcess,
                            Testbed, build, free_port, ground_truth_soon, poll, wait_for_network)
from test_pubsub_ovs import (SEED, Receivers, int_range_filter, matches, random_event,
                             random_filter, random_schema, schema_yaml, settle)

TOPOLOGY, SWITCH_LINKS = "tree:2,4", 4
MEMBERS = 3
CONTENT_COOKIE = "4e50530000000002"
MULTICAST_COOKIE = "4e50530000000005"


@pytest.fixture(scope="module")
def cluster():
    r = random.Random(SEED)
    schema = random_schema(r)
    work = tempfile.mkdtemp(prefix="nps-cluster-test-")
    path = os.path.join(work, "schema.yaml")
    with open(path, "w") as f:
        f.write(schema_yaml(schema))
    build()
    zk_port = free_port()
    zk = JsonLines([NPS, "overlay", "zookeeper", "--listen", f"127.0.0.1:{zk_port}",
                    "--data", os.path.join(work, "zk"), "--tick", "200", "--json"])
    controllers, relays, testbed, subs = [], [], None, []
    try:
        zk.wait_for(lambda o: o.get("kind") == "zookeeper", 60, "ZooKeeper")
        with ThreadPoolExecutor(MEMBERS) as pool:  # JVMs start faster side by side
            starting = [pool.submit(member, path, zk_port, work, i) for i in range(MEMBERS)]
        controllers.extend(f.result() for f in starting if f.exception() is None)
        for f in starting:
            if f.exception() is not None:
                raise f.exception()  # the started ones are stopped below
        testbed = Testbed(TOPOLOGY, controllers[0], also=tuple(controllers[1:]))
        # hosts reach the first process through the test bed's relay, the others through ours
        apis = [testbed.api_for_hosts]
        for c in controllers[1:]:
            relays.append(ApiRelay(naming.MGMT_ROOT_ADDRESS, c.api_port, "127.0.0.1", c.api_port))
            apis.append(f"http://[{naming.MGMT_ROOT_ADDRESS}]:{c.api_port}")
        for c in controllers:
            wait_for_network(c, testbed, links=SWITCH_LINKS)
        yield {"controllers": controllers, "testbed": testbed, "schema": schema, "apis": apis,
               "schema_path": path, "work": work, "random": r, "subs": subs, "zk_port": zk_port}
    finally:
        for s in subs:
            s.terminate(timeout=10)
        if testbed is not None:
            testbed.down()
        for relay in relays:
            relay.close()
        for c in controllers:
            c.terminate()
        zk.terminate()


def member(schema_path: str, zk_port: int, work: str, i: int, restarted: Controller | None = None):
    """Controller process c<i> of the cluster (a restart keeps the ports the bridges know)."""
    return Controller(schema_path, "--cluster", f"127.0.0.1:{zk_port}", "--member", f"c{i}",
                      *auth.zookeeper_args(),  # ZooKeeper ACLs: the tree is the members' alone
                      "--partitions", "16", "--cluster-session-timeout", "4s",
                      log_path=os.path.join(work, f"controller-{i}{'-again' if restarted else ''}.log"),
                      openflow_port=restarted.openflow_port if restarted else None,
                      api_port=restarted.api_port if restarted else None)


def alive(controllers: list[Controller]) -> list[Controller]:
    return [c for c in controllers if c.proc.poll() is None]


def switches_hold_the_union(controllers: list[Controller]) -> bool:
    """Every switch's flows (read from the switch) are exactly the union of the flows the live
    processes want on it — base flows from each, content flows of each one's own partitions."""
    live = alive(controllers)
    for s in live[0].get("/v1/topology")["switches"]:
        d = s["dpid"]
        want = set()
        for c in live:
            want |= {f["flow"] for f in c.get(f"/v1/switches/{d}/flows")["flows"]}
        have = {f["flow"] for f in live[0].get(f"/v1/switches/{d}/flows?source=switch")["flows"]}
        if want != have:
            return False
    return True


def publish_and_check(cl: dict, subs: list[SubscriberProcess], name: str, api: str) -> list[dict]:
    """h1 publishes 150 random events; each subscriber gets exactly the matching ones, once."""
    r, s, tb = cl["random"], cl["schema"], cl["testbed"]
    before = [len(sub.deliveries()) for sub in subs]
    events = [random_event(r, s) for _ in range(150)]
    path = os.path.join(cl["work"], f"{name}.jsonl")
    with open(path, "w") as f:
        f.writelines(json.dumps(e) + "\n" for e in events)
    truth = ground_truth_soon(cl["schema_path"], path, [sub.filter for sub in subs])
    PublisherProcess(tb, "h1", path, rate=300, api=api).wait_done()
    truth = truth.result()
    for sub, want, b in zip(subs, truth, before):
        settle(lambda: len(sub.deliveries()) - b >= len(want), 20)
        got = [d["sequence"] - 1 for d in sub.deliveries()[b:]]
        assert len(got) == len(set(got)), f"{name}: {sub.host} received duplicates"
        assert set(got) == want, (f"{name}: {sub.host} missing {sorted(want - set(got))[:5]}, "
                                  f"extra {sorted(set(got) - want)[:5]}")
    return events


@needs_root
def test_requests_through_every_process_deliver_exactly(cluster):
    r, s, tb, cs = cluster["random"], cluster["schema"], cluster["testbed"], cluster["controllers"]
    hosts = [h["name"] for h in tb.hosts]
    # subscribers on hosts h5..h10, through processes 0, 1, 2, 0, 1, 2
    for i in range(6):
        cluster["subs"].append(SubscriberProcess(tb, hosts[4 + i], random_filter(r, s),
                                                 api=cluster["apis"][i % MEMBERS]))
    for sub in cluster["subs"]:
        sub.wait_subscribed()
    # the publisher advertises through process 1, a second advertisement goes to process 2
    code, body = cs[2].call("POST", "/v1/advertisements",
                            {"host": tb.host("h2")["address"], "filter": "a0 <= 100"})
    assert code == 201, body
    publish_and_check(cluster, cluster["subs"], "three-processes", cluster["apis"][1])
    # with that advertisement standing, every switch holds the union of the processes' flows,
    # and the processes share the partitions: their content flows are disjoint, not all one's
    poll(lambda: switches_hold_the_union(cs), 30, "switches hold the union of the processes' flows",
         interval=0.5)
    content = [{(sw["dpid"], f["flow"]) for sw in c.get("/v1/topology")["switches"]
                for f in c.get(f"/v1/switches/{sw['dpid']}/flows")["flows"]
                if f["cookie"] == CONTENT_COOKIE} for c in cs]
    assert sum(1 for x in content if x) >= 2, [len(x) for x in content]
    for i in range(MEMBERS):
        for j in range(i + 1, MEMBERS):
            assert not content[i] & content[j], f"processes {i} and {j} both want a content flow"
    # the advertisement accepted by process 2 is withdrawn through process 0
    code, answer = cs[0].call("DELETE", f"/v1/advertisements/{body['id']}")
    assert code == 200, answer
    poll(lambda: switches_hold_the_union(cs), 30, "switches hold the union after the withdrawal",
         interval=0.5)

@needs_root
def test_a_host_and_a_group_put_at_one_process_reach_every_process(cluster):
    tb, cs = cluster["testbed"], cluster["controllers"]
    # a host that never solicits, registered by hand at process 0, beside h16 on its edge port
    at = next(h for h in cs[0].get("/v1/topology")["hosts"]
              if h["address"] == tb.host("h16")["address"])
    extra = {"address": "fd6e:7073:1::f0", "mac": "02:00:00:00:00:f0", "dpid": at["dpid"],
             "port": at["port"]}
    code, body = cs[0].call("POST", "/v1/hosts", extra)
    assert code == 200, body
    code, body = cs[1].call("POST", "/v1/hosts", {**extra, "dpid": "00000000000000ff"})
    assert code == 400 and "unknown switch" in body["error"]["message"], body  # refused where it is sent
    poll(lambda: all(any(h["address"] == extra["address"] and h["port"] == extra["port"]
                         for h in c.get("/v1/topology")["hosts"]) for c in cs),
         20, "every process knows the registered host", interval=0.5)
    # a group put at process 1: every process applies it and wants the same multicast state
    group = {"members": [tb.host(h)["address"] for h in ("h3", "h4", "h9")],
             "sources": [tb.host("h2")["address"]]}
    code, placed = cs[1].call("PUT", "/v1/groups/plant%2Fline-1", group)
    assert code == 200, placed
    poll(lambda: all(c.call("GET", "/v1/groups/plant%2Fline-1")[0] == 200 for c in cs), 20,
         "every process holds the group", interval=0.5)
    poll(lambda: switches_hold_the_union(cs), 30,
         "switches hold the union with the host and the group", interval=0.5)
    multicast = [f for sw in cs[2].get("/v1/topology")["switches"]
                 for f in cs[2].get(f"/v1/switches/{sw['dpid']}/flows?source=switch")["flows"]
                 if f["cookie"] == MULTICAST_COOKIE]
    assert multicast, "the switches hold no multicast flow"
    for c in cs:  # and every process places the source alike
        assert c.call("GET", "/v1/groups/plant%2Fline-1")[1]["sources"] == placed["sources"]
    # deleted at process 2, gone everywhere
    code, body = cs[2].call("DELETE", "/v1/groups/plant%2Fline-1")
    assert code == 200, body
    assert all(c.call("GET", "/v1/groups/plant%2Fline-1")[0] == 404 for c in cs)
    poll(lambda: switches_hold_the_union(cs), 30, "switches hold the union without the group",
         interval=0.5)
    # put again, it stays for the tests below
    code, body = cs[0].call("PUT", "/v1/groups/plant%2Fline-1", group)
    assert code == 200, body


def request(cs: list[Controller], first: int, method: str, path: str,
            body: dict | None, key: str | None = None) -> tuple[int, dict, int]:
    """The client's contract: a request its process did not answer (killed) is sent again to the
    next live process, an addition with the same Idempotency-Key (so it never stands twice); a
    repeated withdrawal that finds nothing was carried out the first time."""
    for attempt in range(len(cs)):
        c = cs[(first + attempt) % len(cs)]
        if c.proc.poll() is not None:
            continue
        try:
            code, answer = c.call(method, path, body,
                                  {"Idempotency-Key": key} if key is not None else None)
        except (urllib.error.URLError, ConnectionError, OSError):
            continue  # no answer: retry elsewhere
        if attempt > 0 and method == "DELETE" and code == 404:
            code = 200
        return code, answer, attempt
    raise AssertionError(f"no process answered {method} {path}")


@needs_root
def test_survivors_take_over_a_killed_process_mid_burst(cluster):
    r, s, tb, cs = cluster["random"], cluster["schema"], cluster["testbed"], cluster["controllers"]
    hosts = [h["name"] for h in tb.hosts]
    ports = list(range(41000, 41008))
    receivers = Receivers(tb, hosts[11:15], ports)
    free = [(h, p) for h in hosts[11:15] for p in ports]
    r.shuffle(free)
    try:
        # 10 subscriptions to withdraw in the burst, each through another process than its own
        old = []
        for i in range(10):
            host, port = free.pop()
            text, ranges = int_range_filter(r, s)
            code, body = cs[i % MEMBERS].call("POST", "/v1/subscriptions", {
                "host": tb.host(host)["address"], "filter": text, "port": port})
            assert code == 201, body
            old.append((body["id"], (i + 1) % MEMBERS, host, port))
        burst = [("DELETE", f"/v1/subscriptions/{sid}", None, target, None)
                 for sid, target, _, _ in old]
        for i in range(20):
            host, port = free.pop()
            text, ranges = int_range_filter(r, s)
            burst.append(("POST", "/v1/subscriptions",
                          {"host": tb.host(host)["address"], "filter": text, "port": port},
                          i % MEMBERS, (host, port, ranges)))
        r.shuffle(burst)
        done, results = [0], []
        lock = threading.Lock()

        def run(req):
            method, path, body, target, meta = req
            key = f"burst-{meta[0]}-{meta[1]}" if method == "POST" else None
            result = request(cs, target, method, path, body, key)
            with lock:
                done[0] += 1
                results.append((req, result))

        # the victim is the multicast writer: a survivor takes the group over as well
        writer = cs[0].get("/v1/groups")["writer"]
        victim = next(c for i, c in enumerate(cs) if f"c{i}" == writer)
        with ThreadPoolExecutor(6) as pool:
            futures = [pool.submit(run, q) for q in burst]
            poll(lambda: done[0] >= 6, 60, "the first requests of the burst")
            os.kill(victim.proc.pid, signal.SIGKILL)  # mid-burst, no goodbye
            victim.proc.wait(timeout=10)
            for f in futures:
                f.result(timeout=90)
        statuses = [(q[0], res[0]) for q, res in results]
        assert all(code == (201 if m == "POST" else 200) for m, code in statuses), statuses
        for q, res in results:  # ids derive from the keys: a retry answered the same id
            if q[0] == "POST":
                assert res[1]["id"] == f"s:burst-{q[4][0]}-{q[4][1]}", res
        retried = sum(1 for _, res in results if res[2] > 0)
        survivors = alive(cs)
        assert len(survivors) == MEMBERS - 1
        poll(lambda: survivors[0].get("/v1/groups").get("writer") not in (None, writer), 30,
             "a survivor writes the multicast state", interval=0.5)
        poll(lambda: switches_hold_the_union(survivors), 30,
             "switches hold the survivors' union after the takeover", interval=0.5)
        # deliveries: the nps sub subscribers (some through the dead process) are exact
        events = publish_and_check(cluster, cluster["subs"], "after-kill",
                                   cluster["apis"][cs.index(survivors[0])])
        # the burst's subscriptions get every matching event; the withdrawn ones get nothing
        first = 1
        for q, _ in results:
            if q[0] == "POST":
                host, port, ranges = q[4]
                want = {first + i for i, e in enumerate(events) if matches(ranges, e)}
                poll(lambda: want <= set(receivers.got(host, port)), 20,
                     f"burst subscription at {host}:{port}")
        for _, _, host, port in old:
            assert not receivers.got(host, port), f"{host}:{port} received after its withdrawal"
        print(f"burst of {len(burst)} requests, {retried} retried at a survivor")
    finally:
        receivers.stop()


@needs_root
def test_a_restarted_process_takes_its_share_back_and_leaves_the_others_flows_alone(cluster):
    cs = cluster["controllers"]
    dead = next(i for i, c in enumerate(cs) if c.proc.poll() is not None)
    live = alive(cs)[0]
    # content flows stand on the switches (an advertisement meets the subscriptions) when it
    # comes back: its switch-wide reconciles on connect must leave them alone
    code, body = live.call("POST", "/v1/advertisements",
                            {"host": cluster["testbed"].host("h2")["address"], "filter": "true"})
    assert code == 201, body
    try:
        poll(lambda: switches_hold_the_union(cs), 30, "switches hold the survivors' union",
             interval=0.5)
        cs[dead] = member(cluster["schema_path"], cluster["zk_port"], cluster["work"], dead,
                          restarted=cs[dead])
        wait_for_network(cs[dead], cluster["testbed"], links=SWITCH_LINKS)
        poll(lambda: switches_hold_the_union(cs), 30, "switches hold the union of all three",
             interval=0.5)
        mine = [f for sw in cs[dead].get("/v1/topology")["switches"]
                for f in cs[dead].get(f"/v1/switches/{sw['dpid']}/flows")["flows"]
                if f["cookie"] == CONTENT_COOKIE]
        assert mine, "the restarted process serves no partition"
        publish_and_check(cluster, cluster["subs"], "after-restart", cluster["apis"][dead])
        # the group put before the kill: one writer still writes it, all three answer alike
        answers = [c.call("GET", "/v1/groups/plant%2Fline-1") for c in cs]
        assert all(code == 200 for code, _ in answers), answers
        assert all(a["sources"] == answers[0][1]["sources"] for _, a in answers), answers
        assert any(f["cookie"] == MULTICAST_COOKIE
                   for sw in live.get("/v1/topology")["switches"]
                   for f in live.get(f"/v1/switches/{sw['dpid']}/flows?source=switch")["flows"])
    finally:
        live.call("DELETE", f"/v1/advertisements/{body['id']}")
