// Number and time formats shared by the views.

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];

/** 21061551 -> "21.1 MB" (decimal units, as iftop -B shows them). */
export function bytes(n) {
  let v = Number(n) || 0;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < UNITS.length - 1) {
    v /= 1000;
    i++;
  }
  return (i === 0 ? v.toFixed(0) : v.toFixed(1)) + ' ' + UNITS[i];
}

const COUNT = new Intl.NumberFormat('en');

/** 1234567 -> "1,234,567" (one shared formatter: toLocaleString builds a new one per call) */
export function count(n) {
  return COUNT.format(n);
}

/** 21061551 -> "21,061,551 B (21.1 MB)": exact, with thousands separators and the unit. */
export function bytesExact(n) {
  const v = Number(n) || 0;
  return COUNT.format(v) + ' B' + (Math.abs(v) >= 1000 ? ' (' + bytes(v) + ')' : '');
}

const BIT_UNITS = ['b', 'kb', 'Mb', 'Gb', 'Tb', 'Pb'];
let byteRates = false;

/** Rates in bytes/s (true) or bits/s (false, the default, as iftop and every network tool show them). */
export function setByteRates(on) {
  byteRates = on;
}

export function byteRatesOn() {
  return byteRates;
}

/** 976562.5 bytes/s -> "7.81 Mb/s" (decimal units, two decimals from 1 kb/s, like iftop). */
export function bits(bytesPerSecond) {
  let v = (Number(bytesPerSecond) || 0) * 8;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < BIT_UNITS.length - 1) {
    v /= 1000;
    i++;
  }
  return (i === 0 ? v.toFixed(0) : v.toFixed(2)) + ' ' + BIT_UNITS[i] + '/s';
}

/** A rate given in bytes per second, shown in bits/s ("7.81 Mb/s") or, on request, bytes/s ("976.6 kB/s"). */
export function rate(n) {
  return byteRates ? bytes(n) + '/s' : bits(n);
}

/** The unit rates are shown in now: "bits/s" or "bytes/s". */
export function rateUnit() {
  return byteRates ? 'bytes/s' : 'bits/s';
}

/** Milliseconds of age -> "2 s", "3 min", "1 h" (whole hours from 1 h, else minutes up to 2 h). */
export function age(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600 && s % 3600 === 0) return s / 3600 + ' h';
  return ago(0, ms).replace(' ago', '');
}

/** 0.9312 -> "93.12%" (the share is already rounded down to 4 decimals by the server) */
export function percent(share) {
  return (Number(share) * 100).toFixed(2) + '%';
}

/** microseconds -> "6.50 ms" */
export function micros(us) {
  return us === undefined || us === null ? '–' : (us / 1000).toFixed(2) + ' ms';
}

/** epoch ms -> "45 s ago" */
export function ago(ms, now = Date.now()) {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 120) return s + ' s ago';
  if (s < 7200) return Math.round(s / 60) + ' min ago';
  return Math.round(s / 3600) + ' h ago';
}

/** epoch ms -> local "2026-11-29 22:14:53" */
export function time(ms) {
  const d = new Date(ms);
  const p = (x) => String(x).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

export const CATEGORIES = ['DB', 'CLUSTER', 'JMS', 'COHERENCE', 'FRONTEND', 'ADMIN', 'OTHER', 'UNKNOWN'];

/** One colour per category, the same in every chart. */
export const CATEGORY_COLOURS = {
  DB: '#2e7d32', CLUSTER: '#1565c0', JMS: '#6a1b9a', COHERENCE: '#00838f',
  FRONTEND: '#ef6c00', ADMIN: '#ad1457', OTHER: '#757575', UNKNOWN: '#c62828',
};
