// DB latency, per audited pair with DB calls: the figures of its verdict's dbCalls (calls/s, call time, the RTT's
// part, service time, connections), the call-time histogram (/api/dbcalls) with the RTT part shaded, the call time
// now beside the call time if the server were local to its database (service time: the one measured on the
// database's local servers, /api/dbsites, when it has some), and the what-if of moving it (/api/whatif).
import {el, fill, byId} from '../dom.js';
import {count, percent} from '../format.js';
import {get} from '../api.js';
import {chart, axisStyle, TEXT} from '../charts.js';
import {limitName} from '../limit.js';

const RTT_COLOUR = 'rgba(191, 97, 106, 0.35)';
const SERVICE_COLOUR = '#5e81ac';
let verdicts = [];
let sites = [];
let siteOf = new Map();
/**
 * The last what-if asked, asked again for another move or once it is 4 s old: the view re-renders on every verdicts
 * event and, while shown, every 5 s (app.js), which keeps up with the what-if stage's stores (a commit or two behind
 * the verdicts) without a request per event.
 */
let lastWhatIf = {key: '', at: 0, answer: null};
const WHATIF_MAX_AGE_MS = 4_000;

const pairKey = (v) => v.server + '|' + v.remoteSite;
const ms = (us) => (us / 1000).toFixed(3) + ' ms';

/** The sites of the model's hosts (the what-if's targets) and each host's site. */
export function setDbHosts(hosts) {
  siteOf = new Map(hosts.map((h) => [h.address, h.site]));
  sites = [...new Set(hosts.map((h) => h.site))].sort();
}

/** Keeps the server picker in step with the cumulative verdicts that have DB calls. */
export function setDbVerdicts(list) {
  verdicts = list.filter((v) => v.dbCalls && v.dbCalls.calls > 0);
  const sel = byId('db-server');
  const current = sel.value;
  fill(sel, ...verdicts.map((v) => el('option', {value: pairKey(v)}, `${v.name} (${v.server}) → ${v.remoteSite}`)));
  if (current && verdicts.some((v) => pairKey(v) === current)) sel.value = current;
}

function selected() {
  const key = byId('db-server').value;
  return verdicts.find((v) => pairKey(v) === key) || verdicts[0];
}

/** The target picker: every site but the server's own, the remote site of the pair first. */
function targets(v) {
  const sel = byId('db-target');
  const own = siteOf.get(v.server) || v.site;
  const keep = sel.dataset.server === v.server ? sel.value : '';
  const list = [v.remoteSite, ...sites.filter((s) => s !== v.remoteSite)].filter((s) => s && s !== own);
  fill(sel, ...[...new Set(list)].map((s) => el('option', {value: s}, s)));
  sel.dataset.server = v.server;
  if (keep && list.includes(keep)) sel.value = keep;
  return sel.value;
}

export async function renderDbLatency() {
  const v = selected();
  byId('db-empty').hidden = !!v;
  byId('db-body').hidden = !v;
  if (!v) return;
  const site = targets(v);
  renderFigures(v);
  const [histograms, whatIf, dbSites] = await Promise.all([get('dbcalls'), site ? whatIfOf(v.server, site) : null,
    get('dbsites')]);
  const now = selected();
  if (!now || pairKey(now) !== pairKey(v) || byId('db-target').value !== site) {
    return; // the pickers moved on while this answer was on its way: a newer render draws theirs
  }
  const h = histograms.find((x) => x.server === v.server && x.remoteSite === v.remoteSite);
  renderHistogram(v, h ? h.buckets : []);
  renderWhatIf(v, whatIf, whatIf ? localService(v, whatIf.toSite, dbSites) : null);
}

/**
 * The service time p50 (µs) measured on the local servers of a database the server calls in site toSite
 * (/api/dbsites), or null when that database has no local server with calls.
 */
function localService(v, toSite, dbSites) {
  const db = dbSites.find((d) => d.site === toSite && d.localServers > 0 && d.local.calls > 0
    && v.addresses && d.database in v.addresses);
  return db ? db.local.serviceMicros.p50 : null;
}

async function whatIfOf(server, site) {
  const key = server + '|' + site;
  if (lastWhatIf.key !== key || Date.now() - lastWhatIf.at > WHATIF_MAX_AGE_MS) {
    lastWhatIf = {key, at: Date.now(), answer: await get('whatif', {server, site})};
  }
  return lastWhatIf.answer;
}

/** A figure: <div><dt>label</dt><dd data-figure=key>value</dd></div>. */
function figure(key, label, value) {
  return el('div', {}, el('dt', {}, label), el('dd', {dataset: {figure: key}}, value));
}

function renderFigures(v) {
  const d = v.dbCalls;
  fill(byId('db-figures'),
    figure('callsPerSecond', 'calls/s', d.callsPerSecond.toFixed(2)),
    figure('calls', 'calls', count(d.calls)),
    figure('callP50', 'call time p50', ms(d.callMicros.p50)),
    figure('callP95', 'p95', ms(d.callMicros.p95)),
    figure('callP99', 'p99', ms(d.callMicros.p99)),
    figure('rtt', 'RTT (network part)', ms(d.rttMicros)),
    figure('networkShare', 'network share of p50', percent(d.networkShare)),
    figure('serviceP50', 'service p50', ms(d.serviceMicros.p50)),
    figure('connections', 'connections (median / max)', d.connections.median + ' / ' + d.connections.max));
}

