#!/usr/bin/env node
// Memory under a long mixed load: does the server's resident memory level off?
//
//   npm run build && npm run bench:soak [-- --duration 10m] [--interval 5] [--connections 8] [--rate 0] [--analysis]
//
// The server is the compiled one (dist/src/main.js, as `npm start` runs it, NODE_ENV=production)
// in a child process of its own, on a fresh SQLite file in a temporary folder, or on a new
// database of the PostgreSQL server named by DATABASE_URL (dropped afterwards). Settings of
// the operator's environment that size memory (SQLITE_CACHE_MB, SQLITE_MMAP_MB,
// DATABASE_POOL_SIZE, DATABASE_HOT_CONNECTIONS, EVALUATION_CONCURRENCY, API_KEY_CACHE_TTL_MS, RATE_LIMIT_STORE, and
// NODE_OPTIONS, e.g. --max-old-space-size) are passed on. The rate limits are raised out of
// the way (they still count); the analysis engine is off unless --analysis (its models add a
// fixed ~350 MB once loaded).
//
// The load (autocannon, --connections connections, at most --rate requests per second when
// given) repeats one customer's cycle per connection: the SDK's post of a new session (from
// one of 2,000 public addresses, X-Forwarded-For with TRUST_PROXY=loopback), authenticate
// with linked accounts (one of 5,000 accounts, so histories and links grow), the session,
// the account, an account update, unauthenticated, the lists, a verification session created
// and cancelled (its webhook delivered to a loopback receiver), an unknown key (401), an
// invalid body (400) and the health check.
//
// The server reads process.memoryUsage() and /proc/self/status (RssAnon: the JS heap and
// native allocations; RssFile: mapped files, SQLite's memory map of the database among them)
// every 250 ms and reports, every --interval seconds, each figure's highest value in the
// interval, "native" among them (RssAnon less the JS heap and its buffers: SQLite's page
// cache, the allocator's arenas, the engine's own), and the heap as the last full (major)
// collection left it; the database's size on disk is read at the same moments. Printed: the
// series, and for RSS, RssAnon, RssFile, native, the heap after a full collection and external
// memory the least-squares slope (MB per minute) over the first and the second half of the
// run after the warm-up (--warmup seconds, default a tenth of the run, at least 30 s).
// "Levels off": the second half's slope is at most a quarter of the first's, or under
// 0.5 MB/min.
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, fork } = require('node:child_process');
const { randomBytes, randomUUID } = require('node:crypto');
const { parseArgs } = require('node:util');

const ROOT = path.resolve(__dirname, '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');

// ------------------------------------------------------------------------------------------
// Server (child process): the compiled main.js, with a sampler reporting to the parent.

function procStatus() {
  const out = {};
  for (const line of fs.readFileSync('/proc/self/status', 'utf8').split('\n')) {
    const m = /^(RssAnon|RssFile|RssShmem):\s+(\d+) kB/.exec(line);
    if (m) out[m[1]] = Number(m[2]) * 1024;
  }
  return out;
}

if (process.argv[2] === '--serve') {
  // Read every 250 ms; each interval reports the highest of each figure. Under load the
  // collected heap's sawtooth spans hundreds of MB; what a leak raises is the heap that
  // survives a full collection: read right after each major GC (its performance entry).
  const { PerformanceObserver, constants } = require('node:perf_hooks');
  const intervalMs = Number(process.env.SOAK_INTERVAL_MS);
  let agg;
  let afterMajorGc = 0;
  new PerformanceObserver((list) => {
    if (list.getEntries().some((e) => e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR))
      afterMajorGc = process.memoryUsage().heapUsed;
  }).observe({ entryTypes: ['gc'] });
  const read = () => {
    const m = process.memoryUsage();
    const s = fs.existsSync('/proc/self/status') ? procStatus() : {};
    const now = {
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      rssAnon: s.RssAnon ?? 0,
      rssFile: s.RssFile ?? 0,
    };
    // Anonymous memory outside the JS heap and its buffers: SQLite's page cache, the allocator's arenas, the engine's own.
    now.native = Math.max(0, now.rssAnon - m.heapTotal - m.arrayBuffers);
    if (!agg) agg = now;
    else for (const k of Object.keys(now)) agg[k] = Math.max(agg[k], now[k]);
  };
  setInterval(read, 250).unref();
  setInterval(() => {
    read();
    process.send?.({ sample: { ...agg, heapAfterGc: afterMajorGc } });
    agg = undefined;
  }, intervalMs).unref();
  require(MAIN);
  return;
}

