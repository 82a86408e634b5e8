// Top talkers like iftop: host pairs (or port pairs) with 2 s / 10 s / 40 s rates, cumulative and peak,
// sortable by any column, filtered by category on the server and by text here.
import {el, fill, byId, row} from '../dom.js';
import {rate, bytes, CATEGORIES} from '../format.js';
import {get} from '../api.js';
import {hostName} from './traffic.js';

let rows = [];
let sortKey = 'out10s';
let descending = true;

const form = () => byId('talkers-form');

/** True when the form asks for what the event stream pushes (host pairs, all categories, 100 rows). */
export function defaultQuery() {
  const f = form();
  return !f.ports.checked && !f.category.value && f.limit.value === '100';
}

export function initTalkers(onChange) {
  const f = form();
  f.category.append(...CATEGORIES.map((c) => el('option', {value: c}, c)));
  f.addEventListener('change', onChange);
  f.text.addEventListener('input', draw);
  f.addEventListener('submit', (e) => e.preventDefault());
  for (const th of byId('talkers-table').tHead.rows[0].cells) {
    th.addEventListener('click', () => {
      descending = sortKey === th.dataset.key ? !descending : true;
      sortKey = th.dataset.key;
      draw();
    });
  }
}

export async function fetchTalkers() {
  const f = form();
  setTalkers(await get('talkers', {ports: f.ports.checked, category: f.category.value, limit: f.limit.value}));
}

export function setTalkers(list) {
  rows = list;
  draw();
}

function value(r, k) {
  if (k === 'total') return r.outTotal + r.inTotal;
  if (k === 'peak') return Math.max(r.outPeak, r.inPeak);
  return r[k];
}

function end(address, port) {
  const name = hostName(address);
  const shown = name === address ? address : `${name} (${address})`;
  return port ? shown + ':' + port : shown;
}

function draw() {
  const text = form().text.value.trim().toLowerCase();
  const shown = rows.filter((r) => !text || [r.local, r.remote, hostName(r.local), hostName(r.remote)]
    .some((s) => s.toLowerCase().includes(text)));
  shown.sort((a, b) => {
    const x = value(a, sortKey);
    const y = value(b, sortKey);
    const c = typeof x === 'string' ? x.localeCompare(y) : x - y;
    return descending ? -c : c;
  });
  for (const th of byId('talkers-table').tHead.rows[0].cells) {
    th.setAttribute('aria-sort', th.dataset.key === sortKey ? (descending ? 'descending' : 'ascending') : 'none');
  }
  fill(byId('talkers-table').tBodies[0], ...shown.map((r) => row([
    end(r.local, r.localPort), end(r.remote, r.remotePort), r.category,
    [rate(r.out2s), 'num'], [rate(r.out10s), 'num'], [rate(r.out40s), 'num'],
    [rate(r.in2s), 'num'], [rate(r.in10s), 'num'], [rate(r.in40s), 'num'],
    [bytes(r.outTotal + r.inTotal), 'num'], [rate(Math.max(r.outPeak, r.inPeak)), 'num'],
  ])));
}