/** Bars from each bucket's lower to upper bound (ms), the part below the RTT shaded. */
function renderHistogram(v, buckets) {
  const rtt = v.dbCalls.rttMicros / 1000;
  const top = buckets.length ? buckets[buckets.length - 1][1] / 1000 : rtt;
  chart(byId('db-histogram')).setOption({
    animation: false,
    tooltip: {formatter: (p) => `${p.value[0].toFixed(3)}–${p.value[1].toFixed(3)} ms: ${count(p.value[2])} calls`},
    grid: {left: 60, right: 40, top: 30, bottom: 40},
    xAxis: {type: 'value', name: 'call time, ms', nameLocation: 'middle', nameGap: 26, nameTextStyle: {color: TEXT}, min: 0, max: Math.ceil(top * 1.05 + 0.5),
      ...axisStyle()},
    yAxis: {type: 'value', name: 'calls per bucket', nameTextStyle: {color: TEXT, align: 'left'}, ...axisStyle()},
    series: [{
      name: 'calls', type: 'custom', itemStyle: {color: SERVICE_COLOUR},
      renderItem: (params, api) => {
        const from = api.coord([api.value(0), api.value(2)]);
        const to = api.coord([api.value(1), 0]);
        return {type: 'rect', shape: {x: from[0], y: from[1], width: Math.max(2, to[0] - from[0]),
          height: to[1] - from[1]}, style: api.style()};
      },
      encode: {x: [0, 1], y: 2},
      data: buckets.map((b) => [b[0] / 1000, b[1] / 1000, b[2]]),
      markArea: {silent: true, itemStyle: {color: RTT_COLOUR},
        label: {color: TEXT, position: 'insideTop', formatter: 'RTT ' + ms(v.dbCalls.rttMicros)},
        data: [[{xAxis: 0}, {xAxis: rtt}]]},
    }],
  }, true);
}

/**
 * Call time p50 now (RTT + service) beside the same calls if the server sat where the what-if moves it: the RTT
 * there, and the service time measured on that site's local servers when there is one (localService, µs),
 * else the server's own.
 */
function renderCompare(v, w, localService) {
  const d = v.dbCalls;
  const local = w ? d.rttMicros - w.dbCalls.rttSavedMicros : d.rttMicros;
  const service = localService !== null && localService !== undefined ? localService : d.serviceMicros.p50;
  const rows = [`now (${v.site} → ${v.remoteSite})`, w ? `moved to ${w.toSite}` : 'moved'];
  chart(byId('db-compare')).setOption({
    animation: false,
    tooltip: {trigger: 'axis', axisPointer: {type: 'shadow'}, valueFormatter: (x) => x.toFixed(3) + ' ms'},
    legend: {textStyle: {color: TEXT}},
    grid: {left: 8, right: 40, top: 40, bottom: 30, containLabel: true},
    xAxis: {type: 'value', name: 'ms', nameTextStyle: {color: TEXT}, ...axisStyle()},
    yAxis: {type: 'category', data: rows, ...axisStyle()},
    series: [
      {name: 'network (RTT)', type: 'bar', stack: 'p50', itemStyle: {color: '#bf616a'},
        data: [d.rttMicros / 1000, Math.max(0, local) / 1000]},
      {name: 'service', type: 'bar', stack: 'p50', itemStyle: {color: SERVICE_COLOUR},
        data: [d.serviceMicros.p50 / 1000, service / 1000]},
    ],
  }, true);
}

function renderWhatIf(v, w, localService) {
  renderCompare(v, w, localService);
  const box = byId('db-whatif');
  if (!w) {
    fill(box, el('p', {class: 'muted'}, 'no other site to move to'));
    return;
  }
  const saved = w.dbCalls.microsSavedPerSecond;
  byId('db-whatif-title').textContent = `What if ${w.server} (${w.address}) moved from ${w.fromSite} to ${w.toSite}`;
  fill(box,
    figure('crossBefore', 'cross-site bytes now', String(w.crossBytes.before)),
    figure('crossAfter', 'after', String(w.crossBytes.after)),
    figure('becomeLocal', 'flows becoming local', String(w.becomeLocal.flows)),
    figure('becomeRemote', 'flows becoming cross-site', String(w.becomeRemote.flows)),
    figure('stopPaying', 'calls stop paying RTT', String(w.dbCalls.stopPaying)),
    figure('startPaying', 'calls start paying RTT', String(w.dbCalls.startPaying)),
    figure('rttSaved', 'RTT difference', ms(w.dbCalls.rttSavedMicros)),
    figure('seconds', 'over', w.dbCalls.seconds + ' s'),
    figure('perSecond', 'time per second of work', ms(Math.abs(saved)) + (saved >= 0 ? ' saved' : ' added')));
  fill(byId('db-links'), ...w.links.map((l) => el('li', {},
    `${l.siteA} ↔ ${l.siteB}: ${ms(l.rttP50Micros)}, at most ${l.fibreKmAtMost} km of fibre`,
    l.aboveLimit ? el('strong', {class: 'above-limit'}, ' above ' + limitName(w.limitMicros, w.limitSource)) : null)));
  chart(byId('db-whatif-bytes')).setOption({
    animation: false,
    tooltip: {trigger: 'axis', axisPointer: {type: 'shadow'}, valueFormatter: (x) => count(x) + ' B'},
    grid: {left: 8, right: 60, top: 10, bottom: 30, containLabel: true},
    xAxis: {type: 'value', ...axisStyle()},
    yAxis: {type: 'category', data: ['after', 'now'], ...axisStyle()},
    series: [{name: 'cross-site bytes', type: 'bar', barMaxWidth: 28, itemStyle: {color: SERVICE_COLOUR},
      label: {show: true, position: 'right', color: TEXT, formatter: (p) => count(p.value)},
      data: [w.crossBytes.after, w.crossBytes.before]}],
  }, true);
}

/** Re-renders when the pickers change. */
export function initDbLatency(onError) {
  byId('db-server').addEventListener('change', () => renderDbLatency().catch(onError));
  byId('db-target').addEventListener('change', () => renderDbLatency().catch(onError));
}
