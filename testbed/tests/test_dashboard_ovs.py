"""The controller's live dashboard in a real browser (root; issue 23, part 5).

`nps controller --schema quotes.yaml` on PLEROMA's test bed (10 OVS bridges, 16 links, 8 hosts);
Debian's Chromium, headless, loads the page the controller serves at `/` and the test reads the
DOM it renders (`--dump-dom`, polled with a deadline): the graph holds the 10 connected switches,
16 links and 8 learned hosts; subscriptions, advertisements and a multicast group made during
the test appear (with the content flows per switch the controller reports, and the group's members
marked on the graph); the rates panel shows rates when /metrics answers, and says 'metrics
unavailable' when it does not. Last, a screenshot goes to docs/results/dashboard.png."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
from html.parser import HTMLParser

from live import needs_root
from pubsub import auth
from pubsub.session import ROOT, Controller, Testbed, build, poll, wait_for_network

QUOTES = os.path.join(ROOT, "examples", "schemas", "quotes.yaml")
SCREENSHOT = os.path.join(ROOT, "docs", "results", "dashboard.png")
CONTENT_COOKIE = "4e50530000000002"


class Page(HTMLParser):
    """The elements of a rendered DOM: (tag, attributes) in document order, and the text of
    every element with an id."""

    VOID = {"meta", "link", "br", "img", "input", "hr"}

    def __init__(self, html: str):
        super().__init__()
        self.elements: list[tuple[str, dict]] = []
        self.text: dict[str, str] = {}
        self._open: list[tuple[str, str | None]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a))
        if tag not in self.VOID:
            self._open.append((tag, a.get("id")))
            if a.get("id"):
                self.text[a["id"]] = ""

    def handle_endtag(self, tag):
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for _, element_id in self._open:
            if element_id:
                self.text[element_id] += data

    def having(self, tag: str, cls: str) -> list[dict]:
        return [a for t, a in self.elements if t == tag and cls in a.get("class", "").split()]


def chromium(*args: str) -> subprocess.CompletedProcess:
    """Headless Chromium with a fresh profile; its virtual clock runs 5 s, two or three polls."""
    exe = shutil.which("chromium")
    assert exe, "chromium is not installed: run scripts/bootstrap"
    profile = tempfile.mkdtemp(prefix="nps-chromium-")
    try:
        r = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--no-first-run", f"--user-data-dir={profile}",
                            "--virtual-time-budget=5000", *args],
                           capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert r.returncode == 0, f"chromium exited with {r.returncode}: {r.stderr[-2000:]}"
    return r


def page_url(controller: Controller, token: bool = True) -> str:
    """The dashboard's address; with the session's principals, the read-only `dashboard` token in
    the fragment (the page keeps it in sessionStorage and sends it as a bearer token)."""
    fragment = f"#token={auth.token(auth.DASHBOARD)}" if controller.auth and token else ""
    return controller.api + "/" + fragment


def render(controller: Controller, token: bool = True) -> Page:
    return Page(chromium("--dump-dom", page_url(controller, token)).stdout)


def metrics_answer(controller: Controller) -> bool:
    """Whether the controller serves Prometheus text at /metrics (not an error in JSON)."""
    try:
        req = urllib.request.Request(controller.api + "/metrics", headers=controller.headers)
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status == 200 and "json" not in r.headers.get("Content-Type", "")
    except urllib.error.URLError:
        return False


@needs_root
def test_dashboard_shows_the_network_and_requests_made_during_the_test():
    build()
    controller = Controller(QUOTES)
    testbed = None
    try:
        testbed = Testbed("pleroma", controller)
        wait_for_network(controller, testbed, links=16)
        hosts = {h["name"]: h["address"] for h in testbed.hosts}
        assert len(hosts) == 8

        def network_shown(page: Page):
            switches = page.having("g", "switch")
            shown = (len(switches) == 10 and all("up" in s["class"].split() for s in switches)
                     and len(page.having("line", "link")) == 16
                     and {h["data-address"] for h in page.having("g", "host")} == set(hosts.values()))
            return page if shown else None

        page = poll(lambda: network_shown(render(controller)), 90, "the page to show the network")
        assert [page.text[i].strip() for i in ("n-switches", "n-links", "n-hosts",
                                                "n-subscriptions")] == ["10", "16", "8", "0"]
        assert len(page.having("tr", "switch-flows")) == 10
        assert page.text["status"].startswith("live"), page.text["status"]
        if controller.auth:  # without the token the page shows nothing but the refusal
            refused = render(controller, token=False)
            assert "HTTP 401" in refused.text["status"], refused.text["status"]
            assert not refused.having("g", "switch")
        if metrics_answer(controller):
            assert "metrics-unavailable" not in page.text
            poll(lambda: render(controller).having("tr", "rate"), 60, "rates from /metrics")
        else:
            assert "metrics unavailable" in page.text["metrics-unavailable"]

        status, sub = controller.call("POST", "/v1/subscriptions",
                                      {"host": hosts["h1"], "filter": "price > 80000"})
        assert status == 201, sub
        # more requests, for a screenshot with every kind of host: h6 both subscribes and publishes
        for kind, host, text in [("advertisements", "h8", "price > 50000"),
                                 ("subscriptions", "h6", 'symbol == "IBM" && volume >= 1000'),
                                 ("advertisements", "h6", "volume < 5000")]:
            status, answer = controller.call("POST", f"/v1/{kind}", {"host": hosts[host], "filter": text})
            assert status == 201, answer
        members = [hosts["h2"], hosts["h5"], hosts["h7"]]
        status, group = controller.call("PUT", "/v1/groups/quotes/IBM",
                                        {"members": members, "sources": [hosts["h4"]]})
        assert status == 200, group
        content = {s["dpid"]: sum(f["cookie"] == CONTENT_COOKIE for f in
                                  controller.get(f"/v1/switches/{s['dpid']}/flows")["flows"])
                   for s in controller.get("/v1/topology")["switches"]}
        assert sum(content.values()) > 0
        source_switch = next(h["dpid"] for h in controller.get("/v1/topology")["hosts"]
                             if h["address"] == hosts["h4"])

        def requests_shown(page: Page):
            row = [a for a in page.having("tr", "host-requests") if a["data-address"] == hosts["h1"]]
            items = [a for a in page.having("li", "subscription") if a.get("data-id") == sub["id"]]
            subscriber = [a for a in page.having("g", "host") if a["data-address"] == hosts["h1"]]
            marked = {a["data-address"] for a in page.having("g", "member")}
            flows = {a["data-dpid"]: a for a in page.having("tr", "switch-flows")}
            return page if (row and items and "sub" in subscriber[0]["class"].split()
                            and page.having("li", "advertisement")
                            and [a["data-group"] for a in page.having("div", "group")] == ["quotes/IBM"]
                            and marked == set(members) and len(flows) == 10
                            and [a["data-dpid"] for a in page.having("g", "entry")] == [source_switch]
                            ) else None

        page = poll(lambda: requests_shown(render(controller)), 90,
                    f"the page to show subscription {sub['id']}, the advertisement and the group")
        assert page.text["n-subscriptions"].strip() == "2"
        assert page.text["n-advertisements"].strip() == "2"
        both = [a for a in page.having("g", "host") if a["data-address"] == hosts["h6"]]
        assert "both" in both[0]["class"].split()
        assert page.text["status"].startswith("live"), page.text["status"]
        assert "price > 80000" in page.text["requests"]
        shown = {a["data-dpid"]: int(a["data-content"]) for a in page.having("tr", "switch-flows")}
        assert shown == content
        # the group's tree on the graph (trees.js): one copy reaches each member
        to_members = [a["data-tree-copy"].split(">")[1] for a in page.having("line", "to-member")]
        assert sorted(to_members) == sorted(members), to_members

        os.makedirs(os.path.dirname(SCREENSHOT), exist_ok=True)
        if os.path.exists(SCREENSHOT):
            os.remove(SCREENSHOT)
        chromium(f"--screenshot={SCREENSHOT}", "--window-size=1400,1000", page_url(controller))
        with open(SCREENSHOT, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    finally:
        if testbed is not None:
            testbed.down()
        controller.terminate()
