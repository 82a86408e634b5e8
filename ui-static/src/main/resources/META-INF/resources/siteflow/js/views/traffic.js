// Where the bytes go, per audited pair: a stacked area of bytes per category per window over the last hour,
// and the share per remote address (cumulative) as bars named by host name and role, with a table beside.
import {el, fill, byId, row} from '../dom.js';
import {bytes, bytesExact, percent, CATEGORIES, CATEGORY_COLOURS} from '../format.js';
import {get} from '../api.js';
import {chart, axisStyle, TEXT} from '../charts.js';

let verdicts = [];
let hosts = new Map();

export function setHosts(list) {
  hosts = new Map(list.map((h) => [h.address, h]));
}

/** Label of a remote address: "db1 (db)" or the address alone. */
export function hostLabel(address) {
  const h = hosts.get(address);
  return h ? `${h.name} (${h.role})` : address;
}

/** Label of a remote address in the bars: "db1 (db)  10.1.0.10", or the address once when it is no listed host. */
export function addressLabel(address) {
  return hosts.has(address) ? hostLabel(address) + '  ' + address : address;
}

export function hostName(address) {
  const h = hosts.get(address);
  return h ? h.name : address;
}

const pairKey = (v) => v.server + '|' + v.remoteSite;

/** Keeps the server picker in step with the cumulative verdicts. */
export function setVerdicts(list) {
  verdicts = list;
  const sel = byId('traffic-server');
  const current = sel.value;
  const options = list.map((v) => el('option', {value: pairKey(v)}, `${v.name} (${v.server}) → ${v.remoteSite}`));
  fill(sel, ...options);
  if (current && list.some((v) => pairKey(v) === current)) sel.value = current;
}

/** Draws the pair picked as soon as it is picked (not at the next verdict update). */
export function initTraffic(onError) {
  byId('traffic-server').addEventListener('change', () => renderTraffic().catch(onError));
}

export async function renderTraffic() {
  const sel = byId('traffic-server');
  const v = verdicts.find((x) => pairKey(x) === sel.value) || verdicts[0];
  if (!v) return;
  renderBars(v);
  const now = Date.now();
  const windows = (await get('windows', {from: now - 3600_000, to: now + 60_000, server: v.server}))
    .filter((w) => w.remoteSite === v.remoteSite);
  renderArea(windows);
}

function renderArea(windows) {
  const minutes = windows.length ? (windows[0].window.end - windows[0].window.start) / 60_000 : 1;
  const present = CATEGORIES.filter((c) => windows.some((w) => w.categories[c]));
  chart(byId('traffic-area')).setOption({
    animation: false,
    color: present.map((c) => CATEGORY_COLOURS[c]),
    tooltip: {trigger: 'axis', valueFormatter: (x) => bytes(x)},
    legend: {textStyle: {color: TEXT}},
    grid: {left: 70, right: 20, top: 40, bottom: 30},
    xAxis: {type: 'time', ...axisStyle()},
    yAxis: {type: 'value', name: `bytes per ${minutes === 1 ? 'minute' : minutes + '-minute window'}`,
      nameTextStyle: {color: TEXT, align: 'left'}, ...axisStyle(), axisLabel: {color: TEXT, formatter: (x) => bytes(x)}},
    series: present.map((c) => ({
      name: c, type: 'line', stack: 'bytes', areaStyle: {}, showSymbol: false,
      data: windows.map((w) => [w.window.start, w.categories[c] || 0]),
    })),
  }, true);
}

function renderBars(v) {
  const entries = Object.entries(v.addresses);
  const total = v.crossBytes || 1;
  const ordered = [...entries].reverse(); // largest at the top of a horizontal bar chart
  const box = byId('traffic-bars');
  box.style.height = Math.max(8, 2.2 * ordered.length + 3) + 'rem';
  chart(box).resize();
  chart(box).setOption({
    animation: false,
    tooltip: {trigger: 'axis', axisPointer: {type: 'shadow'}, valueFormatter: (x) => x + '%'},
    grid: {left: 8, right: 40, top: 10, bottom: 30, containLabel: true},
    xAxis: {type: 'value', max: 100, ...axisStyle(), axisLabel: {color: TEXT, formatter: '{value}%'}},
    yAxis: {type: 'category', ...axisStyle(), data: ordered.map(([a]) => addressLabel(a))},
    series: [{type: 'bar', name: 'share of cross-site bytes', barMaxWidth: 28, itemStyle: {color: '#5e81ac'},
      label: {show: true, position: 'right', color: TEXT, formatter: '{c}%'},
      data: ordered.map(([, b]) => Number((b * 100 / total).toFixed(2)))}],
  }, true);
  const body = byId('traffic-addresses').tBodies[0];
  fill(body, ...entries.map(([a, b]) => {
    const h = hosts.get(a);
    return row([h ? h.name : '', h ? h.role : '', a, [bytesExact(b), 'num'], [percent(b / total), 'num']]);
  }));
}

