// The operator console: polls the gateway's /console/api endpoints every second and shows what they answer.
import { get, headers, setToken, clearToken, Unauthorized, Disconnected } from './api.js';
import { el, cell, replaceRows, duration, ms, clock } from './dom.js';
import { draw } from './chart.js';
import { measured } from './work.js';

// Pods are read four times a second (a restart's short window shows); the other views every second.
const POLL_MS = 250;
const SLOW = 4;
const MAX_EVENTS = 200;
// While the gateway cannot be reached, the page tries again after 250 ms, then twice as long each time, up to 2 s.
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 2000;
const state = { view: 'pods', me: null, selectedPod: null, openErrors: new Set(), callFilter: {}, older: [],
  nextBefore: null, ticks: 0, waitingForToken: false, busy: false, events: null, podsShown: null,
  retryMs: 0, retryTimer: null };

const $ = id => document.getElementById(id);

function show(view) {
  state.view = view;
  for (const button of document.querySelectorAll('#tabs button')) {
    if (button.dataset.view === view) button.setAttribute('aria-current', 'page'); else button.removeAttribute('aria-current');
  }
  for (const section of document.querySelectorAll('.view')) section.hidden = section.id !== 'view-' + view;
  if (view !== 'events') stopEvents();
  if (view === 'calls') { state.older = []; state.nextBefore = null; }
  state.viewChanged = true;
  tick();
}

function askToken(message) {
  state.waitingForToken = true;
  stopEvents();
  $('login').hidden = false;
  document.querySelector('main').hidden = true;
  $('login-message').textContent = message;
  $('token').value = '';
  $('token').focus();
}

function connected(ok) {
  $('banner').hidden = ok;
  document.body.dataset.connected = ok ? 'yes' : 'no';
}

async function tick() {
  if (state.waitingForToken || state.busy || state.retryTimer) return;
  state.busy = true;
  try {
    if (!state.me) {
      state.me = await get('/console/api/me');
      $('who').textContent = state.me.principal + (state.me.profiles.length ? ' (' + state.me.profiles.join(', ') + ')' : '');
    }
    const pods = await get('/console/api/pods');
    renderPods(pods.pods);
    const slow = state.ticks % SLOW === 0 || state.viewChanged;
    state.viewChanged = false;
    if (state.view === 'tools' && slow) renderTools((await get('/console/api/tools')).tools);
    if (state.view === 'calls' && slow) await refreshCalls();
    if (state.view === 'replicas' && slow) renderReplicas(await get('/console/api/replicas'));
    if (state.view === 'events') startEvents();
    if (state.selectedPod && state.view === 'pods' && state.ticks % (SLOW * 5) === 0) await refreshChart();
    state.ticks++;
    state.retryMs = 0;
    connected(true);
  } catch (e) {
    if (e instanceof Unauthorized) {
      state.me = null;
      if (e.hadToken) {
        clearToken();
        askToken('The gateway refused that token. Enter a valid token.');
      } else {
        askToken('The gateway needs a token.');
      }
    } else if (e instanceof Disconnected) {
      state.me = null;
      state.podsShown = null;
      connected(false);
      retryLater();
    } else {
      $('who').textContent = String(e.message);
    }
  } finally {
    state.busy = false;
  }
}

// The next attempt to reach a gateway that did not answer; the regular polling waits for it.
function retryLater() {
  state.retryMs = state.retryMs ? Math.min(state.retryMs * 2, RETRY_MAX_MS) : RETRY_FIRST_MS;
  state.retryTimer = setTimeout(() => {
    state.retryTimer = null;
    tick();
  }, state.retryMs);
}

// Pods are redrawn only when what the gateway answered changed. An open stderr tail stays open: which tails are open
// is read from the rows about to be replaced (a click opens a tail at once, its toggle event comes later).
function renderPods(pods) {
  const shown = JSON.stringify(pods);
  if (shown === state.podsShown) return;
  state.podsShown = shown;
  measured('pods', () => {
    const body = $('pods').tBodies[0];
    for (const row of body.rows) {
      const details = row.querySelector('td.error details');
      if (details?.open) state.openErrors.add(row.dataset.pod); else if (details) state.openErrors.delete(row.dataset.pod);
    }
    replaceRows(body, pods.map(podRow));
  });
}