// ------------------------------------------------------------------------------------------
// Load generator and report (main process)

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10m' },
    interval: { type: 'string', default: '5' },
    warmup: { type: 'string' },
    connections: { type: 'string', default: '8' },
    rate: { type: 'string', default: '0' },
    analysis: { type: 'boolean', default: false },
  },
});

/** `90`, `90s`, `3m` → seconds. */
function seconds(text) {
  const m = /^(\d+(?:\.\d+)?)(s|m)?$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text} (e.g. 600, 90s, 10m)`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}

const MB = 1024 * 1024;
const mb = (bytes) => (bytes / MB).toFixed(1);

/** Least-squares slope of y over t (t in seconds), in MB per minute. */
function slopePerMinute(points) {
  const n = points.length;
  if (n < 2) return NaN;
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.y - my);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? NaN : ((num / den) * 60) / MB;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function until(ok, what, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const get = (url) =>
  new Promise((resolve) => {
    http.get(url, (res) => (res.resume(), resolve(res.statusCode))).on('error', () => resolve(0));
  });

/** A public address from a fixed pool (varied enough for the IP data's caches, bounded for the linking). */
function addressPool(n) {
  const out = [];
  for (let i = 0; i < n; i++)
    out.push(`${[81, 73, 86, 91, 109, 151, 185, 212][i % 8]}.${(i * 7) % 223}.${(i * 13) % 251}.${1 + (i % 250)}`);
  return out;
}

/** One customer's cycle, as autocannon requests (each connection runs it over and over). */
function cycle({ apiKey, projectId }) {
  const addresses = addressPool(2000);
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const accountId = () => `soak-${Math.floor(Math.random() * 5000)}`;
  // Fresh objects each time: autocannon writes Content-Length into the headers object it is given.
  const json = () => ({ 'content-type': 'application/json' });
  const key = () => ({ 'x-api-key': apiKey, 'content-type': 'application/json' });
  return [
    {
      method: 'POST',
      path: '/ingest/session',
      setupRequest(req, ctx) {
        ctx.sessionId = randomUUID();
        ctx.accountId = accountId();
        ctx.ip = pick(addresses);
        const device = Math.floor(Math.random() * 8000);
        const body = {
          session_id: ctx.sessionId,
          source: 'web',
          source_version: null,
          device_id: `00000000-0000-4000-8000-${String(device).padStart(12, '0')}`,
          browser_fingerprint: `fp${device % 3000}`,
          user_agent:
            'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
          languages: ['en-GB', 'en'],
          timezone: 'Europe/London',
          screen: { width: 1728, height: 1117 },
          cpu_cores: 8,
          memory: 8,
          automation: { webdriver: false, signals: [] },
          events: { mouse: 140, click: 4, keyboard: 38, touch: 0, clipboard: 0 },
        };
        return {
          ...req,
          headers: { ...json(), 'x-project-id': projectId, 'x-forwarded-for': ctx.ip },
          body: JSON.stringify(body),
        };
      },
    },
    {
      method: 'POST',
      path: '/session/authenticate?accounts_linked=true',
      setupRequest(req, ctx) {
        const n = ctx.accountId.slice(5);
        const account = {
          id: ctx.accountId,
          email: `user${n}@${['gmail.com', 'example.com', 'outlook.com'][n % 3]}`,
          first_name: 'Soak',
          last_name: `User${n}`,
          metadata: { plan: 'free' },
        };
        return { ...req, headers: key(), body: JSON.stringify({ session_id: ctx.sessionId, account }) };
      },
    },
    { method: 'GET', setupRequest: (req, ctx) => ({ ...req, path: `/session/${ctx.sessionId}`, headers: key() }) },
    { method: 'GET', setupRequest: (req, ctx) => ({ ...req, path: `/account/${ctx.accountId}`, headers: key() }) },
    {
      method: 'PUT',
      setupRequest: (req, ctx) => ({
        ...req,
        path: `/account/${ctx.accountId}`,
        headers: key(),
        body: JSON.stringify({ phone: `+4477009${String(Math.floor(Math.random() * 100000)).padStart(5, '0')}` }),
      }),
    },
    {
      method: 'POST',
      path: '/session/unauthenticated',
      setupRequest: (req, ctx) => ({ ...req, headers: key(), body: JSON.stringify({ session_id: ctx.sessionId }) }),
    },
    { method: 'GET', path: '/list', setupRequest: (req) => ({ ...req, headers: key() }) },
    {
      method: 'POST',
      path: '/liveness/session',
      setupRequest: (req, ctx) => ({
        ...req,
        headers: key(),
        body: JSON.stringify({ type: 'face-match', account_id: ctx.accountId, referring_session_id: ctx.sessionId }),
      }),
      onResponse(status, body, ctx) {
        if (status !== 200) return;
        const created = JSON.parse(body);
        ctx.verification = { id: created.session_id, token: new URL(created.url).searchParams.get('token') };
      },
    },
    {
      method: 'POST',
      setupRequest(req, ctx) {
        const v = ctx.verification ?? { id: randomUUID(), token: 'x' };
        return { ...req, path: `/liveness/${v.id}/cancel?token=${v.token}` };
      },
    },
    {
      method: 'GET',
      setupRequest: (req) => ({
        ...req,
        path: `/session/${randomUUID()}`,
        headers: { 'x-api-key': `tg_${randomBytes(24).toString('base64url')}` },
      }),
    },
    {
      method: 'POST',
      path: '/session/authenticate',
      setupRequest: (req) => ({
        ...req,
        headers: key(),
        body: JSON.stringify({ session_id: 'not-a-uuid', account: {} }),
      }),
    },
    { method: 'GET', path: '/healthz' },
  ];
}

async function main() {
  if (!fs.existsSync(MAIN)) {
    console.error('bench-soak: run `npm run build` first');
    process.exit(1);
  }
  const durationS = seconds(args.duration);
  const intervalS = seconds(args.interval);
  const warmupS = args.warmup ? seconds(args.warmup) : Math.max(30, durationS / 10);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-soak-'));
  const secretKey = randomBytes(32).toString('base64');

  let databaseUrl;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const knex = require(path.join(ROOT, 'node_modules', 'knex'));
    const admin = knex({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 } });
    const name = `tg_soak_${randomBytes(4).toString('hex')}`;
    await admin.raw(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    };
  }

  // The webhook receiver.
  let webhooks = 0;
  const receiver = http.createServer((rq, rs) => {
    rq.resume();
    rq.on('end', () => {
      webhooks++;
      rs.writeHead(200).end();
    });
  });
  await new Promise((r) => receiver.listen(0, '127.0.0.1', r));

  const passOn = [
    'SQLITE_CACHE_MB',
    'SQLITE_MMAP_MB',
    'DATABASE_POOL_SIZE',
    'DATABASE_HOT_CONNECTIONS',
    'EVALUATION_CONCURRENCY',
    'API_KEY_CACHE_TTL_MS',
    'RATE_LIMIT_STORE',
    'NODE_OPTIONS',
  ];
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    TRUSTGATE_SECRET_KEY: secretKey,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...Object.fromEntries(passOn.filter((k) => process.env[k]).map((k) => [k, process.env[k]])),
  };

  // The customer's project, made by the CLI before the server starts (it migrates the database).
  const created = JSON.parse(
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, 'bin', 'trustgate.js'),
        'project',
        'create',
        '--name',
        'soak',
        '--webhook-url',
        `http://127.0.0.1:${receiver.address().port}/hooks`,
        '--json',
      ],
      {
        env: { ...env, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    ),
  );

  const port = await freePort();
  const samples = [];
  const started = Date.now();
  const child = fork(__filename, ['--serve'], {
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_FAILURE_LIMIT_PER_IP: '1000000',
      INGEST_RATE_LIMIT_PER_IP: '1000000',
      INGEST_RATE_LIMIT_PER_PROJECT: '100000000',
      WEBHOOK_ALLOW_PRIVATE: '1',
      ANALYSIS_ENGINE: args.analysis ? 'local' : 'off',
      SOAK_INTERVAL_MS: String(intervalS * 1000),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const dbBytes = () =>
    ['trustgate.sqlite', 'trustgate.sqlite-wal'].reduce(
      (s, f) => s + (fs.existsSync(path.join(dataDir, f)) ? fs.statSync(path.join(dataDir, f)).size : 0),
      0,
    );
  let phase = 'start';
  let requestsSoFar = 0;
  child.on('message', (m) => {
    if (m.sample)
      samples.push({
        t: (Date.now() - started) / 1000,
        phase,
        requests: requestsSoFar,
        db: databaseUrl ? undefined : dbBytes(),
        ...m.sample,
      });
  });
  const exited = new Promise((r) => child.once('exit', r));
  const base = `http://127.0.0.1:${port}`;
  await until(async () => (await get(`${base}/healthz`)) === 200, 'the server to answer /healthz');

  const autocannon = require(path.join(ROOT, 'node_modules', 'autocannon'));
  console.log(
    `bench:soak: ${durationS} s of mixed load, ${args.connections} connections${Number(args.rate) > 0 ? `, at most ${args.rate} req/s` : ''}, ` +
      `samples every ${intervalS} s, warm-up ${warmupS} s; ${databaseUrl ? 'PostgreSQL' : 'SQLite'}, analysis ${args.analysis ? 'on' : 'off'}; ` +
      `${os.cpus().length} CPUs (${os.cpus()[0].model}), load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}, Node ${process.version}, ${new Date().toISOString()}`,
  );
  phase = 'load';
  const loadStarted = Date.now();
  const run = autocannon({
    url: base,
    connections: Number(args.connections),
    duration: durationS,
    ...(Number(args.rate) > 0 ? { overallRate: Number(args.rate) } : {}),
    requests: cycle({ apiKey: created.api_key, projectId: created.project_id }),
  });
  const statuses = {};
  run.on('response', (_client, statusCode) => {
    requestsSoFar++;
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await run;
  phase = 'end';
  await new Promise((r) => setTimeout(r, intervalS * 1000 + 200)); // one sample after the load
  child.kill('SIGTERM');
  await exited;
  receiver.close();
  await dropDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });

  // The series.
  console.log(
    `\nrequests ${result.requests.total} (${result.requests.average.toFixed(0)} req/s), statuses ${JSON.stringify(statuses)}, errors ${result.errors}, timeouts ${result.timeouts}, webhooks received ${webhooks}`,
  );
  const columns = [
    'rss',
    'RssAnon',
    'RssFile',
    'native',
    'heap',
    'heap GC',
    'heapTot',
    'external',
    'arrBuf',
    ...(databaseUrl ? [] : ['db file']),
  ];
  console.log(
    `\n${'t (s)'.padStart(7)} ${'requests'.padStart(9)} ${columns.map((c) => c.padStart(8)).join(' ')}   (MB: the interval's highest; heap GC: after the last full collection)`,
  );
  for (const s of samples) {
    const values = [
      s.rss,
      s.rssAnon,
      s.rssFile,
      s.native,
      s.heapUsed,
      s.heapAfterGc,
      s.heapTotal,
      s.external,
      s.arrayBuffers,
      ...(databaseUrl ? [] : [s.db]),
    ];
    console.log(
      `${s.t.toFixed(0).padStart(7)} ${String(s.requests).padStart(9)} ${values.map((v) => mb(v).padStart(8)).join(' ')}`,
    );
  }

  // The slopes.
  const loadStart = (loadStarted - started) / 1000;
  const measured = samples.filter((s) => s.phase === 'load' && s.t >= loadStart + warmupS);
  const middle = measured.length ? (measured[0].t + measured[measured.length - 1].t) / 2 : 0;
  const halves = [measured.filter((s) => s.t < middle), measured.filter((s) => s.t >= middle)];
  console.log(`\nslopes after the warm-up (${measured.length} samples), MB/min: first half → second half`);
  const verdicts = [];
  for (const [name, pick] of [
    ['rss', (s) => s.rss],
    ['RssAnon', (s) => s.rssAnon],
    ['RssFile', (s) => s.rssFile],
    ['native', (s) => s.native],
    ['heap GC', (s) => s.heapAfterGc],
    ['external', (s) => s.external],
    ...(databaseUrl ? [] : [['db file', (s) => s.db]]),
  ]) {
    const [a, b] = halves.map((h) => slopePerMinute(h.map((s) => ({ t: s.t, y: pick(s) }))));
    const levels = b <= Math.max(a / 4, 0.5);
    if (['rss', 'RssAnon', 'native', 'heap GC', 'external'].includes(name))
      verdicts.push(`${name} ${levels ? 'levels off' : 'still grows'}`);
    console.log(
      `  ${name.padEnd(9)} ${a.toFixed(2).padStart(8)} → ${b.toFixed(2).padStart(8)}   ${levels ? 'levels off' : 'still grows'}`,
    );
  }
  const first = measured[0];
  const last = measured[measured.length - 1];
  if (first && last)
    console.log(
      `  rss ${mb(first.rss)} MB at ${first.t.toFixed(0)} s → ${mb(last.rss)} MB at ${last.t.toFixed(0)} s (${(((last.rss - first.rss) / first.rss) * 100).toFixed(1)} %), max ${mb(Math.max(...samples.map((s) => s.rss)))} MB`,
    );
  if (first && last && !databaseUrl) {
    console.log(
      `  RssFile +${mb(last.rssFile - first.rssFile)} MB while the database file grew +${mb(last.db - first.db)} MB: SQLite's memory map of the file ` +
        `(SQLITE_MMAP_MB, 1024 by default) grows with the pages read, up to the file's size or the map's`,
    );
  }
  console.log(`\n${verdicts.join(', ')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
