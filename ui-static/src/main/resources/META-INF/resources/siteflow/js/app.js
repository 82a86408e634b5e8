// The dashboard: loads every view once, then follows /api/events (server-sent events) for changes. With ?live=0
// it renders once from the API and stops (no event stream, no timers): a page that headless Chromium's
// --screenshot --virtual-time-budget can capture and a browser can print. <body data-ready="true"> once the
// first data is on the page; data-rendered="true" once the view shown has drawn its charts too.
import {byId} from './dom.js';
import {age, setByteRates} from './format.js';
import {get, subscribe} from './api.js';
import {resizeAll} from './charts.js';
import {renderVerdicts, renderTrends, setMinCrossBytes} from './views/verdicts.js';
import {setHosts, setVerdicts, renderTraffic, initTraffic} from './views/traffic.js';
import {renderLinks, loadLinkHistory, loadBandwidthHistory} from './views/links.js';
import {setRttLimit} from './limit.js';
import {initTalkers, fetchTalkers, setTalkers, defaultQuery, redrawTalkers} from './views/talkers.js';
import {setDbHosts, setDbVerdicts, renderDbLatency, initDbLatency} from './views/dblatency.js';
import {renderAgents, renderAlerts, renderAlertSettings, renderRules, initExplain} from './views/status.js';
import {initIsolation, renderIsolation} from './views/isolation.js';

// A view is a <section id="view-NAME"> in index.html, a tab, a module in js/views and its name here.

const VIEWS = ['verdicts', 'traffic', 'links', 'talkers', 'dblatency', 'isolation', 'agents', 'alerts', 'rules'];
/** How often the isolation view asks /api/isolation again while it is shown (it is not on the event stream). */
const ISOLATION_POLL_MS = 10_000;
/** The DB latency view asks its what-if again this often while shown (the what-if stage's stores follow the audit's). */
const DB_LATENCY_POLL_MS = 5_000;
let current = '';
let isolationTimer = 0;
let dbLatencyTimer = 0;
let rulesVersion = '';
let talkersTimer = 0;
let links = [];
let verdicts = null;
/** False for ?live=0: one rendering from the API, then nothing more is asked. */
const LIVE = new URLSearchParams(location.search).get('live') !== '0';

function show() {
  const name = VIEWS.includes(location.hash.slice(1)) ? location.hash.slice(1) : 'verdicts';
  current = name;
  for (const v of VIEWS) byId('view-' + v).hidden = v !== name;
  for (const a of document.querySelectorAll('nav.tabs a')) {
    a.classList.toggle('active', a.getAttribute('href') === '#' + name);
  }
  requestAnimationFrame(resizeAll);
  clearInterval(isolationTimer);
  if (LIVE && name === 'isolation') isolationTimer = setInterval(() => renderIsolation().catch(failed), ISOLATION_POLL_MS);
  clearInterval(dbLatencyTimer);
  if (LIVE && name === 'dblatency') dbLatencyTimer = setInterval(() => renderDbLatency().catch(failed), DB_LATENCY_POLL_MS);
  return drawView(name).catch(failed);
}

/** What a view fetches when it is shown (the others render from the data already on the page). */
async function drawView(name) {
  if (name === 'traffic') await renderTraffic();
  if (name === 'links') await loadLinkHistory(true);
  if (name === 'dblatency') await renderDbLatency();
  if (name === 'isolation') await renderIsolation();
}

function failed(err) {
  byId('summary').textContent = 'API error: ' + err.message;
  byId('summary').className = 'summary fail';
}

async function loadTrends() {
  const now = Date.now();
  renderTrends(await get('trend', {from: now - 3600_000, to: now + 60_000}));
}

async function loadRules(version) {
  if (version === rulesVersion) return;
  const [rules, hosts] = await Promise.all([get('rules'), get('hosts')]);
  setRules(rules);
  setHosts(hosts);
  setDbHosts(hosts);
}

function setRules(rules) {
  rulesVersion = rules.version;
  setRttLimit(rules.rttLimitMicros, rules.rttLimitSource);
  if (verdicts) renderVerdicts(verdicts);
  setMinCrossBytes(rules.minCrossBytes);
  renderRules(rules);
}

