// Verdict cards: one per audited pair (server x remote site): DB share against the threshold, the verdict and
// its reason, the pair's RTT p95 (red above the RTT limit in force, js/limit.js), and the last hour's share as a
// sparkline (drawn only once the card is on screen). An INSUFFICIENT card shows why and how many bytes are
// missing, not a share. The page header says what the verdicts say: how many servers are below the DB share.
import {el, fill, byId} from '../dom.js';
import {bytes, bytesExact, count, percent, micros} from '../format.js';
import {chart} from '../charts.js';
import {rttLimitMicros, limitName} from '../limit.js';

const ORDER = {FAIL: 0, INSUFFICIENT: 1, PASS: 2};
const cards = new Map();
let trends = new Map();
let minCrossBytes = 1000000;

/** The least cross-site bytes a verdict needs (from /api/rules), for the INSUFFICIENT cards. */
export function setMinCrossBytes(n) {
  minCrossBytes = n;
}
const observer = 'IntersectionObserver' in window
  ? new IntersectionObserver((entries) => entries.forEach((e) => e.isIntersecting && drawSpark(e.target)))
  : null;

const key = (v) => v.server + ' ' + v.remoteSite;

function card(v) {
  const spark = el('div', {class: 'spark', dataset: {pair: key(v)}, 'aria-hidden': 'true'});
  const c = {
    node: el('article', {class: 'card', dataset: {pair: key(v)}}),
    name: el('span', {class: 'name'}), addr: el('span', {class: 'addr'}), route: el('p', {class: 'route'}),
    share: el('span', {class: 'big share'}), badge: el('span', {class: 'badge verdict'}),
    rtt: el('span', {class: 'rtt'}), missing: el('p', {class: 'missing-detail'}),
    fill: el('div', {class: 'fill'}), mark: el('div', {class: 'mark'}),
    threshold: el('p', {class: 'threshold'}), reason: el('p', {class: 'reason'}), spark,
  };
  c.node.append(el('header', {}, c.name, ' ', c.addr), c.route, el('p', {class: 'shareline'}, c.share, ' ', c.badge, ' ', c.rtt),
    c.missing, el('div', {class: 'gauge', title: 'DB share against the threshold'}, c.fill, c.mark), c.threshold,
    c.reason, spark, el('p', {class: 'spark-caption'}, 'DB share per window, last hour (dashed: threshold)'));
  if (observer) observer.observe(spark);
  return c;
}

function update(c, v) {
  c.node.className = 'card ' + v.verdict.toLowerCase();
  c.name.textContent = v.name;
  c.addr.textContent = v.name === v.server ? '' : v.server;
  c.route.textContent = v.site + ' → ' + v.remoteSite;
  const insufficient = v.verdict === 'INSUFFICIENT';
  const missing = Math.max(0, minCrossBytes - v.crossBytes);
  if (insufficient && missing > 0) {
    c.share.textContent = bytes(missing) + ' missing';
    c.missing.textContent = `${count(v.crossBytes)} B of the ${count(minCrossBytes)} B of cross-site traffic a verdict `
      + `needs (${percent(Math.floor(v.crossBytes / minCrossBytes * 10000) / 10000)}); ${count(missing)} B to go`;
  } else if (insufficient) {
    c.share.textContent = 'not judged';
    c.missing.textContent = 'why: ' + v.reason;
  } else {
    c.share.textContent = (v.estimate ? '≈ ' : '') + percent(v.dbShare);
    c.missing.textContent = '';
  }
  c.share.className = 'big share' + (insufficient ? ' missing' : '');
  c.missing.hidden = !insufficient;
  const rtt = v.rttMicros || {samples: 0};
  c.rtt.textContent = rtt.samples ? 'RTT p95 ' + micros(rtt.p95) : 'RTT –';
  c.rtt.className = 'rtt' + (rtt.samples && rttLimitMicros() > 0 && rtt.p95 > rttLimitMicros() ? ' above' : '');
  c.rtt.title = rtt.samples ? `handshake RTT of the pair: p50 ${micros(rtt.p50)}, p95 ${micros(rtt.p95)}, `
    + `${count(rtt.samples)} samples; ${limitName()}` : 'no handshake RTT sample yet';
  c.badge.textContent = v.verdict;
  c.badge.className = 'badge verdict ' + v.verdict;
  c.fill.style.width = Math.min(100, v.dbShare * 100) + '%';
  c.mark.style.left = Math.min(100, v.threshold * 100) + '%';
  c.threshold.textContent = 'threshold ' + percent(v.threshold) + ' · ' + bytesExact(v.crossBytes) + ' cross-site';
  c.reason.textContent = v.reason + (v.estimate ? ` · estimate from records sampled 1 in ${v.estimate.sampling}: `
    + `the exact DB share within ± ${percent(v.estimate.bound)} (5 σ)` : '');
  c.threshold_ = v.threshold;
}

