// The controller's live dashboard (docs/operations.md, "Dashboard"). Every 2 s it reads the REST
// API and, when it answers, /metrics, then redraws every panel from scratch: plain DOM and inline
// SVG, no build step and nothing fetched from elsewhere.
'use strict';

const POLL_MS = 2000;
const HISTORY = 60; // points per rate sparkline: two minutes
const SVG_NS = 'http://www.w3.org/2000/svg';
// Flow cookies (docs/pubsub.md, docs/compiler.md, docs/multicast.md): what installed a flow.
const COOKIE_KINDS = {'4e50530000000001': 'unicast', '4e50530000000002': 'content',
  '4e50530000000003': 'content', '4e50530000000005': 'multicast'};
const FLOW_KINDS = ['content', 'multicast', 'unicast', 'other'];
const KINDS = ['events', 'requests', 'other']; // rates, in the order shown
const LINK_STATES = {up: 'up', down: 'an end is disconnected', gone: 'down (no longer discovered)',
  avoided: 'avoided by traffic engineering'};

const view = {
  previousCounters: null, // {at, values} of the last /metrics read, for rates
  history: new Map(), // counter name -> recent rates
  selectedGroup: null,
  seenLinks: new Map(), // every link discovered since the page opened: a vanished one is down
};

// ---- DOM helpers ----------------------------------------------------------------------------

function el(tag, attrs, ...children) {
  return build(document.createElement(tag), attrs, children);
}

function svg(tag, attrs, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function fill(id, ...children) {
  document.getElementById(id).replaceChildren(...children.flat().filter((c) => c));
}

function note(text) {
  return el('p', {class: 'note'}, text);
}

function table(headers, rows) {
  return el('table', {class: 'grid'}, el('tr', {}, headers.map((t) => el('th', {}, t))), rows);
}

// ---- Reading the controller -----------------------------------------------------------------

/** GET a JSON resource: {ok, status, body}; never throws (status 0: no answer). */
async function getJson(path) {
  try {
    const r = await fetch(path, fetchOptions());
    const body = await r.json().catch(() => null);
    return {ok: r.ok, status: r.status, body};
  } catch (e) {
    return {ok: false, status: 0, body: null};
  }
}

/** GET /metrics as Prometheus text, or null when it does not answer with it. */
async function getMetrics() {
  try {
    const r = await fetch('/metrics', fetchOptions());
    const type = r.headers.get('Content-Type') || '';
    if (!r.ok || type.includes('json') || type.includes('html')) return null;
    return parseMetrics(await r.text());
  } catch (e) {
    return null;
  }
}

async function readController() {
  const topology = await getJson('/v1/topology');
  if (!topology.ok) return {topology};
  const [pubsub, subscriptions, advertisements, groups, metrics] = await Promise.all([
    ...['/v1/pubsub', '/v1/subscriptions', '/v1/advertisements', '/v1/groups'].map(getJson),
    getMetrics()]);
  const flows = await Promise.all(
    topology.body.switches.map((s) => getJson(`/v1/switches/${s.dpid}/flows`)));
  return {topology, pubsub, subscriptions, advertisements, groups, metrics, flows};
}

// ---- Prometheus text format -----------------------------------------------------------------

/** The samples of a Prometheus text exposition: {types: name -> type, samples: [...]}. */
function parseMetrics(text) {
  const types = {};
  const samples = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).trim().split(/\s+/);
      types[name] = type;
      continue;
    }
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (m) samples.push({name: m[1], labels: parseLabels(m[2] || ''), value: Number(m[3])});
  }
  return {types, samples};
}

