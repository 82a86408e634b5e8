// The audit report over a period: per audited pair, verdict and DB share over the period, bytes per category
// and per address, RTT; a stacked bar chart of the categories and a CSV download of the same rows.
import {el, fill, byId, row} from './dom.js';
import {bytes, percent, micros, CATEGORIES, CATEGORY_COLOURS} from './format.js';
import {get, href} from './api.js';
import {chart, axisStyle, TEXT} from './charts.js';

const form = byId('report-form');

function local(ms) {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60000);
  return d.toISOString().slice(0, 16);
}

function range() {
  return {from: new Date(form.from.value).getTime(), to: new Date(form.to.value).getTime()};
}

function list(map, label) {
  return el('ul', {class: 'plain'}, ...Object.entries(map).map(([k, v]) => el('li', {}, `${label ? label(k) : k}: ${bytes(v)}`)));
}

async function show() {
  const r = await get('report', range());
  byId('csv').href = href('report', {...range(), format: 'csv'});
  const hosts = new Map((await get('hosts')).map((h) => [h.address, h]));
  const name = (a) => (hosts.has(a) ? `${hosts.get(a).name} (${hosts.get(a).role}) ${a}` : a);
  const fails = r.servers.filter((s) => s.verdict === 'FAIL').length;
  byId('summary').textContent = `${r.servers.length} audited pairs, ${fails} FAIL over the period`;
  byId('summary').className = 'summary ' + (fails ? 'fail' : 'pass');
  fill(byId('report-table').tBodies[0], ...r.servers.map((s) => row([
    `${s.name} (${s.server})`, `${s.site} → ${s.remoteSite}`, el('span', {class: 'badge ' + s.verdict}, s.verdict),
    [percent(s.dbShare), 'num'], [bytes(s.crossBytes), 'num'],
    [`${s.windowVerdicts.PASS} / ${s.windowVerdicts.FAIL} / ${s.windowVerdicts.INSUFFICIENT}`, 'num'],
    list(s.categories), list(s.addresses, name),
    [s.rttMicros.samples ? `${micros(s.rttMicros.p50)} / ${micros(s.rttMicros.p95)}` : '–', 'num'],
  ])));
  const labels = r.servers.map((s) => `${s.name} → ${s.remoteSite}`);
  byId('report-chart').style.height = Math.max(10, 2.5 * r.servers.length + 6) + 'rem';
  chart(byId('report-chart')).resize();
  chart(byId('report-chart')).setOption({
    animation: false,
    color: CATEGORIES.map((c) => CATEGORY_COLOURS[c]),
    legend: {textStyle: {color: TEXT}},
    tooltip: {trigger: 'axis', axisPointer: {type: 'shadow'}, valueFormatter: (x) => bytes(x)},
    grid: {left: 8, right: 20, top: 40, bottom: 30, containLabel: true},
    xAxis: {type: 'value', ...axisStyle(), axisLabel: {color: TEXT, formatter: (x) => bytes(x)}},
    yAxis: {type: 'category', data: labels, ...axisStyle()},
    series: CATEGORIES.map((c) => ({name: c, type: 'bar', stack: 'bytes', barMaxWidth: 28, data: r.servers.map((s) => s.categories[c] || 0)})),
  }, true);
}

const now = Date.now();
form.from.value = local(now - 24 * 3600_000);
form.to.value = local(now);
form.addEventListener('submit', (e) => {
  e.preventDefault();
  show().catch((err) => { byId('summary').textContent = 'API error: ' + err.message; });
});
show().then(() => { document.body.dataset.ready = 'true'; })
  .catch((err) => { byId('summary').textContent = 'API error: ' + err.message; });
