#!/usr/bin/env node
// Webhook delivery under load: verification sessions are ended through the HTTP API and their
// webhooks delivered by the server's own dispatcher to a loopback receiver.
//
//   npm run build && npm run bench:webhooks [-- --n 1000] [--latency-n 500] [--fail-rate 0.3] [--timeout 180]
//
// The server is the compiled one (dist/, makeRuntime + createApp + the inline webhook worker,
// as `npm start` runs it, with the worker's production settings: workerSettings(config) and
// the default poll) in a child process, on a fresh SQLite file in a temporary folder, or on
// PostgreSQL when DATABASE_URL is set (a new database there, dropped afterwards). The only
// change for the bench: the retry schedule is webhooks.yaml's scaled by WEBHOOK_RETRY_SCALE=0.001
// (3 ms, 10 ms, 180 ms, 1.8 s, …) so that a run with failures ends in minutes.
//
// Sessions end by the hosted page's Cancel (POST /liveness/{id}/cancel): the terminal
// transition and its outbox row are the same for every ending, and the bench measures
// delivery, not face analysis (bench:analysis measures that).
//
// Three phases:
// 1. Completion to delivery, the worker running: sessions are ended one every 10 ms (paced),
//    then by --concurrency clients as fast as the API answers (burst), with the server's own
//    worker; then paced again with a separate `trustgate worker` process instead (the server's
//    worker stopped, as with WEBHOOK_WORKER=off): on PostgreSQL it is woken by NOTIFY, on
//    SQLite it finds the webhooks by its poll. For each webhook, the time from the session's
//    completion (the envelope's completed_at, stamped by the server just before the
//    transaction that ends the session and queues the webhook) to its arrival at the receiver
//    (same machine, same clock); printed as p50, p99 and max.
// 2. Draining a full outbox to a healthy receiver: all N sessions are ended first (the
//    server's worker stopped), then the worker starts and one dispatcher delivers them.
// 3. The same with the receiver failing --fail-rate of requests at random (500).
// Printed for 2 and 3: sessions ended per second (HTTP), deliveries per second (N over the
// time to the last delivery), the time to 99% delivered (with failures the last ones wait out
// the scaled backoff), requests the receiver saw, webhooks lost (never delivered before the
// timeout: must be 0), sessions whose requests carried more than one request_id (must be 0).
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { fork, spawn } = require('node:child_process');
const { once } = require('node:events');
const readline = require('node:readline');
const { randomBytes } = require('node:crypto');
const { parseArgs } = require('node:util');

const ROOT = path.resolve(__dirname, '..');
const dist = path.join(ROOT, 'dist', 'src');
if (!fs.existsSync(path.join(dist, 'app.js'))) {
  console.error('bench-webhooks: run `npm run build` first');
  process.exit(1);
}
const req = (p) => require(path.join(dist, p));

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '1000' },
    'latency-n': { type: 'string', default: '500' },
    'fail-rate': { type: 'string', default: '0.3' },
    timeout: { type: 'string', default: '180' },
    concurrency: { type: 'string', default: '16' },
    serve: { type: 'boolean', default: false },
  },
});

// ------------------------------------------------------------------------------------------
// Server (child process)

async function serve() {
  const { loadConfig } = req('config/index.js');
  const { makeLogger } = req('logger.js');
  const { makeRuntime } = req('composition.js');
  const { createApp } = req('app.js');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: process.env.BENCH_DATA_DIR,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    TRUSTGATE_SECRET_KEY: process.env.BENCH_SECRET_KEY,
    RATE_LIMIT_PER_MINUTE: '1000000',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_SCALE: '0.001',
    LOG_LEVEL: 'silent',
  });
  const logger = makeLogger(config.logLevel);
  const runtime = await makeRuntime(config, logger, { ipData: false, analysis: false });
  let stop;
  let worker = Promise.resolve();
  const startWorker = () => {
    stop = new AbortController();
    worker = runtime.startWorker(stop.signal);
  };
  const stopWorker = async () => {
    stop?.abort();
    await worker;
  };
  const app = createApp({ config, services: runtime.services });
  const server = app.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', async (m) => {
    if (m.project) {
      const p = await runtime.services.projects.create({ name: m.project });
      await runtime.services.projects.setWebhook(p.project_id, m.webhookUrl);
      process.send({ project: p });
    } else if (m === 'worker-start') {
      startWorker();
      process.send({ worker: 'started' });
    } else if (m === 'worker-stop') {
      await stopWorker();
      process.send({ worker: 'stopped' });
    } else if (m === 'stop') {
      server.close();
      await stopWorker();
      await runtime.close().catch(() => {});
      process.exit(0);
    }
  });
}