function podRow(pod) {
  const row = el('tr', null, 'pod');
  row.dataset.pod = pod.name;
  row.dataset.state = pod.state;
  cell(row, 'Pod', pod.name, 'name');
  cell(row, 'State', pod.state, 'state state-' + pod.state);
  cell(row, 'PID', pod.pid, 'pid');
  cell(row, 'Uptime', duration(pod.uptimeSeconds));
  cell(row, 'Restarts', pod.restarts, 'restarts');
  cell(row, 'Served', pod.callsServed, 'served');
  cell(row, 'Failed', pod.callsFailed, 'failed');
  cell(row, 'p50', ms(pod.p50Ms));
  cell(row, 'p95', ms(pod.p95Ms));
  cell(row, 'Era', pod.era || '');
  const error = cell(row, 'Last error', '', 'error');
  if (pod.lastError || pod.stderrTail) {
    const details = el('details');
    details.open = state.openErrors.has(pod.name);
    details.appendChild(el('summary', pod.lastError || 'stderr'));
    details.appendChild(el('pre', pod.stderrTail, 'stderr'));
    error.appendChild(details);
  }
  return row;
}

function selectPod(event) {
  const row = event.target.closest('tr[data-pod]');
  if (!row || event.target.closest('details')) return;
  state.selectedPod = row.dataset.pod;
  refreshChart();
}

async function refreshChart() {
  const pod = state.selectedPod;
  if (!pod) return;
  try {
    const series = await get('/console/api/latency?pod=' + encodeURIComponent(pod));
    $('pod-detail').hidden = false;
    $('chart-title').textContent = 'Latency of ' + pod + ' over the last hour';
    measured('chart', () => draw($('chart'), series.minutes));
  } catch (e) {
    $('pod-detail').hidden = true;
  }
}

function renderTools(tools) {
  measured('tools', () => replaceRows($('tools').tBodies[0], tools.map(toolRow)));
}

function toolRow(tool) {
  const row = el('tr', null, 'tool');
  row.dataset.tool = tool.name;
  cell(row, 'Tool', tool.name, 'name');
  cell(row, 'Pod', tool.pod);
  cell(row, 'Description', tool.description, 'description');
  cell(row, 'Contract', tool.contract ? tool.contract.id + ' ' + tool.contract.version : '');
  cell(row, 'Schema hash', tool.schemaHash, 'hash');
  cell(row, 'Definition hash', tool.definitionHash, 'hash');
  cell(row, 'Drift', tool.drift || (tool.pin ? 'pinned' : ''), tool.drift ? 'drift-' + tool.drift : '');
  cell(row, 'Profiles', tool.profiles.join(', '));
  return row;
}

function callQuery(before) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state.callFilter)) if (value) params.set(key, value);
  if (before) params.set('before', before);
  return '/console/api/calls?' + params.toString();
}

async function refreshCalls() {
  const page = await get(callQuery(null));
  $('calls-note').textContent = page.audited ? '' : 'Calls are not audited: start the gateway with an event log (--state-dir).';
  if (state.older.length === 0) state.nextBefore = page.before;
  renderCalls(page.calls.concat(state.older));
}

async function olderCalls() {
  if (!state.nextBefore) return;
  const page = await get(callQuery(state.nextBefore));
  state.older = state.older.concat(page.calls);
  state.nextBefore = page.before;
  await refreshCalls();
}

function renderCalls(calls) {
  measured('calls', () => replaceRows($('calls').tBodies[0], callRows(calls)));
  $('older').hidden = !state.nextBefore;
}

function callRows(calls) {
  const seen = new Set();
  const rows = [];
  for (const call of calls) {
    if (seen.has(call.seq)) continue;
    seen.add(call.seq);
    const row = el('tr', null, 'call');
    row.dataset.callId = call.callId || '';
    row.dataset.outcome = call.outcome || '';
    cell(row, 'Time', clock(call.timeMs));
    cell(row, 'Principal', call.principal);
    cell(row, 'Tool', call.tool, 'tool');
    cell(row, 'Outcome', call.outcome + (call.errorCode !== null ? ' (' + call.errorCode + ')' : ''), 'outcome outcome-' + call.outcome);
    cell(row, 'Duration', ms(call.durationMs));
    cell(row, 'Trace id', call.traceId, 'trace');
    rows.push(row);
  }
  return rows;
}

function renderReplicas(body) {
  $('replicas-note').textContent = body.replicas.length ? '' : 'A single gateway (no shared database): ' + body.self;
  measured('replicas', () => replaceRows($('replicas').tBodies[0], body.replicas.map(r => {
    const row = el('tr', null, 'replica');
    cell(row, 'Replica', r.id + (r.self ? ' (this one)' : ''));
    cell(row, 'URL', r.url);
    cell(row, 'Heartbeat age', (r.heartbeatAgeMs / 1000).toFixed(1) + ' s');
    return row;
  })));
}

