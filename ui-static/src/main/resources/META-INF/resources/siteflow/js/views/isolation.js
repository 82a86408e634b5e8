// Isolation: the site model's isolation policy against the traffic of a period (/api/isolation, docs/API.md
// "Isolation"): the group × group matrix (state as a word and a colour, violating bytes in the cell), each violating
// edge with its evidence and the nearest allow rule's failed conditions, the hosts whose RTT contradicts their site
// (MODEL_SUSPECT), the observers that make pairs UNVERIFIED, and a proposed isolation: block for the same period.
import {el, fill, byId} from '../dom.js';
import {count, micros} from '../format.js';
import {get, getText, href} from '../api.js';
import {hostName} from './traffic.js';

/** The API's period when none is given: everything retained (from 0 to the end of 9999). */
const ALL = {from: 0, to: Date.UTC(9999, 11, 31, 23, 59, 59, 999)};
const PERIODS = {all: 0, '1h': 3600_000, '24h': 86400_000, '7d': 7 * 86400_000};
const STATE_TEXT = {ISOLATED: 'isolated', NOT_ISOLATED: 'not isolated', UNVERIFIED: 'unverified'};
const PROTOS = {1: 'icmp', 6: 'tcp', 17: 'udp', 58: 'icmpv6', 132: 'sctp'};

const form = () => byId('isolation-form');

/** The period the form asks for: {} for everything the processor retains, else {from, to} ending now. */
function period(now = Date.now()) {
  const span = PERIODS[form().period.value];
  return span ? {from: now - span, to: now} : {};
}