// ------------------------------------------------------------------------------------------
// Load generator (main process)

function receiver(failRate) {
  const bySession = new Map(); // session_id → { ids: Set<request_id>, attempts, delivered, latencyMs }
  let requests = 0;
  let lastDelivery = 0;
  const deliveries = [];
  const server = http.createServer((rq, rs) => {
    const chunks = [];
    rq.on('data', (c) => chunks.push(c));
    rq.on('end', () => {
      requests++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const entry = bySession.get(body.session_id) ?? { ids: new Set(), attempts: 0, delivered: false };
      bySession.set(body.session_id, entry);
      entry.ids.add(body.request_id);
      entry.attempts++;
      if (Math.random() < failRate) return rs.writeHead(500).end();
      if (!entry.delivered) {
        deliveries.push(performance.now());
        entry.latencyMs = Date.now() - Date.parse(body.completed_at);
      }
      entry.delivered = true;
      lastDelivery = performance.now();
      rs.writeHead(200).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}/hooks`,
        bySession,
        deliveries,
        requests: () => requests,
        lastDelivery: () => lastDelivery,
        close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))),
      }),
    ),
  );
}

async function pool(items, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

const ask = (child, message) => (child.send(message), new Promise((r) => child.once('message', r)));

/** A project whose webhooks go to a new receiver, and N open verification sessions in it. */
async function setUp(child, base, n, failRate, concurrency) {
  const rx = await receiver(failRate);
  const { project } = await ask(child, { project: `bench ${failRate} ${Date.now()}`, webhookUrl: rx.url });
  const post = (p, body) =>
    fetch(base + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': project.api_key },
      body: body && JSON.stringify(body),
    }).then(async (res) => {
      if (!res.ok) throw new Error(`${p} → ${res.status} ${await res.text()}`);
      return res.json();
    });
  const sessions = [];
  await pool(
    Array.from({ length: n }, (_, i) => i),
    concurrency,
    async () => {
      const created = await post('/liveness/session', { type: 'face-match' });
      sessions.push({ id: created.session_id, token: new URL(created.url).searchParams.get('token') });
    },
  );
  const cancel = (s) => post(`/liveness/${s.id}/cancel?token=${encodeURIComponent(s.token)}`);
  const delivered = () => sessions.filter((s) => rx.bySession.get(s.id)?.delivered).length;
  const waitForAll = async (timeoutS) => {
    const deadline = Date.now() + timeoutS * 1000;
    while (delivered() < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  return { rx, sessions, cancel, delivered, waitForAll };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * q) - 1)];

/** The server's own worker, started and stopped through the server process. */
const inlineWorker = (child) => ({ start: () => ask(child, 'worker-start'), stop: () => ask(child, 'worker-stop') });

/**
 * A `trustgate worker` process, as an operator runs it next to servers with WEBHOOK_WORKER=off;
 * started once it is ready (on PostgreSQL: listening).
 */
function workerProcess(env, postgres) {
  let proc;
  return {
    async start() {
      proc = spawn(process.execPath, [path.join(ROOT, 'bin', 'trustgate.js'), 'worker'], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const ready = postgres ? 'listening for queued webhooks' : 'webhook worker started';
      await new Promise((resolve, reject) => {
        readline
          .createInterface({ input: proc.stderr })
          .on('line', (line) => JSON.parse(line).msg === ready && resolve());
        proc.once('exit', (code) => reject(new Error(`trustgate worker exited (${code})`)));
      });
    },
    async stop() {
      proc.kill('SIGTERM');
      await once(proc, 'exit');
    },
  };
}

/** Completion-to-delivery latencies (ms) of N webhooks queued while `worker` runs. */
async function latencyPhase(child, base, n, timeoutS, concurrency, paced, worker) {
  const { rx, sessions, cancel, delivered, waitForAll } = await setUp(child, base, n, 0, concurrency);
  await worker.start();
  if (paced) {
    for (const s of sessions) {
      await cancel(s);
      await new Promise((r) => setTimeout(r, 10));
    }
  } else await pool(sessions, concurrency, cancel);
  await waitForAll(timeoutS);
  await worker.stop();
  const latencies = sessions
    .map((s) => rx.bySession.get(s.id)?.latencyMs)
    .filter((l) => l !== undefined)
    .sort((a, b) => a - b);
  await rx.close();
  return {
    n,
    lost: n - delivered(),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies[latencies.length - 1],
  };
}

async function phase(child, base, n, failRate, timeoutS, concurrency) {
  const { rx, sessions, cancel, delivered, waitForAll } = await setUp(child, base, n, failRate, concurrency);
  const ending = performance.now();
  await pool(sessions, concurrency, cancel);
  const endSeconds = (performance.now() - ending) / 1000;
  const started = performance.now();
  await ask(child, 'worker-start');
  await waitForAll(timeoutS);
  await ask(child, 'worker-stop');
  const seconds = (rx.lastDelivery() - started) / 1000;
  const ok = delivered();
  const p99 = (rx.deliveries[Math.ceil(n * 0.99) - 1] - started) / 1000;
  const multi = sessions.filter((s) => (rx.bySession.get(s.id)?.ids.size ?? 0) > 1).length;
  const attempts = sessions.map((s) => rx.bySession.get(s.id)?.attempts ?? 0);
  await rx.close();
  return {
    failRate,
    n,
    endSeconds,
    seconds,
    p99,
    perSecond: ok / seconds,
    requests: attempts.reduce((a, b) => a + b, 0),
    lost: n - ok,
    multi,
    maxAttempts: Math.max(...attempts),
  };
}

async function main() {
  const n = Number(args.n);
  const failRate = Number(args['fail-rate']);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-bench-webhooks-'));
  let databaseUrl;
  let dropDatabase = async () => {};
  if (process.env.DATABASE_URL) {
    const knex = require('knex')({ client: 'pg', connection: process.env.DATABASE_URL });
    const name = `bench_webhooks_${Date.now()}`;
    await knex.raw(`create database ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      await knex.raw(`drop database if exists ${name}`);
      await knex.destroy();
    };
  }
  const secretKey = randomBytes(32).toString('base64');
  const child = fork(__filename, ['--serve'], {
    env: {
      ...process.env,
      BENCH_DATA_DIR: dataDir,
      BENCH_SECRET_KEY: secretKey,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
  const separateWorker = workerProcess(
    {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      TRUSTGATE_SECRET_KEY: secretKey,
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETRY_SCALE: '0.001',
      LOG_LEVEL: 'info',
    },
    Boolean(databaseUrl),
  );
  const { port } = await new Promise((r) => child.once('message', r));
  const base = `http://127.0.0.1:${port}`;
  console.log(
    `bench:webhooks: ${n} sessions per phase, database ${databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${os.cpus().length} CPUs, Node ${process.version}`,
  );
  const results = [];
  try {
    const latencies = [
      { paced: true, worker: inlineWorker(child), label: "the server's worker" },
      { paced: false, worker: inlineWorker(child), label: "the server's worker" },
      {
        paced: true,
        worker: separateWorker,
        label: `a separate trustgate worker process (${databaseUrl ? 'woken by NOTIFY' : 'SQLite: its poll'})`,
      },
    ];
    for (const { paced, worker, label } of latencies) {
      const r = await latencyPhase(
        child,
        base,
        Number(args['latency-n']),
        Number(args.timeout),
        Number(args.concurrency),
        paced,
        worker,
      );
      results.push(r);
      console.log(
        `completion to delivery, ${label}, ${r.n} sessions ${paced ? 'ended one every 10 ms' : `ended by ${args.concurrency} clients at once`}: ` +
          `p50 ${r.p50} ms, p99 ${r.p99} ms, max ${r.max} ms; lost ${r.lost}`,
      );
    }
    for (const rate of [0, failRate]) {
      const r = await phase(child, base, n, rate, Number(args.timeout), Number(args.concurrency));
      results.push(r);
      console.log(
        `receiver failing ${Math.round(rate * 100)}%: ${(n / r.endSeconds).toFixed(0)} sessions ended/s; ${r.perSecond.toFixed(0)} deliveries/s ` +
          `(99% delivered in ${r.p99.toFixed(2)} s, all in ${r.seconds.toFixed(2)} s); ${r.requests} requests, at most ${r.maxAttempts} attempts for one webhook; ` +
          `lost ${r.lost}; sessions with more than one request_id ${r.multi}`,
      );
    }
  } finally {
    child.send('stop');
    await new Promise((r) => child.once('exit', r));
    await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (results.some((r) => r.lost > 0 || (r.multi ?? 0) > 0)) {
    console.error('bench:webhooks: webhooks were lost or a session had more than one request_id');
    process.exit(1);
  }
}

if (args.serve) serve();
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