function parseLabels(text) {
  const labels = {};
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    labels[m[1]] = m[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/** Counter-like samples (counters, and the _count of histograms and summaries), summed per name. */
function counterTotals(metrics) {
  const totals = new Map();
  for (const s of metrics.samples) {
    const base = s.name.replace(/_(total|count)$/, '');
    const type = metrics.types[s.name] || metrics.types[base];
    const counter =
      (type === 'counter' && !s.name.endsWith('_created')) ||
      ((type === 'histogram' || type === 'summary') && s.name.endsWith('_count'));
    if (counter && Number.isFinite(s.value)) {
      totals.set(s.name, (totals.get(s.name) || 0) + s.value);
    }
  }
  return totals;
}

const RUNTIME = /^(jvm|process|system|jetty|executor|logback|disk|netty)_/; // not the app's own
const EVENTS = new RegExp('packet_?in|event|flow_?mod|barrier|reconcile|message|datagram|' +
  'subscri|advertis|forward|nack|retransmi|relay|publish|deliver');

/** A counter's kind in the rates panel; null for the runtime's own (JVM, process, server). */
function rateKind(name) {
  if (RUNTIME.test(name)) return null;
  return /request|http/i.test(name) ? 'requests' : EVENTS.test(name) ? 'events' : 'other';
}

/** Per-second rates since the previous read, remembered for the sparklines. */
function updateRates(metrics, now) {
  const totals = counterTotals(metrics);
  const previous = view.previousCounters;
  view.previousCounters = {at: now, values: totals};
  const rates = [];
  for (const [name, value] of totals) {
    const kind = rateKind(name);
    if (!kind) continue;
    const before = previous && previous.values.get(name);
    const seconds = previous ? (now - previous.at) / 1000 : 0;
    const rate = before !== undefined && seconds > 0 ? Math.max(0, value - before) / seconds : null;
    const history = view.history.get(name) || [];
    if (rate !== null) history.push(rate);
    view.history.set(name, history.slice(-HISTORY));
    rates.push({name, kind, total: value, rate, history: view.history.get(name)});
  }
  return rates;
}

// ---- Names ----------------------------------------------------------------------------------

/** A switch's short name: sN for the test bed's small dpids, else the dpid's last digits. */
function switchName(dpid) {
  const n = parseInt(dpid, 16);
  return n > 0 && n < 100000 ? `s${n}` : dpid.replace(/^0+/, '').slice(-6);
}

/** A host's short name: what follows the last '::', or the last two groups. */
function hostName(address) {
  const i = address.lastIndexOf('::');
  return i >= 0 && i + 2 < address.length ? address.slice(i) : address.split(':').slice(-2).join(':');
}

function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The switch of a SNAPS segment address ff1e:5e00:DPID:INDEX (docs/multicast.md), or null. */
function segmentSwitch(address) {
  const [head, tail] = address.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill('0'), ...t];
  if (groups[0] !== 'ff1e' || groups[1] !== '5e00') return null;
  return groups.slice(2, 6).map((g) => g.padStart(4, '0')).join('');
}

/** An undirected link's key, the same from either end. */
function linkKey(a, b) {
  return [`${a.dpid}/${a.port}`, `${b.dpid}/${b.port}`].sort().join('-');
}

function fmt(n) {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)} k`;
  return n >= 100 || Number.isInteger(n) ? String(Math.round(n)) : n.toFixed(1);
}

// ---- Topology layout ------------------------------------------------------------------------

/**
 * Layers by hop distance from the switches with hosts (bottom) up to the core; when no switch or
 * every switch has hosts (a WAN), from the most central switch (top) outwards, hosts beside.
 * Within a layer, switches sit under the mean position of their neighbours in the layer before
 * (one barycentre pass), so trees hardly cross. Every link seen since the page opened counts, so
 * a link going down does not move the switches.
 */
function layout(topo, links, width, height) {
  const ids = topo.switches.map((s) => s.dpid).sort();
  const adjacent = new Map(ids.map((d) => [d, []]));
  for (const l of links) {
    if (adjacent.has(l.a.dpid) && adjacent.has(l.b.dpid)) {
      adjacent.get(l.a.dpid).push(l.b.dpid);
      adjacent.get(l.b.dpid).push(l.a.dpid);
    }
  }
  const hostsAt = new Map();
  for (const host of topo.hosts) hostsAt.set(host.dpid, [...(hostsAt.get(host.dpid) || []), host]);
  const withHosts = ids.filter((d) => hostsAt.has(d));
  const fromHosts = withHosts.length > 0 && withHosts.length < ids.length;
  const distance = hops(fromHosts ? withHosts : [centre(ids, adjacent)], adjacent);
  const unreached = Math.max(-1, ...distance.values()) + 1;
  const layers = [];
  for (const d of ids) {
    const k = distance.has(d) ? distance.get(d) : unreached;
    (layers[k] = layers[k] || []).push(d);
  }
  const order = new Map();
  layers.forEach((layer, k) => {
    if (k > 0) {
      const mean = (d) => {
        const below = adjacent.get(d).filter((n) => distance.get(n) === k - 1);
        return below.length ? below.reduce((s, n) => s + order.get(n), 0) / below.length : 1e9;
      };
      const means = new Map(layer.map((d) => [d, mean(d)]));
      layer.sort((a, b) => means.get(a) - means.get(b) || (a < b ? -1 : 1));
    }
    layer.forEach((d, i) => order.set(d, i));
  });
  const rows = layers.filter((l) => l).length + (fromHosts ? 1 : 0);
  const rowHeight = (height - (fromHosts ? 40 : 90)) / Math.max(1, rows); // room for hosts below
  const position = new Map();
  let row = 0;
  for (const layer of layers) {
    if (!layer) continue;
    const y = fromHosts ? height - 20 - rowHeight * (row + 1.5) : 20 + rowHeight * (row + 0.5);
    layer.forEach((d, i) => position.set(d, {x: ((i + 0.5) * width) / layer.length, y}));
    row++;
  }
  const hostPositions = new Map();
  const gap = Math.min(64, width / Math.max(1, topo.hosts.length + 1));
  for (const [d, hosts] of hostsAt) {
    const p = position.get(d);
    if (!p) continue;
    hosts.sort((a, b) => a.port - b.port);
    hosts.forEach((host, j) => {
      const x = p.x + (j - (hosts.length - 1) / 2) * gap;
      hostPositions.set(host.address, {x, y: fromHosts ? height - 20 - rowHeight * 0.45 : p.y + 40});
    });
  }
  return {position, hostPositions};
}

function hops(sources, adjacent) {
  const distance = new Map(sources.map((d) => [d, 0]));
  const queue = [...sources];
  while (queue.length) {
    const d = queue.shift();
    for (const n of adjacent.get(d)) {
      if (!distance.has(n)) {
        distance.set(n, distance.get(d) + 1);
        queue.push(n);
      }
    }
  }
  return distance;
}

/** The switch with the least eccentricity (lowest dpid on ties). */
function centre(ids, adjacent) {
  const eccentricity = (d) => Math.max(...hops([d], adjacent).values());
  return ids.reduce((best, d) => (eccentricity(d) < eccentricity(best) ? d : best));
}

// ---- Panels ---------------------------------------------------------------------------------

function renderSummary(data) {
  const topo = data.topology.body;
  const connected = topo.switches.filter((s) => s.connected).length;
  const subs = data.subscriptions.ok ? data.subscriptions.body.subscriptions.length : null;
  const advs = data.advertisements.ok ? data.advertisements.body.advertisements.length : null;
  const groups = data.groups.ok ? data.groups.body.groups.length : null;
  const chip = (id, n, label, extra) =>
    el('span', {class: 'chip'}, el('b', {id}, n === null ? '–' : n), ` ${label}`, extra);
  fill('summary',
    chip('n-switches', topo.switches.length, 'switches',
      connected < topo.switches.length ? el('em', {}, ` (${connected} connected)`) : null),
    chip('n-links', topo.links.length, 'links',
      view.seenLinks.size > topo.links.length
        ? el('em', {}, ` (${view.seenLinks.size - topo.links.length} down)`) : null),
    chip('n-hosts', topo.hosts.length, 'hosts'),
    chip('n-subscriptions', subs, 'subscriptions'),
    chip('n-advertisements', advs, 'advertisements'),
    chip('n-groups', groups, 'groups'));
  const p = data.pubsub.ok ? data.pubsub.body : null;
  document.getElementById('pubsub-info').textContent = p
    ? `pub/sub: ${p.routing || 'pleroma'} · index ${p.index.length} bits over ` +
      `${p.index.dimensions.join(', ')} · at most ${p.max_cells} cells`
    : 'pub/sub off (no --schema)';
}

function renderTopology(data, roles, contentFlows) {
  const topo = data.topology.body;
  if (topo.switches.length === 0) {
    fill('topology', note('no switch has connected yet'));
    return;
  }
  const width = 820;
  const height = 470;
  const {position, hostPositions} = layout(topo, [...view.seenLinks.values()], width, height);
  const connected = new Map(topo.switches.map((s) => [s.dpid, s.connected]));
  const avoided = new Set(
    (data.groups.ok ? data.groups.body.avoided_links || [] : []).map((l) => linkKey(l.a, l.b)));
  const group = selectedGroup(data);
  const members = new Set(group ? group.members : []);
  const sources = new Set(group ? Object.keys(group.sources) : []);
  const entries = new Set(Object.values(group ? group.sources : {})
    .map((e) => e.send_to && segmentSwitch(e.send_to)));
  const graph = svg('svg', {viewBox: `0 0 ${width} ${height}`, width, height, id: 'graph'});
  const now = new Set(topo.links.map((l) => linkKey(l.a, l.b)));
  for (const [key, l] of view.seenLinks) {
    const a = position.get(l.a.dpid);
    const b = position.get(l.b.dpid);
    if (!a || !b) continue;
    const up = now.has(key) && connected.get(l.a.dpid) && connected.get(l.b.dpid);
    const state = !now.has(key) ? 'gone' : avoided.has(key) ? 'avoided' : up ? 'up' : 'down';
    graph.append(svg('line', {class: `link ${state}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y,
      'data-link': key},
      svg('title', {}, `${switchName(l.a.dpid)} port ${l.a.port} — ` +
        `${switchName(l.b.dpid)} port ${l.b.port}: ${LINK_STATES[state]}`)));
  }
  drawTrees(graph, group, position, hostPositions); // trees.js
  for (const host of topo.hosts) {
    const p = hostPositions.get(host.address);
    const s = position.get(host.dpid);
    if (p && s) graph.append(svg('line', {class: 'access', x1: s.x, y1: s.y, x2: p.x, y2: p.y}));
  }
  for (const s of topo.switches) {
    const p = position.get(s.dpid);
    const n = contentFlows.get(s.dpid) || 0;
    const entry = entries.has(s.dpid) ? 'entry' : '';
    graph.append(svg('g', {class: `switch ${s.connected ? 'up' : 'down'} ${entry}`, 'data-dpid': s.dpid,
      transform: `translate(${p.x},${p.y})`},
      svg('title', {}, `${s.dpid}: ${s.connected ? 'connected' : 'disconnected'}, ` +
        `${s.ports.length} ports, ${n} content flows`),
      svg('rect', {x: -26, y: -14, width: 52, height: 28, rx: 6}),
      svg('text', {class: 'name', y: 4}, switchName(s.dpid)),
      n > 0 ? svg('g', {class: 'badge', transform: 'translate(26,-14)'},
        svg('circle', {r: 10}), svg('text', {y: 3.5}, fmt(n))) : null));
  }
  for (const host of topo.hosts) {
    const p = hostPositions.get(host.address);
    if (!p) continue;
    const role = roles.get(host.address) || {subs: 0, advs: 0};
    const kind = role.subs && role.advs ? 'both' : role.subs ? 'sub' : role.advs ? 'adv' : 'idle';
    const mark = members.has(host.address) ? 'member' : sources.has(host.address) ? 'source' : '';
    graph.append(svg('g', {class: `host ${kind} ${mark}`, 'data-address': host.address,
      transform: `translate(${p.x},${p.y})`},
      svg('title', {}, `${host.address} (${host.mac}) at ${switchName(host.dpid)} port ` +
        `${host.port}: ${role.subs} subscriptions, ${role.advs} advertisements`),
      svg('circle', {r: 11}),
      svg('text', {class: 'name', y: 26}, hostName(host.address)),
      role.subs || role.advs ? svg('text', {class: 'roles', y: 38},
        [role.subs ? `${role.subs} sub` : '', role.advs ? `${role.advs} adv` : ''].join(' ').trim())
        : null));
  }
  fill('topology', graph);
}

