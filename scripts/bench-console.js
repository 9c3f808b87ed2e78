#!/usr/bin/env node
// Latency of the console's reads on a seeded history: the Search API (GET /sessions and
// GET /accounts with the filters a console sends, docs/api-search.md) and the account page
// (GET /account/{id} with its sessions, GET /sessions?account_id=), p50 and p99 of each.
//
//   npm run build && npm run bench:console [-- --sessions N | --million] [--duration 10]
//       [--connections 4] [--keep | --reuse <folder>]
//
// 1. Seeds N sessions and N accounts (default 10,000; --million for 1,000,000) with the seeding
//    of bench-authenticate.js (its `prepare`: the same history in the same proportions, SQLite in
//    a temporary folder or PostgreSQL when DATABASE_URL is set), or, with --reuse <folder>, takes
//    a database a previous run kept (--keep here, or `npm run bench:authenticate -- --keep`).
// 2. Starts the compiled server as bench-authenticate.js does (its --serve: makeRuntime +
//    createApp with the production configuration, the rate limit raised), in a process of its own.
// 3. Reads sample values through the API (accounts, devices, addresses, blocks of the newest
//    sessions), then loads each scenario with autocannon for --duration seconds over
//    --connections connections, every request with the next sample value, and prints the
//    latencies. The target of issue 20: search and the account page within 300 ms on 1,000,000
//    sessions on the project's 2-core machine.
//
// Nothing is added to the server for the benchmark.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { fork } = require('node:child_process');
const { parseArgs } = require('node:util');

const ROOT = path.resolve(__dirname, '..');
if (!fs.existsSync(path.join(ROOT, 'dist', 'src', 'app.js'))) {
  console.error('bench-console: run `npm run build` first');
  process.exit(1);
}
const AUTHENTICATE_BENCH = path.join(__dirname, 'bench-authenticate.js');
const { prepare } = require(AUTHENTICATE_BENCH);

