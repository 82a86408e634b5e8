// The RTT limit in force, as the API sends it: the stricter of Oracle's 10 ms support limit and the site model's
// rttLimitMs (/api/rules: rttLimitMicros, rttLimitSource; /api/links and /api/whatif carry it too). Nothing here
// restates a default: until /api/rules has answered, the views have no limit to draw.

let current = {micros: 0, source: ''};

/** Sets the limit of the site model in force (µs, "oracle" or "site-model"). */
export function setRttLimit(micros, source) {
  current = {micros, source};
}

/** The limit in force, µs (0 before /api/rules answered). */
export function rttLimitMicros() {
  return current.micros;
}

/** "10 ms", "7.5 ms": a limit in µs as milliseconds without trailing zeros. */
export function limitMs(micros = current.micros) {
  return String(Number((micros / 1000).toFixed(3))) + ' ms';
}

/** "Oracle's 10 ms support limit" or "the site model's 5 ms limit (rttLimitMs)". */
export function limitName(micros = current.micros, source = current.source) {
  return source === 'site-model' ? `the site model's ${limitMs(micros)} limit (rttLimitMs)`
    : `Oracle's ${limitMs(micros)} support limit`;
}
