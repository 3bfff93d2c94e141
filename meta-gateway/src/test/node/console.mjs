// Drives the gateway's operator console in a headless Chromium (puppeteer-core, Debian's /usr/bin/chromium) while
// an MCP client calls the gateway, and prints one JSON object of what it saw. Usage: node console.mjs @script.json
// with {"base", "chromium", "shots", "opsToken", "guestToken", "echoTool", "hiddenTool", "gatewayPid", "stderrEnd",
// "driftTools"}. hiddenTool's pod writes a long stderr ending with stderrEnd when it starts; driftTools maps tool names
// to the drift ("block", "warn") the tools view should show for them. At the end it stops the gateway with SIGTERM,
// waits for the page to reconnect to the one the caller then starts on the same port without tokens, and opens the
// page afresh, without a token.
// One browser for the whole run; every check records its result rather than throwing, so that all are reported.
import puppeteer from 'puppeteer-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

const arg = process.argv[2];
const script = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg);
const out = { checks: {}, consoleErrors: [], cspViolations: [], timings: {}, screenshots: [] };
const TIMEOUT = 15000;
// A gateway started again takes a JVM's start, on a machine that may be busy.
const RESTART_TIMEOUT = 90000;

function watch(page, label) {
  page.on('console', (msg) => {
    const text = msg.text();
    if (msg.type() === 'error' && !(label === 'login' && /status of 401/.test(text))) out.consoleErrors.push(label + ': ' + text);
    if (/Content Security Policy/i.test(text)) out.cspViolations.push(label + ': ' + text);
  });
  page.on('pageerror', (e) => out.consoleErrors.push(label + ': ' + String(e)));
  return page.evaluateOnNewDocument(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  });
}

async function check(name, fn) {
  try {
    out.checks[name] = (await fn()) ?? true;
    process.stderr.write(name + ': ' + JSON.stringify(out.checks[name]) + '\n');
  } catch (e) {
    out.checks[name] = { failed: String(e.message ?? e) };
    process.stderr.write(name + ' failed: ' + String(e.message ?? e) + '\n');
  }
}

async function shot(page, name) {
  const path = script.shots + '/console-' + name + '.png';
  await page.screenshot({ path, fullPage: true });
  out.screenshots.push(path);
}

async function signIn(page, token) {
  await page.waitForSelector('#login:not([hidden])', { timeout: TIMEOUT });
  await page.type('#token', token);
  await page.click('#login-form button[type=submit]');
}

// Clicks an element of the pods table. The table is redrawn when a pod changes: an element found before a redraw is
// gone after it, so a click that found a detached element is tried again on the new one.
async function clickRedrawn(page, selector) {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.waitForSelector(selector, { timeout: TIMEOUT });
      await page.click(selector);
      return;
    } catch (e) {
      if (attempt >= 5 || !/detached/i.test(String(e.message ?? e))) throw e;
    }
  }
}

// Opens (or closes) a stderr tail as a reader does, by a click on its summary, unless it already shows so; the page
// keeps a tail open or closed across redraws.
async function toggleTail(page, tail, wanted) {
  await page.waitForSelector(tail, { timeout: TIMEOUT });
  if (await page.$eval(tail, (details) => details.open) === wanted) return;
  await clickRedrawn(page, tail + ' summary');
  await page.waitForSelector(tail + (wanted ? '[open]' : ':not([open])'), { timeout: TIMEOUT });
}

async function view(page, name) {
  await page.click('#tabs button[data-view="' + name + '"]');
  await page.waitForSelector('#view-' + name + ':not([hidden])', { timeout: TIMEOUT });
}

const cellsByLabel = (row) => Object.fromEntries([...row.cells].map((c) => [c.dataset.label, c.textContent]));
const podState = (pod, state) => 'tr[data-pod="' + pod + '"][data-state="' + state + '"]';

// When the gateway's own answer first shows `pod` in a state `matches` accepts (polled every 50 ms): the moment the
// page has to catch up with.
async function apiShows(pod, matches) {
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    const response = await fetch(script.base + '/console/api/pods', { headers: { Authorization: 'Bearer ' + script.opsToken } });
    const found = (await response.json()).pods.find((p) => p.name === pod);
    if (found && matches(found)) return Date.now();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the gateway did not show ' + pod + ' in the awaited state within ' + TIMEOUT + ' ms');
}

async function connectClient() {
  const c = new Client({ name: 'console-test', version: '1.0.0' }, { capabilities: {} });
  await c.connect(new StreamableHTTPClientTransport(new URL(script.base + '/mcp'),
    { requestInit: { headers: { Authorization: 'Bearer ' + script.opsToken } } }));
  return c;
}

