// netpubsub dashboard: "False positives per subscriber where known". Self-contained panel with
// its own 2 s loop over GET /v1/pubsub/stats (subscribers report what they received and dropped
// as false positives; the controller cannot see it otherwise). Uses app.js's el/fill/note/table/
// fmt/hostName helpers, so it loads after app.js.
'use strict';

const STATS_POLL_MS = 2000;

/** The panel from a /v1/pubsub/stats answer ({ok, status, body} as getJson gives it). */
function renderSubscriberStats(stats) {
  if (!stats.ok) {
    fill('false-positives', note(stats.status === 404
      ? 'pub/sub is off'
      : `subscriber stats unavailable (HTTP ${stats.status})`));
    return;
  }
  const {subscriptions, total} = stats.body;
  if (subscriptions.length === 0) {
    fill('false-positives', note('no subscriber has reported yet (nps sub and the Java and ' +
      'Python clients report every 5 s)'));
    return;
  }
  const pct = (r) => `${(100 * r).toFixed(1)} %`;
  const rows = [...subscriptions]
    .sort((a, b) => b.false_positive_rate - a.false_positive_rate || a.id.localeCompare(b.id))
    .map((s) => el('tr', {class: 'false-positive', 'data-subscription': s.id},
      el('td', {title: `${s.id} · port ${s.port}`}, hostName(s.host)),
      el('td', {class: 'metric'}, s.filter),
      el('td', {class: 'num'}, fmt(s.received)),
      el('td', {class: 'num'}, fmt(s.false_positives)),
      el('td', {class: 'num'}, pct(s.false_positive_rate))));
  rows.push(el('tr', {class: 'false-positive-total'}, el('td', {}, el('b', {}, 'total')),
    el('td', {class: 'meta'}, `${total.subscriptions_reporting} reporting`),
    el('td', {class: 'num'}, fmt(total.received)),
    el('td', {class: 'num'}, fmt(total.false_positives)),
    el('td', {class: 'num'}, el('b', {}, pct(total.false_positive_rate)))));
  fill('false-positives', table(['subscriber', 'filter', 'received', 'false pos.', 'rate'], rows));
}

async function subscriberStatsLoop() {
  try {
    renderSubscriberStats(await getJson('/v1/pubsub/stats'));
  } catch (e) {
    fill('false-positives', note(`subscriber stats error: ${e.message}`));
  } finally {
    setTimeout(subscriberStatsLoop, STATS_POLL_MS);
  }
}

subscriberStatsLoop();
