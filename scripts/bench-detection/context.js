'use strict';
// What every configuration of the detection benchmark shares: the compiled server and the
// customer's page on loopback ports, the evaluation of a session into a row of the report, and
// the helpers that start and end browsers and the virtual display.
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { customerPage } = require('./page');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist', 'src');
const CHROMIUM = '/usr/bin/chromium';
const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const ADDRESS = 'someone@example.com';

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const withDisplay = (display) => (display ? { ...process.env, DISPLAY: display } : process.env);
const freshFolder = (label) => fs.mkdtempSync(path.join(os.tmpdir(), `trustgate-bench-${label}-`));

/** Waits for `test()` to give something, polling; undefined after `ms`. */
async function until(test, ms, every = 200) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(every)) {
    const found = await test();
    if (found) return found;
  }
  return undefined;
}

/**
 * The BotD result that the page posted during a visit: the last of `page.botd` past `mark` (its
 * length before the visit), waited for a little, as BotD answers after the page's load.
 */
async function botdSince(page, mark) {
  await until(() => page.botd.length > mark, 5000);
  return page.botd.length > mark ? page.botd.at(-1) : { error: 'BotD posted no result' };
}

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

/**
 * The server (dist/: makeRuntime + createApp, as `npm start` runs it, the shipped IP data, a
 * fresh SQLite file in a temporary folder), a project, and the customer's page. `evaluate`
 * asks POST /session/unauthenticated about a session and adds its row to `results`; `sdkFacts`
 * reads what the server stored of the SDK's posts; `close` ends it all.
 */
async function startBench() {
  const req = (p) => require(path.join(DIST, p));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-bench-detection-'));
  const config = req('config/index.js').loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    IP_LISTS_DIR: path.join(dataDir, 'ip-lists'),
    TRUSTGATE_SECRET_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'silent',
  });
  const runtime = await req('composition.js').makeRuntime(config, req('logger.js').makeLogger('silent'), {
    analysis: false,
  });
  const project = await runtime.services.projects.create({ name: 'Detection bench' });
  const trustgate = await listen(req('app.js').createApp({ ...runtime, config }));
  const page = customerPage(trustgate.origin, project.project_id);
  const customer = await listen(page.handler);
  const results = [];

  /** One row: what the evaluation says of `sessionId`, or why there is none. */
  async function evaluate(name, kind, sessionId, { note = '', botd } = {}) {
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
      botd,
      conditions: r.session.risk_signal_details.device,
      note,
    });
  }

  /** The SDK's facts of a session as the server stored them (its posts merged, `received` beside). */
  async function sdkFacts(sessionId) {
    const row = await runtime.db('session_facts').where({ session_id: sessionId }).first();
    return JSON.parse(row?.sdk ?? '{}');
  }

  async function close() {
    await customer.close();
    await trustgate.close();
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  return { runtime, project, trustgate, customer, page, results, evaluate, sdkFacts, close };
}

module.exports = {
  ADDRESS,
  BASE_ARGS,
  botdSince,
  CHROMIUM,
  DIST,
  freshFolder,
  has,
  sleep,
  startBench,
  stopChromium,
  until,
  virtualDisplay,
  withDisplay,
};
