// Agents (last heartbeat, packets, drops, records waiting in the spool; silent ones marked), alerts (newest first), rules and explain.
import {el, fill, byId, row} from '../dom.js';
import {ago, time, count} from '../format.js';
import {get} from '../api.js';

export function renderAgents(agents) {
  fill(byId('agents-table').tBodies[0], ...agents.map((a) => row([
    a.agent, a.iface,
    el('span', {class: a.silent ? 'badge FAIL' : ''}, (a.silent ? 'silent · ' : '') + ago(a.lastSeenMs)),
    [count(a.received), 'num'], [count(a.droppedKernel), 'num'],
    [count(a.droppedInterface), 'num'], [count(a.decodeErrors), 'num'],
    [count(a.spooled), 'num'], [count(a.dropped), 'num'],
  ], {class: a.silent ? 'silent' : ''})));
}

export function renderAlerts(alerts) {
  byId('alert-count').textContent = alerts.length ? String(alerts.length) : '';
  fill(byId('alerts-list'), ...alerts.map((a) => el('li', {class: 'alert ' + a.type},
    el('span', {class: 'badge ' + (a.type === 'FAIL' ? 'FAIL' : 'INSUFFICIENT')}, a.type), ' ',
    el('time', {datetime: new Date(a.timeMs).toISOString()}, time(a.timeMs)), ' ',
    el('span', {class: 'key'}, a.key), ' ', el('span', {class: 'message'}, a.message))));
  if (!alerts.length) byId('alerts-list').append(el('li', {class: 'empty'}, 'No alert.'));
}

export function renderRules(rules) {
  byId('rules-version').textContent = 'rules ' + rules.version.slice(0, 19);
  byId('rules-sha').textContent = rules.version;
  byId('rules-since').textContent = time(rules.loadedMs);
  byId('rules-yaml').textContent = rules.yaml;
}

export function initExplain() {
  const f = byId('explain-form');
  f.addEventListener('submit', async (e) => {
    e.preventDefault();
    const out = byId('explain-out');
    try {
      out.textContent = (await get('explain', {flow: f.flow.value})).explanation;
    } catch (err) {
      out.textContent = err.message;
    }
  });
}