/** How old the newest flow data is (the links' youngest talker record), in the header. */
function renderFreshness() {
  const ages = links.map((l) => l.ageMs).filter((a) => a >= 0);
  const f = byId('freshness');
  if (!ages.length) {
    f.textContent = 'no flow data yet';
    f.className = 'freshness stale';
    return;
  }
  const newest = Math.min(...ages);
  f.textContent = 'data ' + age(newest) + ' old';
  f.className = 'freshness' + (newest > 15000 ? ' stale' : '');
}

function onLinks(list) {
  links = list;
  renderLinks(list, current === 'links');
  renderFreshness();
}

function onUnit() {
  setByteRates(byId('unit-bytes').checked);
  redrawTalkers();
  renderLinks(links, current === 'links');
}

async function onAlerts(list) {
  renderAlerts(list);
  renderAlertSettings(await get('alert-settings'));
}

function onVerdicts(list) {
  verdicts = list;
  renderVerdicts(list);
  setVerdicts(list);
  setDbVerdicts(list);
  if (current === 'traffic') renderTraffic().catch(failed);
  if (current === 'dblatency') renderDbLatency().catch(failed);
}

function onTalkersForm() {
  clearInterval(talkersTimer);
  fetchTalkers().catch(failed);
  if (LIVE && !defaultQuery()) talkersTimer = setInterval(() => fetchTalkers().catch(failed), 2000);
}

/**
 * Every view's first data. While the processor is still starting or rebalancing the API answers 503: the page
 * says so and tries again every 2 s instead of staying empty.
 */
async function fetchAll() {
  for (;;) {
    try {
      return await Promise.all([
        get('rules'), get('hosts'), get('verdicts'), get('agents'), get('alerts'), get('links'), get('talkers'),
        get('alert-settings')]);
    } catch (err) {
      failed(err);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

async function start() {
  initTalkers(onTalkersForm);
  initExplain();
  initDbLatency(failed);
  initTraffic(failed);
  initIsolation(failed);
  byId('unit-bytes').addEventListener('change', onUnit);
  window.addEventListener('hashchange', show);
  const [rules, hosts, verdicts, agents, alerts, firstLinks, talkers, alertSettings] = await fetchAll();
  performance.mark('siteflow-fetched');
  setRules(rules);
  setHosts(hosts);
  setDbHosts(hosts);
  onVerdicts(verdicts);
  performance.mark('siteflow-verdicts');
  renderAgents(agents);
  renderAlerts(alerts);
  renderAlertSettings(alertSettings);
  performance.mark('siteflow-agents-alerts');
  onLinks(firstLinks);
  performance.mark('siteflow-links');
  setTalkers(talkers);
  performance.mark('siteflow-talkers');
  const drawn = show();
  performance.mark('siteflow-rendered');
  document.body.dataset.ready = 'true';
  await Promise.all([drawn, loadTrends().catch(failed), loadBandwidthHistory().catch(failed)]);
  if (current === 'links') renderLinks(links, true);
  document.body.dataset.rendered = 'true';
  if (!LIVE) {
    const live = byId('live');
    live.textContent = 'snapshot ' + new Date().toLocaleTimeString();
    live.title = 'rendered once from the API (?live=0): reload for newer data';
    return;
  }
  subscribe({
    rules: (r) => loadRules(r.version).catch(failed),
    verdicts: onVerdicts,
    latest: () => {
      loadTrends().catch(failed);
      loadLinkHistory(current === 'links').catch(failed);
    },
    agents: renderAgents,
    alerts: (a) => onAlerts(a).catch(failed),
    links: onLinks,
    talkers: (t) => defaultQuery() && setTalkers(t),
  }, (open) => {
    const live = byId('live');
    live.textContent = open ? 'live' : 'reconnecting…';
    live.className = 'live ' + (open ? 'on' : 'off');
    live.title = '';
  }, (name, data) => {
    const live = byId('live');
    if (data) {
      live.textContent = 'live · ' + name + ' unavailable';
      live.title = name + ': ' + (data.reason || data.error);
      live.dataset.view = name;
    } else if (live.dataset.view === name) {
      live.textContent = 'live';
      live.title = '';
      delete live.dataset.view;
    }
  });
}

start().catch(failed);