const { values: args } = parseArgs({
  options: {
    sessions: { type: 'string' },
    million: { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '4' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
  },
});

/** The server (bench-authenticate.js --serve) on the bench's database; resolves with its base URL and a stop. */
async function startServer(bench) {
  const child = fork(AUTHENTICATE_BENCH, ['--serve'], {
    env: {
      ...process.env,
      BENCH_DATA_DIR: bench.dataDir,
      ...(bench.databaseUrl ? { DATABASE_URL: bench.databaseUrl } : {}),
      // The reads measured here never look an address up.
      BENCH_IP_DATA: 'stub',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  process.once('exit', () => child.kill());
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return {
    base: `http://127.0.0.1:${ready.port}`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.send('stop');
      }),
  };
}

/** Sample values for the requests, read through the API itself (the newest sessions and the first accounts). */
async function samples(base, headers) {
  const get = async (p) => {
    const res = await fetch(`${base}${p}`, { headers });
    if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const { sessions } = await get('/sessions?limit=500');
  const { accounts } = await get('/accounts?limit=500');
  const distinct = (xs) => [...new Set(xs.filter(Boolean))];
  const domains = distinct(accounts.map((a) => a.account.email?.split('@')[1]));
  const accountIds = distinct(sessions.flatMap((s) => s.account_ids));
  const blocks = distinct(sessions.map((s) => s.ip_address.split('.').slice(0, 3).join('.'))).map((b) => `${b}.0/24`);
  if (!accountIds.length) throw new Error('no account in the seeded history');
  return {
    accountIds,
    devices: distinct(sessions.map((s) => s.device_id)),
    ips: distinct(sessions.map((s) => s.ip_address)),
    blocks: blocks.filter((b) => /^\d+\.\d+\.\d+\.0\/24$/.test(b)),
    domains,
    countries: distinct(sessions.map((s) => s.country_code)),
  };
}

/** The scenarios: a name and the paths its requests take in turn. */
function scenarios(s, now) {
  const day = 24 * 3_600_000;
  const iso = (ms) => encodeURIComponent(new Date(ms).toISOString());
  const week = `from=${iso(now - 7 * day)}&to=${iso(now)}`;
  const each = (xs, f) => xs.map(f);
  return [
    ['search: GET /sessions (newest)', ['/sessions']],
    ['search: GET /sessions?decision=Fake', ['/sessions?decision=Fake']],
    ['search: GET /sessions?signal=vpn&min_score=0.5', ['/sessions?signal=vpn&min_score=0.5']],
    [
      'search: GET /sessions?country=&decision=Fake&<last 7 days>',
      each(s.countries, (c) => `/sessions?country=${c}&decision=Fake&${week}`),
    ],
    ['search: GET /sessions?device_id=', each(s.devices, (d) => `/sessions?device_id=${encodeURIComponent(d)}`)],
    ['search: GET /sessions?ip_address=', each(s.ips, (ip) => `/sessions?ip_address=${encodeURIComponent(ip)}`)],
    ['search: GET /sessions?network=', each(s.blocks, (b) => `/sessions?network=${encodeURIComponent(b)}`)],
    ['search: GET /accounts (first page)', ['/accounts']],
    ['search: GET /accounts?decision=Fake', ['/accounts?decision=Fake']],
    ['search: GET /accounts?list=block', ['/accounts?list=block']],
    [
      'search: GET /accounts?email_domain=&decision=Real',
      each(s.domains, (d) => `/accounts?email_domain=${d}&decision=Real`),
    ],
    ['search: GET /accounts?device_id=', each(s.devices, (d) => `/accounts?device_id=${encodeURIComponent(d)}`)],
    ['account page: GET /account/{id}', each(s.accountIds, (id) => `/account/${encodeURIComponent(id)}`)],
    [
      'account page: GET /sessions?account_id=',
      each(s.accountIds, (id) => `/sessions?account_id=${encodeURIComponent(id)}`),
    ],
  ];
}

function load(autocannon, options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function main() {
  let bench;
  if (args.reuse) {
    bench = JSON.parse(fs.readFileSync(path.join(args.reuse, 'bench.json'), 'utf8'));
    console.log(`reusing ${bench.dataDir}: ${bench.description}`);
  } else {
    const n = args.million ? 1_000_000 : Number(args.sessions ?? 10_000);
    if (!Number.isInteger(n) || n < 100) throw new Error('--sessions must be an integer of at least 100');
    bench = await prepare(n);
  }
  const duration = Number(args.duration);
  const connections = Number(args.connections);
  if (!(duration > 0) || !Number.isInteger(connections) || connections < 1)
    throw new Error('--duration must be positive and --connections an integer of at least 1');

  const autocannon = require('autocannon');
  const server = await startServer(bench);
  const results = [];
  try {
    const headers = { 'x-api-key': bench.apiKey };
    const s = await samples(server.base, headers);
    for (const [name, paths] of scenarios(s, bench.seededAt ?? Date.now())) {
      let i = 0;
      const r = await load(autocannon, {
        url: server.base,
        connections,
        duration,
        requests: [
          {
            method: 'GET',
            headers,
            setupRequest(request) {
              request.path = paths[i++ % paths.length];
              return request;
            },
          },
        ],
      });
      const row = { name, p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, total: r.requests.total };
      row.failed = r.non2xx + r.errors + r.timeouts;
      results.push(row);
      console.log(
        `${name.padEnd(62)} p50 ${String(row.p50).padStart(5)} ms  p99 ${String(row.p99).padStart(5)} ms  ${row.rps.toFixed(0).padStart(6)} req/s${row.failed ? `  (${row.failed} failed)` : ''}`,
      );
    }
  } finally {
    await server.stop();
    await discard(bench);
  }
  const slowest = results.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  console.log(
    `\n${bench.n.toLocaleString('en')} sessions, ${bench.dialect}, ${connections} connections, ${duration} s each: slowest p99 ${slowest.p99} ms (${slowest.name}); the target is 300 ms on 1,000,000 sessions`,
  );
  if (results.some((r) => r.failed)) process.exitCode = 1;
}

/** Keeps the database (--keep, or a reused one) for --reuse, or removes it. */
async function discard(bench) {
  if (args.keep || args.reuse) {
    fs.writeFileSync(path.join(bench.dataDir, 'bench.json'), JSON.stringify(bench));
    console.log(`kept ${bench.dataDir}: measure it again with --reuse ${bench.dataDir}`);
    return;
  }
  if (bench.database) {
    const admin = require('knex')({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 } });
    await admin.raw(`DROP DATABASE IF EXISTS ${bench.database} WITH (FORCE)`);
    await admin.destroy();
  }
  fs.rmSync(bench.dataDir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(String(e?.stack ?? e).slice(0, 2000));
  process.exit(1);
});
