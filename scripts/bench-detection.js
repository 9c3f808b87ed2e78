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
// - automated without a browser (Node's fetch):
//   - http replay: the SDK's post copied from the headless run and posted again as a new session;
//   - http hand-made: a clean-looking payload written by hand, as a script would;
// - the human baseline: headful Chromium under Xvfb launched without any automation flag or
//   debugging port, driven by xdotool (OS-level pointer and keys); skipped when Xvfb or xdotool
//   is missing (apt-get install xvfb xdotool);
// - a control: headless Chromium started with the page's URL and no debugging client (no
//   person, so it is automated too, but nothing of the DevTools Protocol).
//
// Printed: a table (configuration × signal), the detection rate over the automated
// configurations that ran (flagged: device_risk raised, bot >= 0.5 or decision Fake) and the
// false positives over the human baseline. The identity configurations of issue 17 (profiles,
// cleared storage, changed time zone) are not measured yet.
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
if (!fs.existsSync(path.join(dist, 'app.js'))) {
  console.error('bench-detection: run `npm run build` first');
  process.exit(1);
}
const req = (p) => require(path.join(dist, p));
const { values: args } = parseArgs({ options: { json: { type: 'boolean', default: false } } });

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

function customerPage(trustgate, projectId) {
  return (request, response) => {
    if (request.url === '/favicon.ico') return response.writeHead(204).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><meta charset="utf-8"><title>Sign up</title>
<script src="${trustgate}/sdk.js" data-project-id="${projectId}"></script></head>
<body><form><input id="email" type="email" style="width:300px;height:30px"><button id="go" type="button">Sign up</button></form>
<p id="session"></p>
<script>document.getElementById('go').addEventListener('click', function () {
  Trustgate.session().then(function (s) { document.getElementById('session').textContent = s.session_id; });
});</script></body></html>`);
  };
}

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
  const { loadConfig } = req('config.js');
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
  const customer = await listen(customerPage(trustgate.origin, project.project_id));
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

  /** A person-like visit driven over the DevTools Protocol: pointer, click, typing, submit. */
  async function cdpVisit(name, { headless, stealth, display }) {
    const browser = await chromium.launch({
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
      await page.goto(customer.origin + '/');
      for (let i = 0; i < 15; i++) await page.mouse.move(30 + i * 17, 40 + (i % 5) * 9, { steps: 4 });
      await page.click('#email');
      await page.keyboard.type('someone@example.com', { delay: 20 });
      await page.click('#go');
      await page.waitForFunction(() => document.getElementById('session').textContent.length > 0, null, {
        timeout: 15_000,
      });
      const sessionId = await page.textContent('#session');
      await evaluate(name, 'automated', sessionId);
      return posted;
    } finally {
      await browser.close();
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
        { stdio: 'ignore' },
      );
      let sessionId;
      for (let i = 0; i < 100 && !sessionId; i++) {
        await sleep(200);
        sessionId = (await runtime.db('sessions').select('id')).map((r) => r.id).find((id) => !before.has(id));
      }
      await sleep(1000);
      const exited = new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
      child.kill('SIGKILL');
      await exited;
      fs.rmSync(profile, { recursive: true, force: true });
      await evaluate('headless, no CDP client (control)', 'automated', sessionId);
    }

    // ---- the human baseline
    if (!xvfb || !has('xdotool')) {
      results.push({
        name: 'human: headful (Xvfb), no automation, xdotool',
        kind: 'human',
        skipped: `${xvfb ? '' : 'Xvfb '}${has('xdotool') ? '' : 'xdotool '}not installed (apt-get install xvfb xdotool)`,
      });
    }
    // (With both installed: launch Chromium headful on the display with the URL only, move and type with xdotool.)
    else
      results.push({
        name: 'human: headful (Xvfb), no automation, xdotool',
        kind: 'human',
        skipped: 'not written yet',
      });
  } finally {
    for (const stop of cleanups) stop();
    await customer.close();
    await trustgate.close();
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  if (args.json) return console.log(JSON.stringify(results, null, 2));
  const ran = results.filter((r) => !r.skipped);
  const flagged = (r) => r.device_risk || r.bot >= 0.5 || r.decision === 'Fake';
  const rows = [['configuration', 'device_risk', 'bot', 'decision', 'device conditions']];
  for (const r of results) {
    if (r.skipped) rows.push([r.name, '-', '-', '-', `skipped: ${r.skipped}`]);
    else
      rows.push([
        r.name,
        `${r.device_risk} (${r.device_risk_score})`,
        r.bot.toFixed(2),
        r.decision,
        r.conditions.join(' '),
      ]);
  }
  const widths = rows[0].slice(0, 4).map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]) : cell)).join(' | '));
  const automated = ran.filter((r) => r.kind === 'automated');
  const humans = ran.filter((r) => r.kind === 'human');
  console.log(
    `\ndetection: ${automated.filter(flagged).length}/${automated.length} automated configurations flagged; ` +
      `false positives: ${humans.length ? `${humans.filter(flagged).length}/${humans.length}` : 'n/a (human baseline skipped)'}; ` +
      `${results.length - ran.length} configuration(s) skipped`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