function renderRates(data) {
  if (!data.metrics) {
    view.previousCounters = null;
    fill('rates', el('p', {class: 'unavailable', id: 'metrics-unavailable'},
      'metrics unavailable: /metrics does not answer with Prometheus text'));
    return;
  }
  const rates = updateRates(data.metrics, Date.now())
    .sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || (b.rate || 0) - (a.rate || 0));
  if (rates.length === 0) {
    fill('rates', note('no counters of the controller in /metrics'));
    return;
  }
  const rows = rates.slice(0, 14).map((r) => el('tr', {class: `rate ${r.kind}`},
    el('td', {class: 'kind'}, r.kind),
    el('td', {class: 'metric', title: r.name}, r.name),
    el('td', {class: 'num'}, r.rate === null ? '…' : `${fmt(r.rate)}/s`),
    el('td', {}, sparkline(r.history)),
    el('td', {class: 'num total'}, fmt(r.total))));
  fill('rates', table(['', 'counter', 'rate', 'last 2 min', 'total'], rows));
}

function sparkline(values) {
  const width = 110;
  const height = 18;
  if (values.length < 2) return svg('svg', {width, height});
  const top = Math.max(...values, 1e-9);
  const step = width / (HISTORY - 1); // the newest point at the right edge
  const points = values.map((v, i) =>
    `${(width - (values.length - 1 - i) * step).toFixed(1)},` +
    `${(height - 1 - (v / top) * (height - 2)).toFixed(1)}`);
  return svg('svg', {width, height, class: 'spark'}, svg('polyline', {points: points.join(' ')}));
}

