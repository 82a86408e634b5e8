// Agents (last heartbeat, packets, drops, records waiting in the spool; silent ones marked), alerts (newest first,
// with the NEW_PEER baseline and the repeat interval), rules (the user's, then the built-in ones) and explain.
import {el, fill, byId, row} from '../dom.js';
import {ago, age, time, count} from '../format.js';
import {get} from '../api.js';
import {limitName} from '../limit.js';

export function renderAgents(agents) {
  fill(byId('agents-table').tBodies[0], ...agents.map((a) => row([
    a.agent, a.iface,
    el('span', {class: a.silent ? 'badge FAIL' : ''}, (a.silent ? 'silent · ' : '') + ago(a.lastSeenMs)),
    [count(a.received), 'num'], [count(a.droppedKernel), 'num'],
    [count(a.droppedInterface), 'num'], [count(a.decodeErrors), 'num'],
    [count(a.spooled), 'num'], [count(a.dropped), 'num'],
  ], {class: a.silent ? 'silent' : ''})));
}

const BADGES = {FAIL: 'FAIL', RTT: 'FAIL', CLEARED: 'CLEARED', NEW_PEER: 'INSUFFICIENT'};

/** The NEW_PEER baseline (and when it ends, in event time) and how often FAIL and RTT alerts repeat. */
export function renderAlertSettings(s, now = Date.now()) {
  const end = s.baselineEndMs;
  const baseline = end < 0
    ? `NEW_PEER: cross-site peers are learnt without alerts for ${age(s.baselineMs)} from the first flow record (none yet).`
    : end > now
      ? `NEW_PEER: learning cross-site peers until ${time(end)} (baseline of ${age(s.baselineMs)}, event time); no NEW_PEER alert before.`
      : `NEW_PEER: the baseline of ${age(s.baselineMs)} ended ${time(end)} (event time); a peer not seen in it raises an alert.`;
  byId('alert-settings').textContent = baseline + ` FAIL and RTT (p95 above ${limitName()}) alert when a pair enters the `
    + `state, again every ${age(s.repeatMs)} while it stays, and CLEARED when it leaves (siteflow process --baseline, --alert-repeat).`;
}

export function renderAlerts(alerts) {
  byId('alert-count').textContent = alerts.length ? String(alerts.length) : '';
  fill(byId('alerts-list'), ...alerts.map((a) => el('li', {class: 'alert ' + a.type},
    el('span', {class: 'badge ' + (BADGES[a.type] || 'INSUFFICIENT')}, a.type), ' ',
    el('time', {datetime: new Date(a.timeMs).toISOString()}, time(a.timeMs)), ' ',
    el('span', {class: 'key'}, a.key), ' ', el('span', {class: 'message'}, a.message))));
  if (!alerts.length) byId('alerts-list').append(el('li', {class: 'empty'}, 'No alert.'));
}

export function renderRules(rules) {
  byId('rules-version').textContent = 'rules ' + rules.version.slice(0, 19);
  byId('rules-sha').textContent = rules.version;
  byId('rules-since').textContent = time(rules.loadedMs);
  byId('rules-yaml').textContent = rules.yaml;
  const fmw = rules.defaults === 'FMW';
  byId('rules-defaults-title').textContent = fmw
    ? 'Then the built-in Oracle FMW rules (defaults: fmw), tried after yours'
    : 'No built-in rules (defaults: none): a flow no rule of yours matches is UNKNOWN';
  byId('rules-defaults').textContent = rules.defaultRules;
  byId('rules-defaults').hidden = !fmw;
}

export function initExplain() {
  const f = byId('explain-form');
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    const out = byId('explain-out');
    out.hidden = false;
    try {
      out.textContent = (await get('explain', {flow: f.flow.value})).explanation;
    } catch (err) {
      out.textContent = err.message;
    }
  });
}
