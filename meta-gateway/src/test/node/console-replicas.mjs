// Opens the operator console of one gateway replica in a headless browser (puppeteer-core: Debian's chromium, or
// firefox-esr over WebDriver BiDi) on its replicas view, waits until it lists `expect` replicas, and prints one JSON
// object: the rows as the page shows them, the console errors, and the screenshot's path. Usage:
// node console-replicas.mjs @script.json with {"base", "browser" ("chrome" or "firefox"), "executable", "shot",
// "expect"}; the replica is on loopback and has no token.
import puppeteer from 'puppeteer-core';
import { readFileSync } from 'node:fs';

const arg = process.argv[2];
const script = JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg);
const out = { rows: [], consoleErrors: [] };
// The view refreshes on its slow tick; three replicas' rows appear after one.
const TIMEOUT = 20000;

const browser = await puppeteer.launch(script.browser === 'firefox'
  ? { browser: 'firefox', executablePath: script.executable, headless: true }
  : {
    executablePath: script.executable, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  page.on('console', (msg) => { if (msg.type() === 'error') out.consoleErrors.push(msg.text()); });
  page.on('pageerror', (e) => out.consoleErrors.push(String(e)));
  await page.goto(script.base + '/console#replicas', { waitUntil: 'load', timeout: TIMEOUT });
  await page.waitForSelector('#view-replicas:not([hidden])', { timeout: TIMEOUT });
  await page.waitForFunction((n) => document.querySelectorAll('#replicas tbody tr').length >= n, { timeout: TIMEOUT },
    script.expect);
  out.rows = await page.$$eval('#replicas tbody tr',
    (rows) => rows.map((row) => Object.fromEntries([...row.cells].map((c) => [c.dataset.label, c.textContent]))));
  out.note = await page.$eval('#replicas-note', (e) => e.textContent);
  await page.screenshot({ path: script.shot, fullPage: true });
  out.screenshot = script.shot;
} catch (e) {
  out.failed = String(e.message ?? e);
} finally {
  await browser.close();
}
process.stdout.write(JSON.stringify(out));