/** Flows per switch, counted by the cookie that says which app installed them. */
function countFlows(data) {
  const counts = new Map();
  data.topology.body.switches.forEach((s, i) => {
    const answer = data.flows[i];
    const c = {content: 0, multicast: 0, unicast: 0, other: 0, known: answer.ok};
    for (const f of answer.ok ? answer.body.flows : []) c[COOKIE_KINDS[f.cookie] || 'other']++;
    counts.set(s.dpid, c);
  });
  return counts;
}

function renderFlows(data, counts) {
  const switches = [...data.topology.body.switches].sort((a, b) => (a.dpid < b.dpid ? -1 : 1));
  const most = Math.max(1, ...[...counts.values()].map((c) => FLOW_KINDS.reduce((n, k) => n + c[k], 0)));
  const rows = switches.map((s) => {
    const c = counts.get(s.dpid);
    const bars = FLOW_KINDS.map((k) => (c[k] ? el('span', {class: `bar ${k}`, title: `${c[k]} ${k}`,
      style: `width:${(100 * c[k]) / most}%`}) : null));
    return el('tr', {class: 'switch-flows', 'data-dpid': s.dpid, 'data-content': c.content},
      el('td', {class: 'name'}, switchName(s.dpid)),
      el('td', {class: 'num content'}, c.known ? c.content : '?'),
      el('td', {class: 'num'}, c.known ? c.multicast : '?'),
      el('td', {class: 'num'}, c.known ? c.unicast : '?'),
      el('td', {class: 'bars'}, bars));
  });
  fill('flows', table(['switch', 'content', 'multicast', 'unicast', ''], rows));
}

