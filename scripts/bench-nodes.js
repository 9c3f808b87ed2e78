#!/usr/bin/env node
// Several nodes on one PostgreSQL database: POST /session/authenticate?accounts_linked=true
// served by one node and by N, in one run, as a multi-node deployment runs them (docs/deploy.md,
// *Several nodes*): each node a server process of its own (`node dist/src/main.js`, one process,
// a DATA_DIR of its own), all on the same database, the load spread over them by autocannon's
// connections (as a round-robin balancer would).
//
//   npm run build && scripts/with-postgres.sh npm run bench:nodes [-- --nodes 3] [--duration 8]
//       [--connections 18] [--reuse <folder>]
//
// The database is seeded as `npm run bench:authenticate -- --keep` seeds it (10,000 sessions and
// accounts; or --reuse a folder it kept), and every request authenticates another live session
// with its own account. What is printed is each setup's req/s, p50 and p99, and N nodes over one.
// On a machine with fewer cores than nodes plus the database plus the load generator, the nodes
// share the cores, and the figure says what one more node costs rather than what it adds.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = path.join(__dirname, '..');
const { values: args } = parseArgs({
  options: {
    nodes: { type: 'string', default: '3' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '18' },
    reuse: { type: 'string' },
  },
});

/** The kept database's folder: --reuse, or seeded now by bench-authenticate. */
function keptDatabase() {
  if (args.reuse) return path.resolve(args.reuse);
  const out = execFileSync(
    process.execPath,
    [path.join(__dirname, 'bench-authenticate.js'), '--keep', '--duration', '1', '--rounds', '1', '--connections', '1'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const kept = /^kept (\S+) and PostgreSQL database/m.exec(out);
  if (!kept) throw new Error(`bench-authenticate kept no PostgreSQL database:\n${out.slice(-2000)}`);
  return kept[1];
}

/** One node: the compiled server on a free port with a data folder of its own; resolves once it listens. */
function startNode(bench, secretKey) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-bench-node-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: bench.databaseUrl,
      TRUSTGATE_SECRET_KEY: secretKey,
      RATE_LIMIT_PER_MINUTE: '1000000',
      ANALYSIS_ENGINE: 'off',
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      const listening = /"msg":"listening"[^\n]*"port":(\d+)|"port":(\d+)[^\n]*"msg":"listening"/.exec(buffered);
      if (listening) resolve({ child, dataDir, port: Number(listening[1] ?? listening[2]) });
    });
    child.once('exit', (code) => reject(new Error(`a node exited (${code}) before listening`)));
  });
}

async function stopNodes(nodes) {
  for (const n of nodes) n.child.kill('SIGTERM');
  await Promise.all(nodes.map((n) => new Promise((resolve) => n.child.once('exit', resolve))));
  for (const n of nodes) fs.rmSync(n.dataDir, { recursive: true, force: true });
}

/** Loads the nodes with authenticates of the kept live sessions; autocannon's summary. */
function load(nodes, bench, live, connections, duration) {
  const autocannon = require('autocannon');
  const headers = { 'x-api-key': bench.apiKey, 'content-type': 'application/json' };
  let next = bench.used ?? 0;
  const request = {
    method: 'POST',
    path: '/session/authenticate?accounts_linked=true',
    headers,
    setupRequest(r) {
      r.body = live[next++ % live.length];
      return r;
    },
  };
  return new Promise((resolve, reject) =>
    autocannon(
      { url: nodes.map((n) => `http://127.0.0.1:${n.port}`), connections, duration, requests: [request] },
      (err, result) => (err ? reject(err) : resolve(result)),
    ),
  );
}

async function main() {
  if (!process.env.DATABASE_URL) throw new Error('bench:nodes needs PostgreSQL: run it under scripts/with-postgres.sh');
  const count = Number(args.nodes);
  const connections = Number(args.connections);
  const duration = Number(args.duration);
  if (!Number.isInteger(count) || count < 2) throw new Error('--nodes must be an integer of at least 2');
  const folder = keptDatabase();
  const bench = JSON.parse(fs.readFileSync(path.join(folder, 'bench.json'), 'utf8'));
  const live = bench.live;
  const secretKey = bench.secretKey ?? randomBytes(32).toString('base64');
  const rows = [];
  for (const n of [1, count]) {
    const nodes = [];
    try {
      for (let i = 0; i < n; i++) nodes.push(await startNode(bench, secretKey));
      // Each node's first requests compile and connect: a warm-up, not measured.
      const warm = await load(nodes, bench, live, connections, 2);
      bench.used = (bench.used ?? 0) + warm.requests.total;
      const r = await load(nodes, bench, live, connections, duration);
      bench.used = (bench.used ?? 0) + r.requests.total;
      const ok = r['2xx'];
      rows.push({
        n,
        rps: ok / duration,
        p50: r.latency.p50,
        p99: r.latency.p99,
        ok,
        other: r.non2xx,
        errors: r.errors,
      });
    } finally {
      await stopNodes(nodes);
    }
  }
  console.log(
    `authenticate?accounts_linked=true on one PostgreSQL database, ${connections} connections, ${duration} s; ${os.cpus().length} cores`,
  );
  for (const r of rows)
    console.log(
      `  ${r.n} node${r.n > 1 ? 's' : ' '}  ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   (${r.ok} × 200, ${r.other} other, ${r.errors} errors)`,
    );
  const [one, many] = rows;
  console.log(
    `${count} nodes / 1 node: req/s ${(many.rps / one.rps).toFixed(2)}x, p50 ${(many.p50 / one.p50).toFixed(2)}x`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
