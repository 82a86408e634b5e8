// Links between sites: per site pair the bandwidth each way (10 s rate, bits/s unless bytes/s is asked) and the
// handshake RTT (p50, p95) against the RTT limit in force (the link's limitMicros: Oracle's 10 ms or the site
// model's stricter rttLimitMs), as a table and a small map of the sites; bandwidth per direction over the last hour
// (the server's history, /api/links/history, then the live view's samples) and RTT p50/p95 per closed window over
// the last hour, the limit always drawn and labelled.
import {el, fill, byId, row} from '../dom.js';
import {rate, rateUnit, micros, age} from '../format.js';
import {get} from '../api.js';
import {chart, axisStyle, TEXT} from '../charts.js';
import {rttLimitMicros, limitMs, limitName} from '../limit.js';

const HOUR_MS = 3600_000;
let last = [];
const bandwidth = new Map(); // "A → B" -> [[t, bytes/s]]
let rttWindows = [];

/** Fills the table and map, records a bandwidth sample; charts are drawn only while the view is visible. */
export function renderLinks(links, visible) {
  last = links;
  const now = Date.now();
  for (const l of links) {
    sample(l.siteA + ' → ' + l.siteB, now, l.aToBBps);
    sample(l.siteB + ' → ' + l.siteA, now, l.bToABps);
  }
  drawTable();
  drawMap();
  if (visible) drawLinksCharts();
}

function sample(name, t, v) {
  const s = bandwidth.get(name) || [];
  if (s.length && s[s.length - 1][0] >= t) return; // the history ends after this sample
  s.push([t, v]);
  while (s.length && s[0][0] < t - HOUR_MS) s.shift();
  bandwidth.set(name, s);
}

/**
 * The last hour's bandwidth from the server (/api/links/history: a 10 s rate per link sampled every 10 s), so
 * the chart is not empty when the page opens; the live samples follow it.
 */
export async function loadBandwidthHistory() {
  const history = await get('links/history');
  for (const l of history) {
    const ab = l.siteA + ' → ' + l.siteB;
    const ba = l.siteB + ' → ' + l.siteA;
    const live = [bandwidth.get(ab) || [], bandwidth.get(ba) || []];
    const first = Math.min(...live.map((s) => (s.length ? s[0][0] : Infinity)));
    bandwidth.set(ab, [...l.points.filter((p) => p[0] < first).map((p) => [p[0], p[1]]), ...live[0]]);
    bandwidth.set(ba, [...l.points.filter((p) => p[0] < first).map((p) => [p[0], p[2]]), ...live[1]]);
  }
}

function rttText(l, p) {
  return l.rttMicros.samples ? micros(l.rttMicros[p]) : '–';
}

function drawTable() {
  fill(byId('links-table').tBodies[0], ...last.map((l) => row([
    l.siteA, l.siteB, [rate(l.aToBBps), 'num'], [rate(l.bToABps), 'num'],
    [rttText(l, 'p50'), 'num'], [rttText(l, 'p95'), 'num'],
    el('span', {class: 'badge ' + (l.aboveLimit ? 'FAIL' : 'PASS'), title: limitName(l.limitMicros, l.limitSource)},
      (l.aboveLimit ? 'above ' : 'within ') + limitMs(l.limitMicros)),
    [l.ageMs < 0 ? '–' : age(l.ageMs), 'num'],
  ])));
}

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Sites on a circle, a line per link labelled with its rate each way and RTT p95 (red above the limit). */
function drawMap() {
  const map = byId('site-map');
  const w = 384;
  const h = 240;
  map.setAttribute('viewBox', `0 0 ${w} ${h}`);
  const names = [...new Set(last.flatMap((l) => [l.siteA, l.siteB]))].sort();
  const pos = new Map(names.map((n, i) => {
    const a = names.length === 2 ? Math.PI * i : (2 * Math.PI * i) / names.length - Math.PI / 2;
    return [n, [w / 2 + (w / 2 - 60) * Math.cos(a), h / 2 + (h / 2 - 40) * Math.sin(a)]];
  }));
  const parts = [];
  for (const l of last) {
    const [x1, y1] = pos.get(l.siteA);
    const [x2, y2] = pos.get(l.siteB);
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    parts.push(svg('line', {x1, y1, x2, y2, class: l.aboveLimit ? 'above' : ''}),
      svg('text', {x: mx, y: my - 22, 'text-anchor': 'middle', class: 'ab'}, `${l.siteA} → ${l.siteB}: ${rate(l.aToBBps)}`),
      svg('text', {x: mx, y: my - 6, 'text-anchor': 'middle', class: 'ba'}, `${l.siteB} → ${l.siteA}: ${rate(l.bToABps)}`),
      svg('text', {x: mx, y: my + 16, 'text-anchor': 'middle', class: 'rtt'}, 'RTT p95 ' + rttText(l, 'p95')));
  }
  for (const n of names) {
    const [x, y] = pos.get(n);
    const g = svg('g', {class: 'site'});
    g.append(svg('circle', {cx: x, cy: y, r: 9}), svg('text', {x, y: y + 26, 'text-anchor': 'middle', class: 'site-name'}, n));
    parts.push(g);
  }
  if (!names.length) parts.push(svg('text', {x: w / 2, y: h / 2, 'text-anchor': 'middle'}, 'no link yet'));
  map.replaceChildren(...parts);
}