function stopEvents() {
  if (state.events) { state.events.abort(); state.events = null; }
}

function startEvents() {
  if (state.events) return;
  if (!state.me || !state.me.events) {
    $('events-note').textContent = state.me && !state.me.audited ? 'The gateway keeps no event log.' : 'The event stream is for admin principals only.';
    return;
  }
  $('events-note').textContent = '';
  const controller = new AbortController();
  state.events = controller;
  const params = new URLSearchParams();
  for (const [key, value] of new FormData($('event-filters'))) if (value) params.set(key, value);
  // The last five minutes, then what comes: not the whole log's history.
  params.set('from_ms', String(Date.now() - 5 * 60 * 1000));
  readStream('/meta/events/stream?' + params.toString(), controller).catch(() => {}).finally(() => {
    if (state.events === controller) state.events = null;
  });
}

async function readStream(url, controller) {
  const response = await fetch(url, { headers: headers(), signal: controller.signal, cache: 'no-store', credentials: 'omit' });
  if (!response.ok || !response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer = measured('stream', () => queueBlocks(buffer + value));
  }
}

// Queues each complete server-sent event of `text`; returns the incomplete rest.
function queueBlocks(text) {
  let start = 0;
  let end;
  while ((end = text.indexOf('\n\n', start)) >= 0) {
    const data = text.slice(start, end).split('\n').filter(line => line.startsWith('data:')).map(line => line.slice(5).trim()).join('\n');
    if (data) queueEvent(data);
    start = end + 2;
  }
  return text.slice(start);
}

// Events arriving between two frames are shown together, in one change of the list, once per frame. The list
// holds at most MAX_EVENTS items: once full, its oldest items are reused for the newest events. An item is one
// line until clicked, in a list without numbers (numbers would change on every item at each addition: a layout of all).
const pendingEvents = [];
let flushScheduled = false;

function queueEvent(data) {
  pendingEvents.push(data);
  if (pendingEvents.length > MAX_EVENTS) pendingEvents.splice(0, pendingEvents.length - MAX_EVENTS);
  if (!flushScheduled) {
    flushScheduled = true;
    requestAnimationFrame(flushEvents);
  }
}

function flushEvents() {
  flushScheduled = false;
  measured('events', () => {
    const list = $('events');
    const fragment = document.createDocumentFragment();
    for (let i = pendingEvents.length - 1; i >= 0; i--) {
      const full = list.childElementCount + fragment.childElementCount >= MAX_EVENTS;
      const item = full ? list.lastElementChild : document.createElement('li');
      item.className = '';
      item.textContent = eventText(pendingEvents[i]);
      fragment.appendChild(item);
    }
    pendingEvents.length = 0;
    list.prepend(fragment);
    // The list's style and layout, once, here rather than in the frame's rendering: counted as this part's work.
    void list.offsetHeight;
  });
}

function eventText(data) {
  let text = data;
  try {
    const envelope = JSON.parse(data);
    const event = envelope.event || {};
    text = clock(envelope.timestampMs || envelope.timestamp_ms || Date.now()) + ' '
      + (event.module || event.agentId || event.agent_id || envelope.source || '') + ' '
      + (event.eventType || event.event_type || '') + ' ' + JSON.stringify(event.payload ?? '');
  } catch (e) {
    // shown as it came
  }
  return text;
}

function init() {
  for (const button of document.querySelectorAll('#tabs button')) button.addEventListener('click', () => show(button.dataset.view));
  $('pods').tBodies[0].addEventListener('click', selectPod);
  $('events').addEventListener('click', event => event.target.closest('li')?.classList.toggle('open'));
  $('login-form').addEventListener('submit', event => {
    event.preventDefault();
    const value = $('token').value.trim();
    $('token').value = '';
    if (!value) return;
    setToken(value);
    state.waitingForToken = false;
    $('login').hidden = true;
    document.querySelector('main').hidden = false;
    tick();
  });
  $('call-filters').addEventListener('submit', event => {
    event.preventDefault();
    state.callFilter = Object.fromEntries(new FormData($('call-filters')));
    state.older = [];
    state.nextBefore = null;
    state.viewChanged = true;
    tick();
  });
  $('event-filters').addEventListener('submit', event => {
    event.preventDefault();
    $('events').replaceChildren();
    pendingEvents.length = 0;
    stopEvents();
    tick();
  });
  $('older').addEventListener('click', () => olderCalls().catch(() => {}));
  const hash = location.hash.slice(1);
  show(['pods', 'tools', 'calls', 'events', 'replicas'].includes(hash) ? hash : 'pods');
  setInterval(tick, POLL_MS);
}

init();
