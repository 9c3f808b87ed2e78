#!/usr/bin/env node
// The detection benchmark: real browsers on this machine against the compiled server, and what
// Trustgate makes of each session.
//
//   npm run build && npm run bench:detection [-- --json]
//
// The server (dist/: makeRuntime + createApp, as `npm start` runs it, the shipped IP data, a
// fresh SQLite file in a temporary folder) listens on a loopback port; a customer's sign-up
// page on another port carries the SDK's script tag. Each configuration loads the page (or
// posts without a browser), a session is made, and POST /session/unauthenticated says what
// Trustgate found: device_risk, the bot score, the decision and the device conditions.
//
// Configurations:
// - automated, Debian's Chromium (/usr/bin/chromium) driven by playwright-core over the DevTools
//   Protocol, the pointer moved and keys typed through the protocol:
//   - headless: new headless, as launched by playwright;
//   - headless+stealth: the same with the usual stealth overrides patched in before page
//     scripts (navigator.webdriver false, a user agent without "HeadlessChrome", plugins,
//     window.chrome, languages) and --disable-blink-features=AutomationControlled;
//   - headful (Xvfb) and headful+stealth (Xvfb): the same with a window on a virtual display
//     (skipped when Xvfb is not installed);
// - automated by the drivers that keep the DevTools Runtime domain off, headless and headful
//   (Xvfb): rebrowser-puppeteer (puppeteer so patched, launched without the automation switch,
//   so navigator.webdriver is false) and patchright (playwright so patched; it evaluates in
//   worlds of its own);
// - automated without a browser (Node's fetch):
//   - http replay: the SDK's post copied from the headless run and posted again as a new session;
//   - http hand-made: a clean-looking payload written by hand, as a script would;
// - the human baseline: headful Chromium under Xvfb launched without any automation flag or
//   debugging port (a plain process, a fresh profile folder, the page's URL on its command
//   line), driven by xdotool (OS-level pointer and keys); the session id is the one the page
//   posts to the customer's back end, and the row shows the event counts the SDK sent, proof
//   that the input reached the page; skipped when Xvfb or xdotool is missing
//   (apt-get install xvfb xdotool);
// - a control: headless Chromium started with the page's URL and no debugging client (no
//   person, so it is automated too, but nothing of the DevTools Protocol).
//
// Printed: a table (configuration × signal), the detection rate over the automated
// configurations that ran (flagged: device_risk raised, bot >= 0.5 or decision Fake) and the
// false positives over the human baseline.
//
// Identity (persistent playwright profiles, headful under Xvfb when it is there, each visit
// ending in POST /session/authenticate?accounts_linked=true with its own account; the match
// types read from linked_accounts[].match_type): two profiles of one browser (a `device` link,
// never `browser`), the same profile again (the control: `browser`), one profile before and
// after clearing the site's cookies and storage (`device`, no `browser`), one profile with its
// time zone and language changed (`device`). Printed: each case as expected or not, and the
// `browser` links between accounts of different profiles (target 0).
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes, randomUUID } = require('node:crypto');
const { parseArgs } = require('node:util');

const ROOT = path.resolve(__dirname, '..');
const dist = path.join(ROOT, 'dist', 'src');
const req = (p) => require(path.join(dist, p));

const CHROMIUM = '/usr/bin/chromium';
const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function listen(handler) {
  return new Promise((resolve) => {
    const server = http.createServer(handler);
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    );
  });
}

/**
 * The customer's sign-up page. The form's targets are large and placed well below the window's
 * own toolbars, so that OS-level input (xdotool, screen coordinates, no view of the DOM) lands on
 * them whatever the toolbar's height. On submit the page shows the session id and posts it to
 * the customer's back end (POST /signed-up), as a real sign-up form would; `signedUp` records
 * those ids in order.
 */