// The page's own work per frame while events arrive: every "console <part>" measure the page records (its render
// functions and its reading of the stream) is summed over the frame interval it started in.
function workPerFrame(frameStarts, work) {
  const perFrame = new Array(frameStarts.length).fill(0);
  const parts = {};
  let frame = 0;
  for (const [part, start, duration] of work.sort((a, b) => a[1] - b[1])) {
    while (frame + 1 < frameStarts.length && frameStarts[frame + 1] <= start) frame++;
    perFrame[frame] += duration;
    parts[part] ??= { count: 0, maxMs: 0 };
    parts[part].count++;
    parts[part].maxMs = Math.max(parts[part].maxMs, Math.round(duration * 10) / 10);
  }
  return { maxPageWorkPerFrameMs: Math.round(Math.max(0, ...perFrame) * 10) / 10, parts };
}

// When the gateway started again first answers the console's API (polled every 50 ms).
async function back() {
  const deadline = Date.now() + RESTART_TIMEOUT;
  while (Date.now() < deadline) {
    const answered = await fetch(script.base + '/console/api/pods').then((r) => r.ok, () => false);
    if (answered) return Date.now();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the gateway did not answer again within ' + RESTART_TIMEOUT + ' ms');
}

let browser;
let client;
try {
  browser = await puppeteer.launch({
    executablePath: script.chromium, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await watch(page, 'login');
  const response = await page.goto(script.base + '/console', { waitUntil: 'load' });
  out.csp = response.headers()['content-security-policy'] ?? null;

  await check('tokenPrompt', async () => {
    await page.waitForSelector('#login:not([hidden])', { timeout: TIMEOUT });
    return page.$eval('#login-message', (e) => e.textContent);
  });
  await check('wrongToken', async () => {
    await signIn(page, 'not-the-token');
    await page.waitForFunction(() => /refused/.test(document.getElementById('login-message').textContent)
      && !document.getElementById('login').hidden, { timeout: TIMEOUT });
    const stored = await page.evaluate(() => Object.keys(sessionStorage).map((k) => sessionStorage.getItem(k)));
    await shot(page, 'login');
    return { message: await page.$eval('#login-message', (e) => e.textContent), stored };
  });
  page.removeAllListeners('console');
  page.removeAllListeners('pageerror');
  await watch(page, 'ops');
  await check('signedIn', async () => {
    await signIn(page, script.opsToken);
    await page.waitForSelector('#login[hidden]', { timeout: TIMEOUT });
    await page.waitForSelector('#pods tbody tr', { timeout: TIMEOUT });
    return { cookie: await page.evaluate(() => document.cookie), url: page.url() };
  });

  const pod = script.echoTool.split('__')[0];
  await check('idleBeforeCall', async () => {
    await page.waitForSelector(podState(pod, 'idle'), { timeout: TIMEOUT });
    return true;
  });
  client = await connectClient();

  await check('healthyAfterCall', async () => {
    const result = await client.callTool({ name: script.echoTool, arguments: { text: 'from the console test' } });
    const called = Date.now();
    await page.waitForSelector(podState(pod, 'healthy'), { timeout: TIMEOUT });
    out.timings.healthyShownMs = Date.now() - called;
    return { isError: result.isError ?? false, shownAfterMs: out.timings.healthyShownMs };
  });
  await shot(page, 'pods');

  await check('restartingThenHealthy', async () => {
    const pid = Number(await page.$eval(podState(pod, 'healthy') + ' td.pid', (e) => e.textContent));
    process.kill(pid, 'SIGKILL');
    const killed = Date.now();
    const apiHealthy = apiShows(pod, (p) => p.state === 'healthy' && p.pid !== pid);
    apiHealthy.catch(() => {});
    await page.waitForSelector(podState(pod, 'restarting'), { timeout: TIMEOUT, polling: 'mutation' });
    const restartingShownMs = Date.now() - killed;
    await page.waitForFunction((p, old) => {
      const row = document.querySelector('tr[data-pod="' + p + '"][data-state="healthy"]');
      return row && row.querySelector('td.pid').textContent !== String(old);
    }, { timeout: TIMEOUT, polling: 'mutation' }, pod, pid);
    const healthyShownMs = Date.now() - await apiHealthy;
    const restarts = await page.$eval('tr[data-pod="' + pod + '"] td.restarts', (e) => e.textContent);
    return { killedPid: pid, restarts: Number(restarts), restartingShownMs, healthyShownMs };
  });

  await check('chart', async () => {
    await clickRedrawn(page, 'tr[data-pod="' + pod + '"] td.name');
    await page.waitForSelector('#pod-detail:not([hidden])', { timeout: TIMEOUT });
    return page.$eval('#chart', (c) => c.width > 0 && c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some((v) => v !== 0));
  });

  await check('callInTable', async () => {
    await client.callTool({ name: script.hiddenTool, arguments: { text: 'hidden' } }).catch(() => null);
    const traceId = randomBytes(16).toString('hex');
    const sent = Date.now();
    await client.callTool({ name: script.echoTool, arguments: {},
      _meta: { traceparent: '00-' + traceId + '-' + randomBytes(8).toString('hex') + '-01' } }).catch(() => null);
    const answered = Date.now();
    await view(page, 'calls');
    await page.waitForFunction((tool) => [...document.querySelectorAll('#calls tbody tr')]
      .some((r) => r.querySelector('td.tool').textContent === tool && r.dataset.outcome === 'error'), { timeout: TIMEOUT }, script.echoTool);
    const outcomes = await page.$$eval('#calls tbody tr', (rows) => rows.map((r) => r.querySelector('td.tool').textContent + ':' + r.dataset.outcome));
    await page.waitForFunction((id) => [...document.querySelectorAll('#calls tbody td.trace')].some((c) => c.textContent === id),
      { timeout: TIMEOUT }, traceId);
    const cells = await page.$$eval('#calls tbody tr', (rows, id) => rows.map((r) => Object.fromEntries([...r.cells]
      .map((c) => [c.dataset.label, c.textContent]))).find((c) => c['Trace id'] === id), traceId);
    // Each second the call may have been recorded in, as the reader's locale writes a time of day.
    const times = await page.evaluate((from, to) => {
      const format = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
      const shown = [];
      for (let t = from - 1000; t <= to + 1000; t += 500) shown.push(format.format(new Date(t)));
      return shown;
    }, sent, answered);
    await shot(page, 'calls');
    return { outcomes, traced: { traceId, cells, times, tookMs: answered - sent } };
  });

  await check('stderrTail', async () => {
    const hiddenPod = script.hiddenTool.split('__')[0];
    const tail = 'tr[data-pod="' + hiddenPod + '"] td.error details';
    const open = tail + '[open] pre.stderr';
    await view(page, 'pods');
    await toggleTail(page, tail, true);
    await page.waitForSelector(open, { visible: true, timeout: TIMEOUT });
    // read in one evaluation: the pods table is redrawn when a pod changes, never in the middle of one
    const seen = await page.evaluate((selector) => ({ shown: document.querySelector(selector).textContent,
      images: document.querySelectorAll('#pods img').length, ran: window.__pwned === true }), open);
    await shot(page, 'stderr');
    await toggleTail(page, tail, false);
    return { chars: seen.shown.length, end: seen.shown.trimEnd().slice(-script.stderrEnd.length), images: seen.images,
      ran: seen.ran };
  });

  await check('hostileShownAsText', async () => {
    await view(page, 'tools');
    await page.waitForSelector('#tools tbody tr[data-tool="' + script.echoTool + '"]', { timeout: TIMEOUT });
    const shown = await page.$eval('#tools tbody tr[data-tool="' + script.echoTool + '"] td.description', (e) => e.textContent);
    const images = await page.$$eval('#tools img', (list) => list.length);
    const ran = await page.evaluate(() => window.__pwned === true);
    const cells = await page.$eval('#tools tbody tr[data-tool="' + script.echoTool + '"]', cellsByLabel);
    await shot(page, 'tools');
    return { shown, images, ran, cells };
  });

  await check('drift', async () => {
    const shown = {};
    for (const [tool, drift] of Object.entries(script.driftTools)) {
      const cell = '#tools tbody tr[data-tool="' + tool + '"] td[data-label="Drift"]';
      await page.waitForSelector(cell + '.drift-' + drift, { timeout: TIMEOUT });
      shown[tool] = await page.$eval(cell, (c) => ({ text: c.textContent, className: c.className }));
    }
    return shown;
  });

  await check('events', async () => {
    await view(page, 'events');
    await page.waitForSelector('#events li', { timeout: TIMEOUT });
    await shot(page, 'events');
    return page.$$eval('#events li', (list) => list.length);
  });
  await check('frames', async () => {
    // 300 calls, 100 a second (fewer when the machine is too busy to send them so fast), each one audit event on the
    // stream the page shows: how long its frames take.
    await page.evaluate(() => {
      window.__frames = [];
      window.__frameStarts = [];
      window.__work = [];
      window.__long = [];
      window.__longFrames = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__long.push(e.duration)))
        .observe({ type: 'longtask' });
      new PerformanceObserver((list) => list.getEntries().filter((e) => e.name.startsWith('console '))
        .forEach((e) => window.__work.push([e.name.slice('console '.length), e.startTime, e.duration]))).observe({ type: 'measure' });
      // Frames over 50 ms, split into the page's scripts, style and layout, and the rest (Chromium's own).
      new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__longFrames.push({
        ms: Math.round(e.duration),
        pageScriptMs: Math.round(e.scripts.filter((s) => s.sourceURL.includes('/console/')).reduce((sum, s) => sum + s.duration, 0)),
        styleAndLayoutMs: Math.round(e.startTime + e.duration - e.styleAndLayoutStart),
      }))).observe({ type: 'long-animation-frame' });
      let last = performance.now();
      const frame = (t) => {
        window.__frames.push(t - last);
        window.__frameStarts.push(t);
        last = t;
        if (!window.__stopFrames) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    const before = await page.$$eval('#events li', (list) => list.length);
    const start = Date.now();
    const pending = [];
    let sent = 0;
    while (sent < 300) {
      const wait = start + sent * 10 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(client.callTool({ name: script.echoTool, arguments: { text: 'e' + sent } }).catch(() => null));
      sent++;
    }
    await Promise.all(pending);
    await page.waitForFunction((n) => document.querySelectorAll('#events li').length >= Math.min(200, n), { timeout: TIMEOUT },
      before + sent);
    const seen = await page.evaluate(() => {
      window.__stopFrames = true;
      const frames = window.__frames.slice(1);
      return { frames: frames.length, maxFrameMs: Math.round(Math.max(...frames)), longTasksMs: window.__long.map(Math.round),
        longFrames: window.__longFrames, frameStarts: window.__frameStarts, work: window.__work,
        listed: document.querySelectorAll('#events li').length };
    });
    const { frameStarts, work, ...recorded } = seen;
    return { sent, seconds: (Date.now() - start) / 1000, ...recorded, ...workPerFrame(frameStarts, work) };
  });
  await check('podColumns', async () => {
    await view(page, 'pods');
    await page.waitForSelector(podState(pod, 'healthy'), { timeout: TIMEOUT });
    return page.$eval('tr[data-pod="' + pod + '"]', cellsByLabel);
  });
  await check('callFilters', async () => {
    const hiddenPod = script.hiddenTool.split('__')[0];
    const rows = () => page.$$eval('#calls tbody tr', (list) => list.map((r) => ({ tool: r.querySelector('td.tool').textContent,
      outcome: r.dataset.outcome, principal: r.cells[1].textContent })));
    const filter = async (values) => {
      for (const [name, value] of Object.entries(values)) {
        await page.$eval('#call-filters [name="' + name + '"]', (e, v) => { e.value = v; }, value);
      }
      await page.click('#call-filters button[type=submit]');
    };
    // Waits until every row shows `value` in the cell of class `cell` (the outcome is the row's data-outcome).
    const allRows = (cell, value) => page.waitForFunction((c, v) => {
      const shown = [...document.querySelectorAll('#calls tbody tr')].map((r) => (c === 'outcome' ? r.dataset.outcome : r.querySelector('td.' + c).textContent));
      return shown.length > 0 && shown.every((text) => text === v);
    }, { timeout: TIMEOUT }, cell, value);
    await view(page, 'calls');
    await filter({ outcome: 'error' });
    await allRows('outcome', 'error');
    const errors = await rows();
    await filter({ outcome: '', pod: hiddenPod, tool: script.hiddenTool, principal: 'ops' });
    await allRows('tool', script.hiddenTool);
    const filtered = await rows();
    await filter({ pod: '', tool: '', principal: '' });
    await page.waitForSelector('#older:not([hidden])', { timeout: TIMEOUT });
    const firstPage = (await rows()).length;
    await page.click('#older');
    await page.waitForFunction((n) => document.querySelectorAll('#calls tbody tr').length > n, { timeout: TIMEOUT }, firstPage);
    return { errors, filtered, firstPage, withOlder: (await rows()).length };
  });
  await check('eventFilter', async () => {
    const hiddenPod = script.hiddenTool.split('__')[0];
    await view(page, 'events');
    await page.type('#event-filters input[name=module]', hiddenPod);
    await page.type('#event-filters input[name=event_type]', 'gateway.call');
    await page.click('#event-filters button[type=submit]');
    await page.waitForSelector('#events li', { timeout: TIMEOUT });
    const shown = await page.$$eval('#events li', (list) => list.map((e) => e.textContent));
    await page.$eval('#event-filters', (form) => form.reset());
    await page.click('#event-filters button[type=submit]');
    return { items: shown.length, matching: shown.filter((t) => t.includes(' ' + hiddenPod + ' gateway.call ')).length };
  });
  await check('replicas', async () => {
    await view(page, 'replicas');
    // the view is shown at once and drawn once the page has read the replicas
    await page.waitForFunction(() => document.getElementById('replicas-note').textContent !== ''
      || document.querySelector('#replicas tbody tr') !== null, { timeout: TIMEOUT });
    await shot(page, 'replicas');
    return page.$eval('#replicas-note', (e) => e.textContent);
  });
  await check('phoneWidth', async () => {
    await view(page, 'pods');
    await page.setViewport({ width: 390, height: 844, isMobile: true });
    await page.waitForSelector('#pods tbody tr', { timeout: TIMEOUT });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await shot(page, 'phone');
    await page.setViewport({ width: 1280, height: 800 });
    return { overflow };
  });
  out.pageCsp = await page.evaluate(() => window.__csp);

  const guestContext = await browser.createBrowserContext();
  const guest = await guestContext.newPage();
  await guest.setViewport({ width: 1280, height: 800 });
  await watch(guest, 'login');
  await guest.goto(script.base + '/console#tools', { waitUntil: 'load' });
  await check('foreignPrincipal', async () => {
    await signIn(guest, script.guestToken);
    await guest.waitForSelector('#tools tbody tr', { timeout: TIMEOUT });
    const tools = await guest.$$eval('#tools tbody tr', (rows) => rows.map((r) => r.dataset.tool));
    const pods = await guest.$$eval('#pods tbody tr', (rows) => rows.map((r) => r.dataset.pod));
    await view(guest, 'calls');
    await guest.waitForSelector('#calls tbody tr', { timeout: TIMEOUT });
    const calls = await guest.$$eval('#calls tbody tr td.tool', (cells) => cells.map((c) => c.textContent));
    await shot(guest, 'guest');
    return { tools, pods, calls };
  });
  await guestContext.close();

  await check('disconnected', async () => {
    await client.close().catch(() => {});
    client = null;
    await page.evaluate(() => { window.__sameDocument = true; });
    process.kill(script.gatewayPid, 'SIGTERM');
    await page.waitForSelector('#banner:not([hidden])', { timeout: TIMEOUT });
    await shot(page, 'disconnected');
    return page.$eval('#banner', (e) => e.textContent);
  });
  await check('reconnected', async () => {
    const gone = Date.now();
    const answering = back();
    answering.catch(() => {});
    await page.waitForSelector('#banner[hidden]', { timeout: RESTART_TIMEOUT, polling: 'mutation' });
    const backAfterMs = Date.now() - gone;
    const shownBackMs = Date.now() - await answering;
    await page.waitForSelector(podState(pod, 'idle'), { timeout: TIMEOUT });
    client = await connectClient();
    const result = await client.callTool({ name: script.echoTool, arguments: { text: 'after the restart' } });
    const called = Date.now();
    await page.waitForSelector(podState(pod, 'healthy'), { timeout: TIMEOUT, polling: 'mutation' });
    return { backAfterMs, shownBackMs, isError: result.isError ?? false, healthyShownMs: Date.now() - called,
      sameDocument: await page.evaluate(() => window.__sameDocument === true) };
  });
  await check('withoutToken', async () => {
    const open = await browser.createBrowserContext();
    try {
      const fresh = await open.newPage();
      await fresh.setViewport({ width: 1280, height: 800 });
      await watch(fresh, 'open');
      await fresh.goto(script.base + '/console#tools', { waitUntil: 'load' });
      await fresh.waitForSelector('#tools tbody tr', { timeout: TIMEOUT });
      await fresh.waitForSelector('#pods tbody tr', { timeout: TIMEOUT });
      return {
        login: await fresh.$eval('#login', (e) => !e.hidden),
        stored: await fresh.evaluate(() => sessionStorage.length),
        who: await fresh.$eval('#who', (e) => e.textContent),
        tools: await fresh.$$eval('#tools tbody tr', (rows) => rows.map((r) => r.dataset.tool)),
        pods: await fresh.$$eval('#pods tbody tr', (rows) => rows.map((r) => r.dataset.pod)),
      };
    } finally {
      await open.close();
    }
  });
} catch (e) {
  out.error = String(e.stack ?? e);
} finally {
  if (client) await client.close().catch(() => {});
  if (browser) await browser.close().catch(() => {});
  out.browserPid = browser?.process()?.pid ?? null;
  process.stdout.write(JSON.stringify(out) + '\n');
}
