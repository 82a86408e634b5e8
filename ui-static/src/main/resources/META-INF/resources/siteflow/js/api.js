// The JSON API and the event stream. A token given once as ?token=... is kept for the tab (sessionStorage)
// and sent as "Authorization: Bearer" (and as ?token= for EventSource, which cannot set headers).

const KEY = 'siteflow.token';

function takeTokenFromUrl() {
  const url = new URL(window.location.href);
  const t = url.searchParams.get('token');
  if (t) {
    sessionStorage.setItem(KEY, t);
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
}
takeTokenFromUrl();

export function token() {
  return sessionStorage.getItem(KEY) || '';
}

/** GET /api/<path> as JSON; throws Error("HTTP 401: ...") with its .status on failure. */
export async function get(path, params) {
  return (await fetchOk(path, params)).json();
}

/** GET /api/<path> as text (e.g. the proposed isolation: block); fails as get does. */
export async function getText(path, params) {
  return (await fetchOk(path, params)).text();
}

async function fetchOk(path, params) {
  const url = new URL('/api/' + path, window.location.origin);
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  }
  const headers = token() ? {Authorization: 'Bearer ' + token()} : {};
  const r = await fetch(url, {headers});
  if (!r.ok) {
    let msg = r.statusText;
    try { msg = (await r.json()).error || msg; } catch (e) { /* not JSON */ }
    const err = new Error('HTTP ' + r.status + ': ' + msg);
    err.status = r.status;
    throw err;
  }
  return r;
}

/** A URL of the API with the token in the query (for downloads and EventSource). */
export function href(path, params) {
  const url = new URL('/api/' + path, window.location.origin);
  for (const [k, v] of Object.entries(params || {})) url.searchParams.set(k, String(v));
  if (token()) url.searchParams.set('token', token());
  return url.toString();
}

/**
 * Opens /api/events; handlers: {eventName: data => ...}, plus onState(open: boolean) and onViewError(name, data)
 * for an event whose view could not answer (its data carries "error", docs/API.md "A view that cannot answer"):
 * that view's handler is not called, so it keeps what it showed; onViewError(name, null) when it answers again. The stream is closed when
 * the page is hidden (pagehide) and opened again if the page comes back from the back/forward cache: a page kept
 * in that cache would otherwise hold one of the browser's six HTTP/1.1 connections to the server.
 */
export function subscribe(handlers, onState, onViewError) {
  const open = () => {
    const es = new EventSource(href('events'));
    es.onopen = () => onState(true);
    es.onerror = () => onState(false);
    for (const [name, fn] of Object.entries(handlers)) {
      es.addEventListener(name, (e) => {
        const data = JSON.parse(e.data);
        if (data && !Array.isArray(data) && typeof data === 'object' && 'error' in data) {
          if (onViewError) onViewError(name, data);
        } else {
          if (onViewError) onViewError(name, null);
          fn(data);
        }
      });
    }
    return es;
  };
  let es = open();
  window.addEventListener('pagehide', () => es.close());
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) es = open();
  });
}