function customerPage(trustgate, projectId, signedUp) {
  return (request, response) => {
    if (request.url === '/favicon.ico') return response.writeHead(204).end();
    if (request.url === '/signed-up' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => (signedUp.push(body.trim()), response.writeHead(204).end()));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><meta charset="utf-8"><title>Sign up</title>
<script src="${trustgate}/sdk.js" data-project-id="${projectId}"></script>
<style>body{margin:0} #email{position:absolute;left:40px;top:170px;width:1100px;height:150px;font-size:40px}
#go{position:absolute;left:40px;top:400px;width:1100px;height:120px;font-size:40px}
#session{position:absolute;left:40px;top:540px}</style></head>
<body><form><input id="email" type="email"><button id="go" type="button">Sign up</button></form>
<p id="session"></p>
<script>document.getElementById('go').addEventListener('click', function () {
  Trustgate.session().then(function (s) {
    document.getElementById('session').textContent = s.session_id;
    fetch('/signed-up', { method: 'POST', body: s.session_id });
  });
});</script></body></html>`);
  };
}

/**
 * Ends a Chromium started with `detached: true` (its own process group: the browser, its zygote,
 * renderers and network service), then removes its profile folder. Killing only the browser
 * process left children writing into the profile while it was being removed (ENOTEMPTY).
 */
async function stopChromium(child, profile) {
  const exited = new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {} // the group is already gone
  };
  signal('SIGTERM');
  await Promise.race([exited, sleep(5000)]);
  signal('SIGKILL');
  await sleep(300);
  fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

/**
 * One identity case: the link to account `other` among `linked` (linked_accounts of an
 * authenticate), and whether each match type in `want` is present (true) or absent (false).
 */
function linkCase(name, linked, other, want) {
  const link = linked.find((l) => l.account_id === other);
  const found = link ? link.match_type : [];
  const pass = Object.entries(want).every(([type, present]) => found.includes(type) === present);
  const expected = Object.entries(want)
    .map(([type, present]) => `${present ? '' : 'no '}${type}`)
    .join(', ');
  return { name, expected, found: found.join(' ') || '(no link)', score: link?.score, pass };
}

/** Flagged: device_risk raised, a bot score of 0.5 or more, or the decision Fake. */
const flagged = (r) => Boolean(r.device_risk || r.bot >= 0.5 || r.decision === 'Fake');

/** Starts Xvfb on a free display; undefined when it is not installed. */
async function virtualDisplay() {
  if (!has('Xvfb')) return undefined;
  for (let n = 91; n < 120; n++) {
    if (fs.existsSync(`/tmp/.X11-unix/X${n}`)) continue;
    const xvfb = spawn('Xvfb', [`:${n}`, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
    await sleep(500);
    if (xvfb.exitCode === null) return { display: `:${n}`, stop: () => xvfb.kill('SIGTERM') };
  }
  return undefined;
}

async function main() {
  const { chromium } = require('playwright-core');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-bench-detection-'));
  const { loadConfig } = req('config/index.js');
  const { makeLogger } = req('logger.js');
  const { makeRuntime } = req('composition.js');
  const { createApp } = req('app.js');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    IP_LISTS_DIR: path.join(dataDir, 'ip-lists'),
    TRUSTGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
  });
  const runtime = await makeRuntime(config, makeLogger('silent'), { analysis: false });
  const project = await runtime.services.projects.create({ name: 'Detection bench' });
  const trustgate = await listen(createApp({ ...runtime, config }));
  const signedUp = [];
  const customer = await listen(customerPage(trustgate.origin, project.project_id, signedUp));
  const results = [];
  const cleanups = [];

  async function evaluate(name, kind, sessionId, note = '') {
    if (!sessionId) return results.push({ name, kind, skipped: note || 'no session was made' });
    const response = await fetch(`${trustgate.origin}/session/unauthenticated`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': project.api_key },
      body: JSON.stringify({ session_id: sessionId }),
    });
    const r = await response.json();
    if (!response.ok)
      return results.push({ name, kind, skipped: `evaluation answered ${response.status}: ${r.message}` });
    results.push({
      name,
      kind,
      device_risk: r.session.risk_signals.device_risk,
      device_risk_score: r.session.risk_signal_scores.device_risk,
      bot: r.bot,
      decision: r.decision,
      conditions: r.session.risk_signal_details.device,
      note,
    });
  }

  /** Loads the page, moves, clicks and types over the DevTools Protocol; the session id shown. */
  async function signUpOverCdp(page) {
    await page.goto(customer.origin + '/');
    for (let i = 0; i < 15; i++) await page.mouse.move(30 + i * 17, 40 + (i % 5) * 9, { steps: 4 });
    await page.click('#email');
    await page.keyboard.type('someone@example.com', { delay: 20 });
    await page.click('#go');
    await page.waitForFunction(() => document.getElementById('session').textContent.length > 0, null, {
      timeout: 15_000,
    });
    return page.textContent('#session');
  }

  /** A person-like visit driven over the DevTools Protocol: pointer, click, typing, submit. */
  async function cdpVisit(name, { headless, stealth, display, driver = chromium }) {
    const browser = await driver.launch({
      executablePath: CHROMIUM,
      headless,
      args: [...BASE_ARGS, ...(stealth ? ['--disable-blink-features=AutomationControlled'] : [])],
      env: display ? { ...process.env, DISPLAY: display } : process.env,
    });
    try {
      const probe = await browser.newPage();
      const realUa = (await probe.evaluate(() => navigator.userAgent)).replace('HeadlessChrome', 'Chrome');
      await probe.close();
      const context = await browser.newContext(stealth ? { userAgent: realUa, locale: 'en-US' } : {});
      if (stealth) {
        await context.addInitScript(() => {
          Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });
          Object.defineProperty(Navigator.prototype, 'languages', { get: () => ['en-US', 'en'], configurable: true });
          Object.defineProperty(Navigator.prototype, 'plugins', { get: () => [1, 2, 3, 4, 5], configurable: true });
          window.chrome = window.chrome || { runtime: {} };
        });
      }
      let posted;
      context.on('request', (r) => {
        if (r.url().endsWith('/ingest/session') && r.method() === 'POST' && !posted) posted = r.postData();
      });
      const page = await context.newPage();
      const sessionId = await signUpOverCdp(page);
      await evaluate(name, 'automated', sessionId);
      return posted;
    } finally {
      await browser.close();
    }
  }

  /**
   * The same visit driven by rebrowser-puppeteer (puppeteer with the DevTools Runtime domain
   * left off, so `cdp:runtime_enabled` cannot fire): pointer, click, typing, submit.
   */
  async function rebrowserVisit(name, { headless, display }) {
    const puppeteer = require('rebrowser-puppeteer-core');
    // Launched as its users launch it: without the automation switch, so navigator.webdriver is
    // false and the browser's own facts are a person's.
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless,
      ignoreDefaultArgs: ['--enable-automation'],
      args: [...BASE_ARGS, '--disable-blink-features=AutomationControlled'],
      env: display ? { ...process.env, DISPLAY: display } : process.env,
    });
    try {
      const page = await browser.newPage();
      await page.goto(customer.origin + '/');
      for (let i = 0; i < 15; i++) await page.mouse.move(30 + i * 17, 40 + (i % 5) * 9, { steps: 4 });
      await page.click('#email');
      await page.type('#email', 'someone@example.com', { delay: 20 });
      await page.click('#go');
      await page.waitForFunction(() => document.getElementById('session').textContent.length > 0, { timeout: 15_000 });
      await evaluate(name, 'automated', await page.$eval('#session', (e) => e.textContent));
    } finally {
      await browser.close();
    }
  }

  /** Runs xdotool on the display, asynchronously (the server answers in this same process). */
  function xdo(display, ...xargs) {
    return new Promise((resolve, reject) => {
      const child = spawn('xdotool', xargs, { env: { ...process.env, DISPLAY: display } });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, out: out.trim() }));
    });
  }

  /** Waits for `test()` to give something, polling; undefined after `ms`. */
  async function until(test, ms, every = 200) {
    for (const end = Date.now() + ms; Date.now() < end; await sleep(every)) {
      const found = await test();
      if (found) return found;
    }
    return undefined;
  }

  /**
   * The human baseline: a plain Chromium process on the virtual display (its own fresh profile,
   * the page's URL on its command line, no automation flag, no debugging port, no DevTools
   * client), and only OS-level input from xdotool: the pointer moves along an uneven path with
   * pauses, clicks the e-mail field, the keys are typed one by one, the pointer goes to the
   * button and clicks. The session id is what the page posted to the customer's back end.
   */
  async function humanVisit(name, display) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-bench-human-'));
    const argv = [
      ...BASE_ARGS,
      '--no-default-browser-check',
      '--password-store=basic',
      `--user-data-dir=${profile}`,
      '--window-position=0,0',
      '--window-size=1280,800',
      customer.origin + '/',
    ];
    const child = spawn(CHROMIUM, argv, { stdio: 'ignore', detached: true, env: { ...process.env, DISPLAY: display } });
    const already = signedUp.length;
    try {
      const window = await until(
        async () => {
          const r = await xdo(display, 'search', '--onlyvisible', '--class', 'chromium');
          return r.code === 0 && r.out ? r.out.split('\n').pop() : undefined;
        },
        30_000,
        300,
      );
      if (!window) return results.push({ name, kind: 'human', skipped: 'no Chromium window appeared' });
      await sleep(4000); // the page loads and the SDK posts its first report
      // An uneven path across the page, then onto the e-mail field (screen y 390: page y 170–320
      // under any toolbar height from 70 to 220 px), typed key by key, then the button (y 590).
      const path1 = [
        [900, 700],
        [820, 640],
        [700, 560],
        [610, 500],
        [560, 470],
        [530, 430],
        [515, 405],
        [512, 392],
      ];
      for (const [x, y] of path1) {
        await xdo(display, 'mousemove', '--sync', String(x + Math.round(Math.random() * 6)), String(y));
        await sleep(60 + Math.random() * 90);
      }
      await sleep(400);
      await xdo(display, 'click', '1');
      await sleep(700);
      await xdo(display, 'type', '--delay', '140', 'someone@example.com');
      await sleep(600);
      for (const [x, y] of [
        [540, 430],
        [580, 480],
        [620, 530],
        [650, 570],
        [660, 590],
      ]) {
        await xdo(display, 'mousemove', '--sync', String(x + Math.round(Math.random() * 6)), String(y));
        await sleep(70 + Math.random() * 80);
      }
      await sleep(300);
      await xdo(display, 'click', '1');
      const sessionId = await until(() => signedUp[already], 20_000);
      if (!sessionId)
        return results.push({ name, kind: 'human', skipped: 'the page posted no session id (a click missed?)' });
      // What reached the page: the SDK's event counts in its post, as the server stored it.
      const row = await runtime.db('session_facts').where({ session_id: sessionId }).first();
      const e = JSON.parse(row?.sdk ?? '{}').events ?? {};
      await evaluate(name, 'human', sessionId, `page saw mouse ${e.mouse} click ${e.click} keyboard ${e.keyboard}`);
    } finally {
      await stopChromium(child, profile);
    }
  }

  const identities = []; // { name, expected, found, pass }
  const accountProfile = new Map(); // account id → the profile folder it was used in
  let crossProfileBrowserLinks = 0;

  /**
   * One visit in a persistent profile (playwright, so driven over the DevTools Protocol: these
   * configurations measure the links, not the bot score), then POST /session/authenticate
   * ?accounts_linked=true with `accountId`. Returns the linked accounts.
   */
  async function profileVisit(profile, accountId, { display, locale, timezoneId, clearStorage } = {}) {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: !display,
      args: BASE_ARGS,
      env: display ? { ...process.env, DISPLAY: display } : process.env,
      ...(locale ? { locale } : {}),
      ...(timezoneId ? { timezoneId } : {}),
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      if (clearStorage) {
        // What "clear browsing data" does to the site: its cookies and its storage.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Storage.clearDataForOrigin', { origin: customer.origin, storageTypes: 'all' });
        await context.clearCookies();
      }
      const sessionId = await signUpOverCdp(page);
      const response = await fetch(`${trustgate.origin}/session/authenticate?accounts_linked=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': project.api_key },
        body: JSON.stringify({ session_id: sessionId, account: { id: accountId } }),
      });
      const r = await response.json();
      if (!response.ok) throw new Error(`authenticate answered ${response.status}: ${r.message}`);
      accountProfile.set(accountId, profile);
      for (const l of r.linked_accounts ?? [])
        if (l.match_type.includes('browser') && accountProfile.get(l.account_id) !== profile)
          crossProfileBrowserLinks++;
      return r.linked_accounts ?? [];
    } finally {
      await context.close();
    }
  }

  const expectLink = (name, linked, other, want) => identities.push(linkCase(name, linked, other, want));

  /** The identity configurations of issue 17, each with its own fresh profile folders. */
  async function identity(xvfb) {
    const display = xvfb?.display;
    const fresh = (label) => fs.mkdtempSync(path.join(os.tmpdir(), `trustgate-bench-${label}-`));
    const profiles = [];
    try {
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((label) => (profiles.push(fresh(label)), profiles.at(-1)));
      await profileVisit(a, 'profile-a', { display });
      const linkedB = await profileVisit(b, 'profile-b', { display });
      expectLink('two profiles, one browser, one machine', linkedB, 'profile-a', { device: true, browser: false });
      const again = await profileVisit(a, 'profile-a-again', { display });
      expectLink('one profile, a second visit (control)', again, 'profile-a', { browser: true, device: true });
      await profileVisit(c, 'before-clear', { display });
      const cleared = await profileVisit(c, 'after-clear', { display, clearStorage: true });
      expectLink('one profile, site cookies and storage cleared', cleared, 'before-clear', {
        device: true,
        browser: false,
      });
      await profileVisit(d, 'tz-before', { display, locale: 'en-US', timezoneId: 'Europe/London' });
      const moved = await profileVisit(d, 'tz-after', { display, locale: 'fr-FR', timezoneId: 'Asia/Tokyo' });
      expectLink('one profile, time zone and language changed', moved, 'tz-before', { device: true });
    } catch (error) {
      identities.push({
        name: 'identity configurations',
        expected: '-',
        found: `failed: ${error.message}`,
        pass: false,
      });
    } finally {
      for (const p of profiles) fs.rmSync(p, { recursive: true, force: true });
    }
  }

  try {
    // ---- automated, headless over the DevTools Protocol
    const copied = await cdpVisit('headless (CDP)', { headless: true, stealth: false });
    await cdpVisit('headless+stealth (CDP)', { headless: true, stealth: true });

    // ---- automated, headful under Xvfb over the DevTools Protocol
    const xvfb = await virtualDisplay();
    if (xvfb) cleanups.push(xvfb.stop);
    for (const stealth of [false, true]) {
      const name = `headful${stealth ? '+stealth' : ''} (Xvfb, CDP)`;
      if (!xvfb) results.push({ name, kind: 'automated', skipped: 'Xvfb is not installed (apt-get install xvfb)' });
      else await cdpVisit(name, { headless: false, stealth, display: xvfb.display });
    }

    // ---- the drivers that keep the Runtime domain off: rebrowser-puppeteer and patchright
    const patchright = require('patchright-core').chromium;
    await rebrowserVisit('rebrowser-puppeteer, headless', { headless: true });
    await cdpVisit('patchright, headless', { headless: true, stealth: false, driver: patchright });
    for (const [name, visit] of [
      [
        'rebrowser-puppeteer, headful (Xvfb)',
        (display) => rebrowserVisit('rebrowser-puppeteer, headful (Xvfb)', { headless: false, display }),
      ],
      [
        'patchright, headful (Xvfb)',
        (display) =>
          cdpVisit('patchright, headful (Xvfb)', { headless: false, stealth: false, display, driver: patchright }),
      ],
    ]) {
      if (!xvfb) results.push({ name, kind: 'automated', skipped: 'Xvfb is not installed (apt-get install xvfb)' });
      else await visit(xvfb.display);
    }

    // ---- automated, without a browser
    if (copied) {
      const body = { ...JSON.parse(copied), session_id: randomUUID() };
      const response = await fetch(`${trustgate.origin}/ingest/session`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-project-id': project.project_id,
          'user-agent': body.user_agent ?? '',
        },
        body: JSON.stringify(body),
      });
      await evaluate('http replay (copied post, new session)', 'automated', response.ok ? body.session_id : undefined);
    } else results.push({ name: 'http replay', kind: 'automated', skipped: 'no post was captured' });
    const handMade = {
      session_id: randomUUID(),
      source: 'web',
      source_version: null,
      device_id: randomUUID(),
      user_agent:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
      languages: ['en-US', 'en'],
      timezone: 'UTC',
      screen: { width: 1920, height: 1080 },
      cpu_cores: 8,
      memory: 8,
      automation: { webdriver: false, signals: [] },
      tampering: [],
      events: { mouse: 180, click: 4, keyboard: 30, touch: 0, clipboard: 0 },
    };
    const made = await fetch(`${trustgate.origin}/ingest/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-project-id': project.project_id },
      body: JSON.stringify(handMade),
    });
    await evaluate('http hand-made', 'automated', made.ok ? handMade.session_id : undefined);

    // ---- a control: headless Chromium with the URL, no debugging client
    {
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-bench-profile-'));
      const before = new Set((await runtime.db('sessions').select('id')).map((r) => r.id));
      const child = spawn(
        CHROMIUM,
        ['--headless=new', ...BASE_ARGS, `--user-data-dir=${profile}`, customer.origin + '/'],
        { stdio: 'ignore', detached: true },
      );
      let sessionId;
      for (let i = 0; i < 100 && !sessionId; i++) {
        await sleep(200);
        sessionId = (await runtime.db('sessions').select('id')).map((r) => r.id).find((id) => !before.has(id));
      }
      await sleep(1000);
      await stopChromium(child, profile);
      await evaluate('headless, no CDP client (control)', 'automated', sessionId);
    }

    // ---- the human baseline
    if (!xvfb || !has('xdotool')) {
      results.push({
        name: 'human: headful (Xvfb), no automation, xdotool',
        kind: 'human',
        skipped: `${xvfb ? '' : 'Xvfb '}${has('xdotool') ? '' : 'xdotool '}not installed (apt-get install xvfb xdotool)`,
      });
    } else await humanVisit('human: headful (Xvfb), no automation, xdotool', xvfb.display);

    // ---- identity
    await identity(xvfb);
  } finally {
    for (const stop of cleanups) stop();
    await customer.close();
    await trustgate.close();
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  return { results, identities, crossProfileBrowserLinks };
}

/**
 * The printed report: the table (configuration × signal), the detection rate over the automated
 * configurations that ran, the false positives over the human baseline, the identity cases and
 * the `browser` links between different profiles.
 */
function report({ results, identities, crossProfileBrowserLinks }) {
  const lines = [];
  const ran = results.filter((r) => !r.skipped);
  const rows = [['configuration', 'device_risk', 'bot', 'decision', 'device conditions']];
  for (const r of results) {
    if (r.skipped) rows.push([r.name, '-', '-', '-', `skipped: ${r.skipped}`]);
    else
      rows.push([
        r.name,
        `${r.device_risk} (${r.device_risk_score})`,
        r.bot.toFixed(2),
        r.decision,
        [...r.conditions, ...(r.note ? [`(${r.note})`] : [])].join(' '),
      ]);
  }
  const widths = rows[0].slice(0, 4).map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) lines.push(row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]) : cell)).join(' | '));
  const automated = ran.filter((r) => r.kind === 'automated');
  const humans = ran.filter((r) => r.kind === 'human');
  lines.push(
    `\ndetection: ${automated.filter(flagged).length}/${automated.length} automated configurations flagged; ` +
      `false positives: ${humans.length ? `${humans.filter(flagged).length}/${humans.length}` : 'n/a (human baseline skipped)'}; ` +
      `${results.length - ran.length} configuration(s) skipped`,
  );
  lines.push('\nidentity | expected | match types found (score) | as expected');
  for (const i of identities)
    lines.push(
      `${i.name} | ${i.expected} | ${i.found}${i.score === undefined ? '' : ` (${i.score.toFixed(2)})`} | ${i.pass ? 'yes' : 'NO'}`,
    );
  lines.push(
    `\nidentity: ${identities.filter((i) => i.pass).length}/${identities.length} as expected; ` +
      `browser links between different profiles: ${identities.length ? crossProfileBrowserLinks : 'n/a'} (target 0)`,
  );
  return lines.join('\n');
}

module.exports = { report, linkCase, flagged };

if (require.main === module) {
  const { values: args } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
  if (!fs.existsSync(path.join(dist, 'app.js'))) {
    console.error('bench-detection: run `npm run build` first');
    process.exit(1);
  }
  main()
    .then((run) => console.log(args.json ? JSON.stringify(run, null, 2) : report(run)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