/** epoch ms -> "2026-12-03T08:33:03.120Z" (UTC, milliseconds only when there are some, as java.time.Instant prints) */
export function utc(ms) {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function protoName(p) {
  return typeof p === 'number' ? PROTOS[p] || 'proto ' + p : String(p);
}

function named(address) {
  const n = hostName(address);
  return n === address ? address : `${n} ${address}`;
}

/** The edge as an auditor reads it: "wls4 10.2.0.21 → db1 10.1.0.10:1521 tcp". */
function edgeText(v) {
  return `${named(v.client)} → ${named(v.server)}:${v.serverPort} ${protoName(v.proto)}`;
}

function groups(list) {
  return list.length ? list.join(', ') : '–';
}

/** The pairs as a table: a row per initiator group, a column per responder group, in the report's order. */
function renderMatrix(pairs) {
  const names = [];
  for (const p of pairs) {
    if (!names.includes(p.from)) names.push(p.from);
    if (!names.includes(p.to)) names.push(p.to);
  }
  const cell = new Map(pairs.map((p) => [p.from + '\u0000' + p.to, p]));
  const table = byId('isolation-matrix');
  fill(table.tHead, el('tr', {}, el('th', {scope: 'col'}, 'from ↓ to →'),
    ...names.map((n) => el('th', {scope: 'col'}, n))));
  fill(table.tBodies[0], ...names.map((from) => el('tr', {}, el('th', {scope: 'row'}, from),
    ...names.map((to) => {
      const p = cell.get(from + '\u0000' + to);
      if (!p) return el('td', {class: 'state none'}, '–');
      return el('td', {class: 'state ' + p.state, dataset: {from, to, state: p.state},
        title: `${from} → ${to}: ${STATE_TEXT[p.state]}`},
      el('span', {class: 'word'}, STATE_TEXT[p.state]),
      p.violatingBytes ? el('span', {class: 'bytes'}, count(p.violatingBytes) + ' B') : null);
    }))));
}

function field(label, name, value) {
  return el('div', {}, el('dt', {}, label), el('dd', {dataset: {field: name}}, value));
}

function renderViolation(v) {
  const na = v.nearestAllow;
  return el('article', {class: 'violation ' + v.decision, dataset: {edge: `${v.client}|${v.server}|${v.serverPort}|${v.proto}`}},
    el('h3', {},
      el('span', {class: 'badge ' + v.decision, dataset: {field: 'decision'}}, v.decision), ' ',
      el('span', {class: 'rule', dataset: {field: 'rule'}}, v.rule || 'no rule'), ' ',
      el('span', {class: 'edge', dataset: {field: 'edge'}}, edgeText(v))),
    el('dl', {class: 'evidence'},
      field('sites', 'sites', `${v.clientSite} → ${v.serverSite}`),
      field('groups', 'groups', `${groups(v.fromGroups)} → ${groups(v.toGroups)}`),
      field('category', 'category', v.category),
      field('L7', 'l7', v.l7),
      field('bytes', 'bytes', count(v.bytes) + ' B'),
      field('packets', 'packets', count(v.packets)),
      field('flows', 'flows', count(v.flows)),
      field('first seen', 'firstSeen', el('time', {datetime: utc(v.firstSeenMs)}, utc(v.firstSeenMs))),
      field('last seen', 'lastSeen', el('time', {datetime: utc(v.lastSeenMs)}, utc(v.lastSeenMs)))),
    na
      ? el('div', {class: 'nearest'},
        el('p', {}, 'Nearest allow rule ', el('code', {dataset: {field: 'nearestAllow'}}, na.rule), ' fails:'),
        el('ul', {class: 'failed'}, ...na.failed.map((f) => el('li', {}, f))))
      : el('p', {class: 'nearest muted'}, 'The policy has no allow rule.'));
}

function renderSuspects(list) {
  fill(byId('isolation-suspects'), ...list.map((s) => el('li', {dataset: {address: s.address}},
    el('span', {class: 'badge INSUFFICIENT'}, 'MODEL_SUSPECT'), ' ',
    el('span', {class: 'message'}, s.message), ' ',
    el('span', {class: 'muted figures'}, `(${named(s.address)} in ${s.site}, peers in ${s.peerSite}: min handshake RTT `
      + `${micros(s.minRttMicros)}, reference ${micros(s.referenceMicros)})`))));
  if (!list.length) byId('isolation-suspects').append(el('li', {class: 'empty'}, 'No host contradicts its site.'));
}

function renderUnverified(list) {
  fill(byId('isolation-unverified'), ...list.map((u) => el('li', {dataset: {agent: u.agent}},
    el('span', {class: 'badge INSUFFICIENT'}, 'UNVERIFIED'), ' ',
    `agent ${u.agent}` + (u.host ? ` (host agent of ${named(u.host)})` : ' (edge agent: every pair)') + ': ',
    el('span', {class: 'reason'}, u.reason))));
  if (!list.length) byId('isolation-unverified').append(el('li', {class: 'empty'}, 'Every observer was heard in full.'));
}

function summary(r) {
  const bad = r.pairs.filter((p) => p.state === 'NOT_ISOLATED').length;
  const unverified = r.pairs.filter((p) => p.state === 'UNVERIFIED').length;
  const s = byId('isolation-summary');
  s.textContent = `${bad} of ${r.pairs.length} group pairs not isolated · ${unverified} unverified · `
    + `${r.violations.length} violating edges`;
  s.className = 'isolation-summary ' + (bad ? 'fail' : unverified ? 'insufficient' : 'pass');
  byId('isolation-policy').textContent = r.policy;
  byId('isolation-model').textContent = r.model;
  byId('isolation-period').textContent = r.from === ALL.from && r.to === ALL.to
    ? 'everything the processor retains' : `${utc(r.from)} to ${utc(r.to)}`;
}

/** Shows the report of the period the form asks for; a report the API cannot give is said in its place. */
export async function renderIsolation() {
  const body = byId('isolation-body');
  const status = byId('isolation-status');
  const p = period();
  let r;
  try {
    r = await get('isolation', p);
  } catch (err) {
    // a report shown stays while the API cannot answer for a while (503: start-up, a moving owner); a model
    // without a policy (404) has none to show
    status.hidden = false;
    status.textContent = err.message;
    if (err.status === 404 || !body.dataset.shown) {
      body.hidden = true;
      delete body.dataset.shown;
    }
    return;
  }
  body.dataset.shown = 'true';
  status.hidden = true;
  body.hidden = false;
  summary(r);
  renderMatrix(r.pairs);
  fill(byId('isolation-violations'), ...r.violations.map(renderViolation));
  if (!r.violations.length) byId('isolation-violations').append(el('p', {class: 'empty'}, 'No violation in the period.'));
  renderSuspects(r.modelSuspects || []);
  renderUnverified(r.unverified || []);
  byId('isolation-csv').href = href('isolation/report', {from: r.from, to: r.to, format: 'csv'});
}

async function propose() {
  const out = byId('isolation-proposal');
  const f = form();
  out.hidden = false;
  delete out.dataset.done;
  byId('isolation-copy').hidden = true;
  byId('isolation-copy').textContent = 'Copy';
  out.textContent = 'proposing…';
  try {
    out.textContent = await getText('isolation/propose', {...period(), minFlows: f.minFlows.value});
    byId('isolation-copy').hidden = false;
  } catch (err) {
    out.textContent = err.message;
  }
  out.dataset.done = 'true';
}

export function initIsolation(onError) {
  const f = form();
  f.addEventListener('submit', (e) => e.preventDefault());
  f.period.addEventListener('change', () => renderIsolation().catch(onError));
  byId('isolation-propose').addEventListener('click', () => propose().catch(onError));
  byId('isolation-copy').addEventListener('click', () => {
    navigator.clipboard.writeText(byId('isolation-proposal').textContent)
      .then(() => { byId('isolation-copy').textContent = 'Copied'; })
      .catch((err) => { byId('isolation-copy').textContent = 'Copy failed: ' + err.message; });
  });
}