/** Loads the last hour's closed windows (RTT per site pair) and redraws. */
export async function loadLinkHistory(visible) {
  const now = Date.now();
  rttWindows = await get('windows', {from: now - 3600_000, to: now + 60_000});
  if (visible) drawLinksCharts();
}

/**
 * RTT per site pair and window from the pairs' window verdicts: p50 the sample-weighted mean of their medians,
 * p95 the largest p95 (an upper bound), as the report merges them (docs/API.md).
 */
function rttSeries() {
  const pairs = new Map();
  for (const v of rttWindows) {
    if (!v.rttMicros || !v.rttMicros.samples || !v.window) continue;
    const name = [v.site, v.remoteSite].sort().join(' ↔ ');
    const byWindow = pairs.get(name) || new Map();
    const m = byWindow.get(v.window.end) || {n: 0, sum: 0, p95: 0};
    m.n += v.rttMicros.samples;
    m.sum += v.rttMicros.samples * v.rttMicros.p50;
    m.p95 = Math.max(m.p95, v.rttMicros.p95);
    byWindow.set(v.window.end, m);
    pairs.set(name, byWindow);
  }
  const series = [];
  for (const [name, byWindow] of [...pairs].sort()) {
    const points = [...byWindow].sort((a, b) => a[0] - b[0]);
    series.push({name: name + ' p50', type: 'line', showSymbol: points.length < 3,
      data: points.map(([t, m]) => [t, Math.round(m.sum / m.n) / 1000])});
    series.push({name: name + ' p95', type: 'line', showSymbol: points.length < 3, lineStyle: {type: 'dotted'},
      data: points.map(([t, m]) => [t, m.p95 / 1000])});
  }
  return series;
}

export function drawLinksCharts() {
  const unit = rateUnit();
  chart(byId('links-bandwidth')).setOption({
    animation: false,
    legend: {textStyle: {color: TEXT}},
    tooltip: {trigger: 'axis', valueFormatter: rate},
    grid: {left: 90, right: 30, top: 40, bottom: 30},
    xAxis: {type: 'time', ...axisStyle(), axisLabel: {color: TEXT, hideOverlap: true}},
    yAxis: {type: 'value', name: unit + ' (10 s rate)', nameTextStyle: {color: TEXT, align: 'left'}, ...axisStyle(),
      axisLabel: {color: TEXT, formatter: rate}},
    series: [...bandwidth].map(([name, s]) => ({name, type: 'line', showSymbol: s.length < 3, data: s})),
  }, true);
  const series = rttSeries();
  const limitMicros = last.length ? last[0].limitMicros : rttLimitMicros();
  const name = last.length ? limitName(last[0].limitMicros, last[0].limitSource) : limitName();
  const top = Math.max(limitMicros / 1000, ...series.flatMap((s) => s.data.map((p) => p[1])));
  const limit = {silent: true, symbol: 'none', lineStyle: {color: '#bf616a', type: 'dashed', width: 2},
    label: {formatter: name, color: TEXT, position: 'insideEndTop'},
    data: [{yAxis: limitMicros / 1000}]};
  chart(byId('links-rtt')).setOption({
    animation: false,
    legend: {textStyle: {color: TEXT}},
    tooltip: {trigger: 'axis', valueFormatter: (x) => x + ' ms'},
    grid: {left: 60, right: 30, top: 40, bottom: 30},
    xAxis: {type: 'time', ...axisStyle(), axisLabel: {color: TEXT, hideOverlap: true}},
    // the axis always reaches above the limit, so its line is never clipped
    yAxis: {type: 'value', name: 'RTT, ms', nameTextStyle: {color: TEXT, align: 'left'}, min: 0, max: Math.ceil(top * 1.2), ...axisStyle()},
    series: series.length ? series.map((s, i) => (i === 0 ? {...s, markLine: limit} : s))
      : [{name: 'no RTT sample', type: 'line', data: [], markLine: limit}],
  }, true);
}