/** Renders the cumulative verdicts (sorted FAIL, INSUFFICIENT, PASS, then by share). */
export function renderVerdicts(verdicts) {
  const box = byId('cards');
  const seen = new Set();
  const sorted = [...verdicts].sort((a, b) => (ORDER[a.verdict] - ORDER[b.verdict]) || (a.dbShare - b.dbShare)
    || a.name.localeCompare(b.name) || a.remoteSite.localeCompare(b.remoteSite));
  const frag = document.createDocumentFragment();
  for (const v of sorted) {
    let c = cards.get(key(v));
    if (!c) {
      c = card(v);
      cards.set(key(v), c);
    }
    update(c, v);
    frag.append(c.node);
    seen.add(key(v));
  }
  for (const [k, c] of cards) {
    if (!seen.has(k)) {
      if (observer) observer.unobserve(c.spark);
      cards.delete(k);
    }
  }
  box.classList.toggle('dense', verdicts.length > 48);
  fill(box, frag);
  if (!verdicts.length) box.append(el('p', {class: 'empty'}, 'No audited pair yet: waiting for flow records.'));
  renderSummary(verdicts);
}

/**
 * The header: what the verdicts say, "FAIL: 1 of 2 servers below the 90% DB share · 1 PASS · 0 INSUFFICIENT"
 * ("pairs" instead of "servers" when a server is audited towards more than one site). Whether the sites are
 * isolated is the isolation policy's question, not the DB share's: the header does not say it.
 */
function renderSummary(verdicts) {
  const n = {PASS: 0, FAIL: 0, INSUFFICIENT: 0};
  verdicts.forEach((v) => n[v.verdict]++);
  const s = byId('summary');
  s.className = 'summary ' + (n.FAIL ? 'fail' : n.PASS ? 'pass' : 'insufficient');
  const servers = new Set(verdicts.map((v) => v.server)).size === verdicts.length ? 'servers' : 'pairs';
  const thresholds = [...new Set(verdicts.map((v) => Number(v.threshold)))];
  const share = thresholds.length === 1 ? `the ${percentShort(thresholds[0])} DB share` : 'their DB share threshold';
  if (!verdicts.length) {
    s.textContent = 'No verdict yet';
  } else if (n.FAIL) {
    s.textContent = `FAIL: ${n.FAIL} of ${verdicts.length} ${servers} below ${share} · ${n.PASS} PASS · ${n.INSUFFICIENT} INSUFFICIENT`;
  } else {
    s.textContent = `PASS: ${n.PASS} of ${verdicts.length} ${servers} at or above ${share} · ${n.INSUFFICIENT} INSUFFICIENT`;
  }
  s.title = s.textContent;
}

/** 0.9 -> "90%", 0.925 -> "92.5%". */
function percentShort(share) {
  return String(Number((share * 100).toFixed(2))) + '%';
}

/** Sets the sparkline data ([{server, remoteSite, points: [[t, share, bytes]]}]) and redraws visible ones. */
export function renderTrends(list) {
  trends = new Map(list.map((t) => [t.server + ' ' + t.remoteSite, t.points]));
  for (const c of cards.values()) {
    if (c.drawn) drawSpark(c.spark);
  }
}

function drawSpark(node) {
  const c = cards.get(node.dataset.pair);
  if (!c) return;
  c.drawn = true;
  const points = (trends.get(node.dataset.pair) || []).map((p) => [p[0], Number(p[1])]);
  const low = Math.min(c.threshold_, ...points.map((p) => p[1]));
  const min = Math.max(0, Math.floor((low - 0.05) * 20) / 20);
  chart(node).setOption({
    animation: false,
    grid: {left: 2, right: 2, top: 4, bottom: 4},
    xAxis: {type: 'time', show: false},
    yAxis: {type: 'value', min, max: 1, show: false},
    tooltip: {trigger: 'axis', valueFormatter: (x) => percent(x)},
    series: [{type: 'line', data: points, showSymbol: points.length < 3, lineStyle: {width: 2},
      markLine: {silent: true, symbol: 'none', lineStyle: {type: 'dashed', color: '#bf616a'},
        label: {show: false}, data: [{yAxis: c.threshold_}]}}],
  });
}