/** Per host address: its subscriptions and advertisements. */
function requestsByHost(data) {
  const byHost = new Map();
  const add = (r, kind) => {
    if (!byHost.has(r.host)) byHost.set(r.host, {subs: [], advs: []});
    byHost.get(r.host)[kind].push(r);
  };
  if (data.subscriptions.ok) data.subscriptions.body.subscriptions.forEach((r) => add(r, 'subs'));
  if (data.advertisements.ok) data.advertisements.body.advertisements.forEach((r) => add(r, 'advs'));
  return byHost;
}

function renderRequests(data, byHost) {
  if (!data.subscriptions.ok) {
    fill('requests', note(data.subscriptions.status === 404
      ? 'pub/sub is off: start the controller with --schema'
      : `subscriptions unavailable (HTTP ${data.subscriptions.status})`));
    return;
  }
  if (byHost.size === 0) {
    fill('requests', note('no subscription or advertisement stands'));
    return;
  }
  const at = new Map(data.topology.body.hosts.map((h) => [h.address, h]));
  const item = (r, kind) => el('li', {class: kind, 'data-id': r.id},
    el('code', {class: 'id'}, r.id), ' ', el('span', {class: 'filter'}, r.filter),
    el('span', {class: 'meta'}, ` ${plural(r.cells, 'cell')}${r.port ? ` · port ${r.port}` : ''}`));
  const rows = [...byHost.keys()].sort().map((host) => {
    const {subs, advs} = byHost.get(host);
    const where = at.get(host);
    return el('tr', {class: 'host-requests', 'data-address': host},
      el('td', {class: 'host'}, el('b', {}, hostName(host)), el('br'),
        el('small', {}, host), el('br'),
        el('small', {}, where ? `${switchName(where.dpid)} port ${where.port}` : 'not in topology')),
      el('td', {}, el('ul', {class: 'requests'}, subs.map((r) => item(r, 'subscription')))),
      el('td', {}, el('ul', {class: 'requests'}, advs.map((r) => item(r, 'advertisement')))));
  });
  fill('requests', table(['host', 'subscriptions', 'advertisements'], rows));
}

