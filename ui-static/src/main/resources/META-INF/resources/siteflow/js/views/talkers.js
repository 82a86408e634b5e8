// Top talkers like iftop: host pairs per category (or port pairs) with 2 s / 10 s / 40 s rates (bits/s unless
// bytes/s is asked), cumulative and peak, sortable by any column, filtered by category on the server and by text
// here. A host pair with several categories is one row per category, the category a coloured label.
import {el, fill, byId, row} from '../dom.js';
import {rate, rateUnit, bytes, age, CATEGORIES, CATEGORY_COLOURS} from '../format.js';
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

/** Redraws with the rate unit now chosen. */
export function redrawTalkers() {
  draw();
}

/** The age of the newest data of the rows shown, in ms (-1 without rows). */
export function newestAge() {
  return rows.length ? Math.min(...rows.map((r) => r.ageMs)) : -1;
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
  const newest = newestAge();
  byId('talkers-caption').textContent = `Rates in ${rateUnit()} over the last 2, 10 and 40 s of the flow records' `
    + 'time (a record\'s bytes spread over its start..end); ' + (newest < 0 ? 'no data yet.'
    : `newest data ${age(newest)} old${newest > 12000 ? ': rates are falling as no record arrives' : ''}.`);
  for (const th of byId('talkers-table').tHead.rows[0].cells) {
    th.setAttribute('aria-sort', th.dataset.key === sortKey ? (descending ? 'descending' : 'ascending') : 'none');
  }
  fill(byId('talkers-table').tBodies[0], ...shown.map((r) => row([
    end(r.local, r.localPort), end(r.remote, r.remotePort),
    el('span', {class: 'cat', style: 'background:' + (CATEGORY_COLOURS[r.category] || '#757575')}, r.category),
    [rate(r.out2s), 'num'], [rate(r.out10s), 'num'], [rate(r.out40s), 'num'],
    [rate(r.in2s), 'num'], [rate(r.in10s), 'num'], [rate(r.in40s), 'num'],
    [bytes(r.outTotal + r.inTotal), 'num'], [rate(Math.max(r.outPeak, r.inPeak)), 'num'],
  ])));
}