function selectedGroup(data) {
  const groups = data.groups.ok ? data.groups.body.groups : [];
  return groups.find((g) => g.name === view.selectedGroup) || groups[0] || null;
}

function renderGroups(data) {
  if (!data.groups.ok) {
    fill('groups', note(`multicast groups unavailable (HTTP ${data.groups.status})`));
    return;
  }
  const {groups, segments, writer} = data.groups.body; // writer: in a cluster
  if (groups.length === 0) {
    fill('groups', note('no multicast group'));
    return;
  }
  const selected = selectedGroup(data);
  const cards = groups.map((g) => el('div', {
    class: `group${g === selected ? ' selected' : ''}`, 'data-group': g.name,
    onclick: () => { view.selectedGroup = g.name; redraw(); },
  },
  el('div', {class: 'group-head'}, el('b', {}, g.name),
    el('span', {class: 'meta'}, ` ${g.strategy} · ${plural(g.members.length, 'member')}`)),
  el('ul', {class: 'tree'}, Object.entries(g.sources).map(([src, e]) => el('li', {},
    el('span', {class: 'source'}, hostName(src)), ' → ',
    e.send_to ? el('code', {title: 'send_to: where the source sends its one copy'}, e.send_to)
      : el('em', {}, 'nowhere (unknown source, or no other member)'),
    e.send_to && segmentSwitch(e.send_to)
      ? el('span', {class: 'meta'}, ` (entry on ${switchName(segmentSwitch(e.send_to))})`) : null,
    el('span', {class: 'meta'}, ` · ${plural(e.segments, 'segment')}`), ' → ',
    el('span', {class: 'members'}, g.members.filter((m) => m !== src).map(hostName).join(' ')),
    treeCopies(e)))), // trees.js
  g.unknown_hosts.length ? el('div', {class: 'meta'}, `unknown: ${g.unknown_hosts.join(' ')}`)
    : null));
  fill('groups', el('p', {class: 'meta'}, `${plural(segments, 'replication segment')} installed` +
    (writer ? ` · written by cluster member ${writer}` : '')), cards);
}

// ---- The loop -------------------------------------------------------------------------------

let last = null; // the last complete read

/** Draws the last read again (also after a click selects another group). */
function redraw() {
  if (!last) return;
  const byHost = requestsByHost(last);
  const roles = new Map([...byHost].map(([h, r]) => [h, {subs: r.subs.length, advs: r.advs.length}]));
  const counts = countFlows(last);
  const content = new Map([...counts].map(([d, c]) => [d, c.content]));
  renderSummary(last);
  renderTopology(last, roles, content);
  renderFlows(last, counts);
  renderRequests(last, byHost);
  renderGroups(last);
}

function setStatus(up, text) {
  const status = document.getElementById('status');
  status.className = `status ${up ? 'up' : 'down'}`;
  status.textContent = text;
}

async function loop() {
  try {
    const data = await readController();
    if (!data.topology.ok) {
      const s = data.topology.status;
      setStatus(false, s === 401 ? 'controller answered HTTP 401: open the page as /#token=TOKEN'
        : s ? `controller answered HTTP ${s}` : 'controller unreachable');
      return;
    }
    last = data;
    data.topology.body.links.forEach((l) => view.seenLinks.set(linkKey(l.a, l.b), l));
    renderRates(data);
    redraw();
    setStatus(true, `live · updated ${new Date().toLocaleTimeString()}`);
  } catch (e) {
    setStatus(false, `dashboard error: ${e.message}`);
  } finally {
    setTimeout(loop, POLL_MS);
  }
}

loop();
