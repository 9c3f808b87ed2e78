#!/usr/bin/env node
// Load test of the risk engine: POST /session/authenticate?accounts_linked=true against a
// seeded history, beside a bare route of the same server, to show what an evaluation costs and
// that it does not grow with the history (every query starts from an index).
//
//   npm run build && npm run bench:authenticate [-- --n 1000000 | --million] [--duration 15]
//       [--connections 1,16] [--rounds 1] [--stub-ip-data] [--spread-domains] [--profile] [--wal-pages]
//       [--keep | --reuse <folder>] [--processes N] [--cpu-prof <folder>] [--live K] [--rules N]
//       [--reuse <folder> --against <folder> [--cold]] [--crowded [--requests 15000]]
//
// 1. Seeds N sessions and N accounts (default 10,000; --million for 1,000,000) into a fresh
//    database: a SQLite file in a temporary folder, or PostgreSQL when DATABASE_URL is set (a
//    new database on that server, dropped afterwards unless --keep). Rows are inserted directly
//    (knex batch inserts in transactions) with the columns the repositories write
//    (sessions.ts insert/searchColumns/setEvaluation, accounts.ts toRow, lists.ts); the facts
//    are the spec's AuthenticateResponseReal session with this session's device, address and
//    start. The history shares identifiers the way people do, in the same proportions at any N
//    (so an evaluation finds about as many links at 10,000 as at 1,000,000): devices (about two
//    accounts each, most sessions on the account's own), browser fingerprints, native
//    mobile_id / DeviceCheck keys, addresses in /24 blocks (about 20 sessions per block),
//    emails at six domains (some addresses on two accounts), phones, names, usernames; 1% of
//    accounts on the block list, 2% on allow, 3% on a custom list; 3% of evaluated sessions
//    decided Fake. 30% of sessions started in the last 5 hours (live: an evaluation must come
//    within 24 hours of the start), the rest over the 90 days before yesterday. A live session
//    of an account is not linked to it yet: its first authenticate links it (the link inserted,
//    with what the link's triggers keep), as a customer's first call for a session does.
// 2. Starts the compiled server (dist/, as `npm start` runs it: makeRuntime + createApp with the
//    production configuration, so response validation off) in a child process on a loopback
//    port, with the real shipped IP data (--stub-ip-data for none: authenticate never reads it,
//    only ingestion does) and the shipped IP lists, and the API rate limit raised to 1,000,000
//    a minute (counted where RATE_LIMIT_STORE says, by default in the database).
// 3. Loads it with autocannon (duration 15 s), at 1 connection and then at 16 (`--connections`
//    takes a list; latencies from each response's time, to the microsecond): at each, first the
//    bare route, then
//    POST /session/authenticate?accounts_linked=true, each request for another live session
//    with its own account; the ratios are printed for each number of connections.
//
// With --against, two kept databases (say 1,000,000 sessions with --reuse and 10,000 with
// --against, and --live K to authenticate the same number of users in each) are measured in turn,
// a server on each, `--rounds` pairs: each pair's p50 and req/s of authenticate at the most
// connections, their ratio, and the median ratio of the pairs after the first. Before the first
// pair each SQLite file is read once from start to end, so that both are in the operating
// system's cache, as a running server's file is on a machine with the memory for it: what is
// compared is the engine's work at each size, not the disk. Out of the cache, a 1,000,000-session
// file (5 GB) is read piecemeal by the requests of the first pairs, which then measure the disk.
// --cold measures without reading them first.
//
// The bare route is POST /session/unauthenticated for a session id that does not exist: the
// same middleware as authenticate (JSON body, rate limit, spec validation of the request, API
// key lookup: two indexed queries) and one indexed lookup of the session, then a 400.
// GET /healthz does less (no key, no rate limit, no body) but queries the database too.
// Nothing is added to the server for the benchmark.
//
// --cpu-prof <folder> writes the server's V8 CPU profile (.cpuprofile, for Chrome's DevTools) there.
//
// Each run prints the server's CPU time per request (all threads, and the main thread) and, on a
// PostgreSQL server on the same machine, the CPU time of the database's processes serving it.
//
// --profile times every SQL statement in the server (knex query events) and prints the
// statements by total time.
//
// --wal-pages (SQLite) prints the pages the commits of the last authenticate run wrote into
// SQLite's write-ahead log, a commit and by B-tree (scripts/wal-pages.js: the log's frames
// appended during the run, read as the load stops, or since the log last started again if it did
// during the run; each page named from `dbstat` after it; page 1, the file's header, is
// `sqlite_schema`'s and is written whenever the file grows; the run's few other commits, the rate
// limits' leases and the evaluation counts, count too: 2,158 commits for 2,126 authenticates in a
// 2 s run). A first authenticate's commit costs its pages: each written into the log and copied
// again into the file by a checkpoint.
//
// --rounds R measures bare and authenticate in turn R times and prints the medians too, and each
// round's authenticate against the bare route measured just before it, with their median (the
// machine may be busy with other work). --keep keeps the seeded database (and what the bench
// needs of it, in bench.json) for --reuse <folder>, which measures it again without seeding, from
// the next unused live session, within 18 hours of the seeding.
//
// --processes N (N > 1) measures the server twice in one run, as one process and as N (a
// node:cluster primary whose workers each call makeRuntime + createApp, as WEB_CONCURRENCY=N
// runs it), and prints the N-process figures over the 1-process ones for both routes and for
// `GET /healthz` (one trivial read on the request thread's connection, nothing written: a
// CPU-bound route that the processes do not contend for in the database).
//
// --live K authenticates only the first K live sessions, in turn (each with its own account,
// already linked after its first time): the same users at any N, so that two sizes of history
// are compared on the same requests over the same working set. Without it each request takes
// the next unused live session, and a 10,000-session history (about 3,000 live) soon runs out
// and authenticates them again, while a 1,000,000-session one authenticates each for the first
// time, on pages no request has read before.
//
// --rules N puts a rules document of N rules (docs/rules.md; up to 200) on the project before
// measuring, to show what the rules cost an evaluation (each request evaluates all of them).
// METRICS=off (passed to the server like EVALUATION_CONCURRENCY and the SQLite settings) measures
// without the Prometheus metrics.
//
// --spread-domains puts the addresses at N/100 business domains (about 100 accounts each)
// instead of six. (Before num_account_from_domain became a kept count, the domain counts read
// every account at the domain and grew with N at six domains; the option isolates such effects.)
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork } = require('node:child_process');
const cluster = require('node:cluster');
const { createHash, randomBytes, randomUUID } = require('node:crypto');
const { parseArgs } = require('node:util');
// Deterministic, so that every run seeds the same history.
const { mulberry32: prng } = require('./prng');
const walPagesOf = require('./wal-pages');

const ROOT = path.resolve(__dirname, '..');
const dist = path.join(ROOT, 'dist', 'src');
if (!fs.existsSync(path.join(dist, 'app.js'))) {
  console.error('bench-authenticate: run `npm run build` first');
  process.exit(1);
}
const req = (p) => require(path.join(dist, p));

// Required by another bench (bench-console.js, for prepare and the seeding): its options are not ours.
const { values: args } = parseArgs({
  args: require.main === module ? process.argv.slice(2) : [],
  options: {
    n: { type: 'string' },
    million: { type: 'boolean', default: false },
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '1,16' },
    'stub-ip-data': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'spread-domains': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
    against: { type: 'string' },
    cold: { type: 'boolean', default: false },
    processes: { type: 'string', default: '1' },
    'cpu-prof': { type: 'string' },
    'wal-pages': { type: 'boolean', default: false },
    live: { type: 'string' },
    rules: { type: 'string' },
    // scripts/bench-crowded.js: a history that crowds as it runs, against one that does not.
    crowded: { type: 'boolean', default: false },
    requests: { type: 'string', default: '15000' },
    // Internal: run as the server process.
    serve: { type: 'boolean', default: false },
  },
});

const BARE = 'bare: POST /session/unauthenticated (unknown, 400)';
const AUTH = 'POST /session/authenticate?accounts_linked=true';
const HEALTH = 'GET /healthz (one read, nothing written)';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RATE_LIMIT = 1_000_000;

// ------------------------------------------------------------------------------------------
// Server (child process)

/** With BENCH_PROCESSES > 1: a cluster primary that relays the workers' port, statement counts and profiles, and the stop. */
function servePrimary(workers) {
  const all = Array.from({ length: workers }, () => cluster.fork());
  let listening = 0;
  let profiles = [];
  let counts = [];
  let cpus = [];
  for (const worker of all) {
    worker.on('message', (m) => {
      if (m && m.port && ++listening === workers) process.send(m);
      // The cluster's CPU: the workers' (each process whole, and their main threads) and the primary's own.
      if (m && m.cpu && cpus.push(m.cpu) === workers) {
        const sum = (key) => cpus.reduce((a, c) => a + (c[key] ?? NaN), 0);
        const primary = serverCpu();
        // (Every worker sees the same database processes: the bench database's connections.)
        process.send({ cpu: { all: sum('all') + primary.all, main: sum('main'), database: cpus[0].database } });
        cpus = [];
      }
      if (m && m.statements !== undefined && counts.push(m) === workers) {
        const sum = (key) => counts.reduce((a, c) => a + c[key], 0);
        process.send({ statements: sum('statements'), preparations: sum('preparations') });
        counts = [];
      }
      if (m && m.profile && profiles.push(m.profile) === workers) {
        const merged = new Map();
        for (const [sql, p] of profiles.flat()) {
          const q = merged.get(sql) ?? { calls: 0, ms: 0 };
          merged.set(sql, { calls: q.calls + p.calls, ms: q.ms + p.ms });
        }
        process.send({ profile: [...merged.entries()] });
        profiles = [];
      }
    });
  }
  process.on('message', (m) => {
    for (const worker of all) worker.send(m);
    if (m === 'stop')
      Promise.all(all.map((w) => new Promise((resolve) => w.once('exit', resolve)))).then(() => process.exit(0));
  });
}

/**
 * CPU time this server process has used, in µs: all threads, and its main thread alone (Linux,
 * from /proc; undefined elsewhere). Unlike req/s, CPU per request hardly moves when other work
 * shares the machine, so it compares two builds on a busy machine.
 */
function serverCpu() {
  const { user, system } = process.cpuUsage();
  let main;
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks, after the parenthesised command name.
    const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    main = ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    main = undefined;
  }
  return { all: user + system, main };
}

/**
 * PostgreSQL: the CPU time, in µs by process id, of the database's server processes serving this
 * server's connections (`pg_stat_activity` of the bench's database; /proc, so only when PostgreSQL
 * runs on this machine; undefined otherwise, and on SQLite). On two shared cores the database
 * takes about as much as the server, and, like the server's, its CPU per request moves far less
 * than req/s.
 */
async function databaseCpu(db) {
  if (db.client.config.client !== 'pg') return undefined;
  const { rows } = await db.raw('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  const out = {};
  for (const { pid } of rows) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out[pid] = ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
    } catch {
      return undefined;
    }
  }
  return out;
}

async function serve() {
  const processes = Number(process.env.BENCH_PROCESSES || 1);
  if (processes > 1 && cluster.isPrimary) return servePrimary(processes);
  const { loadConfig } = req('config/index.js');
  const { makeLogger } = req('logger.js');
  const { makeRuntime } = req('composition.js');
  const { createApp } = req('app.js');
  const { createHttpServer } = req('http/server.js');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: process.env.BENCH_DATA_DIR,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    IP_LISTS_DIR: path.join(process.env.BENCH_DATA_DIR, 'ip-lists'),
    TRUSTGATE_SECRET_KEY: process.env.BENCH_SECRET_KEY,
    RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
    // As WEB_CONCURRENCY=N starts the workers (with its defaults: no SQLite memory map above 1).
    WEB_CONCURRENCY: String(processes),
    // Settings an operator would tune, passed through when set.
    ...Object.fromEntries(
      [
        'EVALUATION_CONCURRENCY',
        'METRICS',
        'SQLITE_CACHE_MB',
        'SQLITE_MMAP_MB',
        'SQLITE_CHECKPOINT_MS',
        'SQLITE_THREAD',
        'DATABASE_POOL_SIZE',
        'DATABASE_HOT_CONNECTIONS',
      ]
        .filter((k) => process.env[k])
        .map((k) => [k, process.env[k]]),
    ),
    ...(process.env.RATE_LIMIT_STORE ? { RATE_LIMIT_STORE: process.env.RATE_LIMIT_STORE } : {}),
    LOG_LEVEL: 'silent',
  });
  const logger = makeLogger(config.logLevel);
  const runtime = await makeRuntime(config, logger, {
    ipData: process.env.BENCH_IP_DATA !== 'stub',
    analysis: false,
    migrate: !cluster.isWorker,
  });

  // The statements the server sends to the database are counted between two 'statements'
  // messages (the bench reports statements per request), and only then: with nothing listening,
  // the SQLite thread does not send its statements back (src/storage/db.ts), as in production.
  // (A PostgreSQL write text's PREPARE, once per connection and text, is counted apart.)
  let statements = 0;
  let preparations = 0;
  let counting = false;
  const count = (q) => (q.method === 'prepare' ? preparations++ : statements++);
  const profile = new Map();
  if (process.env.BENCH_PROFILE) {
    const started = new Map();
    const shape = (sql) => sql.replace(/(\?|\$\d+)(, (\?|\$\d+))+/g, '…');
    const add = (sql, ms) => {
      const p = profile.get(sql) ?? { calls: 0, ms: 0 };
      p.calls++;
      p.ms += ms;
      profile.set(sql, p);
    };
    runtime.db.on('query', (q) => {
      // The SQLite thread's statements come timed (src/storage/sqlite/thread.ts).
      if (q.thread) add(`[${q.thread} thread] ${shape(q.sql)}`, q.ms);
      else started.set(q.__knexQueryUid, { sql: shape(q.sql), t: process.hrtime.bigint() });
    });
    const done = (_r, q) => {
      const s = started.get(q.__knexQueryUid);
      if (!s) return;
      started.delete(q.__knexQueryUid);
      add(s.sql, Number(process.hrtime.bigint() - s.t) / 1e6);
    };
    runtime.db.on('query-response', done);
    runtime.db.on('query-error', (e, q) => done(e, q));
  }

  // The HTTP server main.ts runs around the app.
  const server = createHttpServer(createApp({ ...runtime, config }));
  server.listen(0, '127.0.0.1', () =>
    process.send({ port: server.address().port, validateResponses: config.validateResponses }),
  );
  process.on('message', async (m) => {
    if (m === 'cpu') {
      process.send({ cpu: { ...serverCpu(), database: await databaseCpu(runtime.db) } });
    } else if (m === 'statements') {
      process.send({ statements, preparations });
      statements = 0;
      preparations = 0;
      if (counting) runtime.db.off('query', count);
      else runtime.db.on('query', count);
      counting = !counting;
    } else if (m === 'profile') {
      process.send({ profile: [...profile.entries()] });
      profile.clear();
    } else if (m === 'stop') {
      // Requests the load generator gave up on at the end of a run may still be running.
      server.close();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await runtime.close().catch(() => {});
      process.exit(0);
    }
  });
}

// ------------------------------------------------------------------------------------------
// Seeding

/** A stable hash of an integer (for attributes that must be the same each time they are derived). */
function mix(x) {
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  return (x ^ (x >>> 16)) >>> 0;
}

const DOMAINS = [
  ['gmail.com', 35],
  ['yahoo.com', 15],
  ['outlook.com', 15],
  ['hotmail.com', 10],
  ['acme-corp.com', 15],
  ['stanford.edu', 10],
];
const DOMAIN_TABLE = DOMAINS.flatMap(([d, w]) => Array(w).fill(d));
const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Ava',
  'Elijah',
  'Sophia',
  'Mateo',
  'Isabella',
  'Lucas',
  'Mia',
  'Levi',
  'Evelyn',
  'Ezra',
  'Harper',
  'Asher',
  'Luna',
  'James',
];
const AREA_CODES = ['415', '212', '310', '646', '617', '206', '312', '512'];
const FIRST_OCTETS = [24, 31, 37, 46, 62, 68, 73, 81, 86, 90, 98, 109, 151, 176, 188, 212, 217];

/** The account's identifiers, derived from its number (so any session can name its account's). */
function accountOf(a, n) {
  const h = mix(a + 1);
  const owner = a % 50 === 1 ? a - 1 : a; // every 50th account shares the address of the one before
  const domain = args['spread-domains']
    ? `corp${mix(owner + 7) % Math.max(1, Math.floor(n / 100))}.com`
    : DOMAIN_TABLE[mix(owner + 7) % DOMAIN_TABLE.length];
  const email = `u${owner}@${domain}`;
  const phone =
    a % 3 === 0
      ? `+1${AREA_CODES[h % AREA_CODES.length]}${2000000 + (mix(a + 11) % Math.max(1, Math.floor(n / 2)))}`
      : null;
  const first = FIRST_NAMES[h % FIRST_NAMES.length];
  const last = `Lastname${mix(a + 13) % Math.max(1, Math.floor(n / 40))}`;
  return {
    id: `acct-${String(a).padStart(7, '0')}`,
    email,
    domain,
    phone,
    first,
    last,
    username: `user_${mix(a + 17) % n}`,
  };
}

function sdkOf(native, device, fingerprint) {
  if (native) {
    return {
      source: 'ios',
      source_version: '2.4.0',
      device_id: device,
      languages: ['en-US'],
      timezone: 'America/Los_Angeles',
      mobile: {
        brand: 'Apple',
        model: 'iPhone15,2',
        mobile_id: `mobile-${device}`,
        apple_device_check: `dc-token-${device}`,
      },
    };
  }
  return {
    source: 'web',
    device_id: device,
    browser_fingerprint: fingerprint,
    user_agent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    languages: ['en-US', 'en'],
    timezone: 'America/Los_Angeles',
    screen: { width: 390, height: 844 },
    events: { mouse: 0, click: 4, keyboard: 37, touch: 52, clipboard: 1 },
  };
}

/**
 * A session as ingestion stores it, not yet evaluated: its row, its facts (the spec's example
 * session with this one's device, address and start) and its SDK payload. A native session has
 * no fingerprint.
 */
function sessionRowOf({ projectId, template, deviceId, fingerprint, ip, startTime, native }) {
  const { ipBlock } = req('domain/enrichment/ip.js');
  const { deviceOf } = req('domain/evaluation/uniques.js');
  const sdk = sdkOf(native, deviceId, fingerprint);
  const facts = {
    ...template,
    source: sdk.source,
    source_version: sdk.source_version ?? null,
    start_time: new Date(startTime).toISOString(),
    device_id: deviceId,
    network: { ...template.network, ip_address: ip },
  };
  const row = {
    id: randomUUID(),
    project_id: projectId,
    source: facts.source,
    source_version: facts.source_version,
    device_id: deviceId,
    ip_address: ip,
    start_time: startTime,
    updated_at: startTime,
    browser_fingerprint: fingerprint,
    ip_block: ipBlock(ip) ?? null,
    connection_type: facts.network.connection_type ?? null,
    country_code: facts.location.country_code ?? null,
    mobile_id: native ? sdk.mobile.mobile_id : null,
    device: deviceOf({ browserFingerprint: fingerprint, mobileId: sdk.mobile?.mobile_id, deviceId }),
    apple_device_key: native ? createHash('sha256').update(sdk.mobile.apple_device_check).digest('hex') : null,
    decision: null,
    account_score: null,
    evaluated_at: null,
    risk_scores: null,
    latitude: facts.location.latitude ?? null,
    longitude: facts.location.longitude ?? null,
    location_accuracy_km: facts.location.city ? 50 : 500,
    anonymised: Boolean(facts.risk_signals.tor || facts.risk_signals.vpn || facts.risk_signals.proxy),
  };
  return { row, facts, sdk };
}

/** A new project on `db` (its key sealed with `secretKey`), and the spec's example session the seeded ones copy. */
async function benchProject(db, secretKey) {
  const { makeLogger } = req('logger.js');
  const { makeSecretBox } = req('security/secrets.js');
  const { systemClock, systemRandom } = req('clock.js');
  const { makeServices } = req('composition.js');
  const services = makeServices({
    db,
    clock: systemClock,
    random: systemRandom,
    logger: makeLogger('silent'),
    secretBox: makeSecretBox(secretKey, systemRandom),
    ipIntelligence: { lookup: () => ({}) },
    ipLists: { lookup: () => [] },
  });
  const project = await services.projects.create({ name: 'Bench' });
  const template = JSON.parse(fs.readFileSync(path.join(ROOT, 'generated', 'openapi.json'), 'utf8')).components.examples
    .AuthenticateResponseReal.value.session;
  return { services, project, projectId: project.project_id, template };
}

async function seed(db, dialect, n, now, secretKey) {
  const { emailFacts } = req('domain/email/index.js');
  const { phoneKey, nameKey, usernameKey } = req('domain/linking/index.js');
  const { services, project, projectId, template } = await benchProject(db, secretKey);
  const riskScores = JSON.stringify({ scores: template.risk_signal_scores, spoofedIp: false });
  const rand = prng(20261120);
  const rowsPerInsert = dialect === 'sqlite' ? 450 : 1000; // SQLite: at most 500 selects in a compound
  const perTransaction = 50_000;

  /**
   * SQLite: sends the inserts without waiting for each (the driver queues them), so that the
   * next rows are built while the database writes. pg takes one query at a time per client.
   */
  async function insertAll(table, rows, trx, pending) {
    for (let i = 0; i < rows.length; i += rowsPerInsert) {
      const insert = trx(table).insert(rows.slice(i, i + rowsPerInsert));
      if (dialect === 'sqlite') pending.push(insert);
      else await insert;
    }
  }

  // The standard lists came with the project; one custom list beside them.
  await db('lists').insert({ project_id: projectId, name: 'vip', standard: false, created_at: now - 400 * DAY });

  // Sessions and their accounts.
  const accountScoresOf = (accountScore) => ({
    scores: JSON.stringify({ account_score: accountScore, bot: 0.05, multiple_accounts: 0, risk_signals: 0.1 }),
    account_score: accountScore,
  });
  const started = Date.now();
  const devices = Math.max(1, Math.floor(n / 2));
  const blocks = Math.max(1, Math.floor(n / 20));
  const decision = new Int8Array(n); // per account: 0 none, 1 Real, 2 Fake (its newest decided session)
  const decidedAt = new Float64Array(n);
  const hasSessions = new Uint8Array(n);
  const live = [];
  const counts = { sessions: 0, links: 0, native: 0, decided: 0, fake: 0 };
  for (let start = 0; start < n; start += perTransaction) {
    const sessions = [];
    const sessionFacts = [];
    const links = [];
    for (let i = start; i < Math.min(n, start + perTransaction); i++) {
      const authenticated = rand() >= 0.1;
      const a = Math.floor(rand() * n);
      const isLive = rand() < 0.3;
      const startTime = Math.floor(isLive ? now - rand() * 5 * HOUR : now - DAY - rand() * 89 * DAY);
      // Most sessions come from the account's own device and home network, some from anywhere.
      const own = authenticated && rand() < 0.8;
      const device = own ? mix(a + 101) % devices : Math.floor(rand() * devices);
      const block = own && rand() < 0.7 ? mix(a + 103) % blocks : Math.floor(rand() * blocks);
      const ip = `${FIRST_OCTETS[block % FIRST_OCTETS.length]}.${Math.floor(block / FIRST_OCTETS.length) % 256}.${Math.floor(block / (FIRST_OCTETS.length * 256)) % 256}.${1 + (own ? mix(a + 107) % 10 : Math.floor(rand() * 10))}`;
      const native = mix(device + 109) % 5 === 0; // a fifth of the devices run the native SDK
      const deviceId = `dev-${device}`;
      const fingerprint = native
        ? null
        : createHash('sha256')
            .update(`fp-${mix(device + 113) % Math.max(1, Math.floor(devices / 1.25))}`)
            .digest('hex')
            .slice(0, 32);
      const { row, facts, sdk } = sessionRowOf({ projectId, template, deviceId, fingerprint, ip, startTime, native });
      const id = row.id;
      // Older sessions were evaluated when they were authenticated (or evaluated unauthenticated).
      if (!isLive && rand() < 0.85) {
        const fake = rand() < 0.03;
        Object.assign(row, {
          decision: fake ? 'Fake' : 'Real',
          account_score: fake ? 0.92 : 0.08,
          evaluated_at: startTime + 2000,
          risk_scores: riskScores,
          evaluation_request_id: randomUUID(),
        });
        counts.decided++;
        if (fake) counts.fake++;
        if (authenticated && startTime > decidedAt[a]) {
          decidedAt[a] = startTime;
          decision[a] = fake ? 2 : 1;
        }
      }
      sessions.push(row);
      sessionFacts.push({ session_id: id, facts: JSON.stringify(facts), sdk: JSON.stringify(sdk) });
      if (native) counts.native++;
      // A live session is not linked yet: its authenticate links it to the account (a link
      // inserted, with what the link's triggers keep), as a customer's first call for a session does.
      if (authenticated && isLive) {
        hasSessions[a] = 1;
        live.push({ id, account: a });
      } else if (authenticated) {
        links.push({
          session_id: id,
          project_id: projectId,
          account_id: accountOf(a, n).id,
          created_at: startTime + 1000,
          session_start: startTime,
          ip_address: ip,
          ip_block: row.ip_block,
        });
        hasSessions[a] = 1;
      }
    }
    await db.transaction(async (trx) => {
      // The links after their sessions (the driver may run queued statements in any order).
      const pending = [];
      await insertAll('sessions', sessions, trx, pending);
      await Promise.all(pending.splice(0));
      await insertAll('session_facts', sessionFacts, trx, pending);
      await insertAll('session_accounts', links, trx, pending);
      await Promise.all(pending);
    });
    counts.sessions += sessions.length;
    counts.links += links.length;
  }

  const sessionsSeconds = (Date.now() - started) / 1000;

  // Accounts, and their lists.
  const members = { block: 0, allow: 0, vip: 0 };
  for (let start = 0; start < n; start += perTransaction) {
    const accounts = [];
    const listed = [];
    for (let a = start; a < Math.min(n, start + perTransaction); a++) {
      const acc = accountOf(a, n);
      // The keys as applyInput derives them; checked against the real functions now and then.
      const emailKey = acc.email;
      const phone = acc.phone;
      const name = `${acc.first.toLowerCase()} ${acc.last.toLowerCase()}`;
      if (a % 997 === 0) {
        const f = emailFacts(acc.email);
        if (f.normalised !== emailKey || f.domain !== acc.domain)
          throw new Error(`email key of ${acc.email}: ${f.normalised} ${f.domain}`);
        if (phone && phoneKey(phone) !== phone) throw new Error(`phone key of ${phone}: ${phoneKey(phone)}`);
        if (nameKey(acc.first, acc.last) !== name || usernameKey(acc.username) !== acc.username)
          throw new Error(`name or username key of account ${a}`);
      }
      const createdAt = Math.floor(now - DAY * (hasSessions[a] ? 90 + (mix(a + 23) % 400) : 1 + (mix(a + 23) % 400)));
      accounts.push({
        project_id: projectId,
        id: acc.id,
        email: acc.email,
        email_key: emailKey,
        email_domain: acc.domain,
        phone,
        phone_key: phone,
        first_name: acc.first,
        last_name: acc.last,
        name_key: name,
        username: acc.username,
        username_key: acc.username,
        expected_countries: JSON.stringify(['US']),
        metadata: JSON.stringify(a % 4 === 0 ? { plan: 'pro' } : {}),
        group_name: null,
        decision: decision[a] === 2 ? 'Fake' : decision[a] === 1 ? 'Real' : null,
        // The scores of its newest decided session, as the evaluation keeps them (and their
        // account score in its column, migration 0047: the search's score order).
        ...(decision[a] ? accountScoresOf(decision[a] === 2 ? 0.92 : 0.08) : {}),
        created_at: createdAt,
        updated_at: decidedAt[a] || createdAt,
      });
      const h = mix(a + 29) % 100;
      // Standard lists exclude each other; the custom list overlaps them.
      const standard = h < 1 ? 'block' : h < 3 ? 'allow' : undefined;
      if (standard) {
        listed.push({ project_id: projectId, list_name: standard, account_id: acc.id, added_at: createdAt });
        members[standard]++;
      }
      if (mix(a + 31) % 100 < 3) {
        listed.push({ project_id: projectId, list_name: 'vip', account_id: acc.id, added_at: createdAt });
        members.vip++;
      }
    }
    await db.transaction(async (trx) => {
      const pending = [];
      await insertAll('accounts', accounts, trx, pending);
      await insertAll('list_members', listed, trx, pending);
      await Promise.all(pending);
    });
  }

  // The accounts' aggregates over their sessions, and the accounts of each identifier value, as an evaluation keeps them.
  await services.repos.accounts.refreshAggregates(projectId, 'all');
  await req('storage/repositories/identifier-accounts.js').rebuildIdentifierAccounts(db, projectId);

  // Each request authenticates a different live session with its own account, in random order.
  for (let i = live.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [live[i], live[j]] = [live[j], live[i]];
  }
  return {
    apiKey: project.api_key,
    live: live.map(({ id, account }) => {
      const acc = accountOf(account, n);
      return JSON.stringify({ session_id: id, account: { id: acc.id, email: acc.email } });
    }),
    counts: { ...counts, accounts: n, members },
    phases: { sessions: sessionsSeconds, accounts: (Date.now() - started) / 1000 - sessionsSeconds },
  };
}

// ------------------------------------------------------------------------------------------
// Load

/**
 * Loads `url` with autocannon; the result carries each response's time as autocannon measured it
 * (`times`, fractional milliseconds: its own percentiles are whole milliseconds, too coarse at one
 * connection, where a request takes about one).
 */
function load(autocannon, url, options) {
  const times = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, ...options }, (err, result) =>
      err ? reject(err) : resolve({ ...result, times }),
    );
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  });
}

function summary(r) {
  const sorted = Float64Array.from(r.times).sort();
  const at = (q) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(2));
  return {
    rps: r.requests.average,
    p50: at(0.5),
    p99: at(0.99),
    p999: at(0.999),
    max: Number((sorted[sorted.length - 1] ?? 0).toFixed(2)),
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(sorted.length, 1),
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    codes: Object.entries(r.statusCodeStats ?? {})
      .map(([code, { count }]) => `${count} × ${code}`)
      .join(', '),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A fresh database, seeded; with --keep, its description is saved for --reuse. */
async function prepare(n) {
  const { makeDb, migrate, dialectOf } = req('storage/db.js');
  const knex = require('knex');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-bench-auth-'));
  const serverUrl = process.env.DATABASE_URL;
  let databaseUrl;
  let database;
  if (serverUrl) {
    database = `tg_bench_${randomBytes(5).toString('hex')}`;
    const admin = knex({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
    await admin.raw(`CREATE DATABASE ${database}`);
    await admin.destroy();
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  const sqliteFile = path.join(dataDir, 'trustgate.sqlite');
  const db = makeDb(databaseUrl ? { databaseUrl } : { sqliteFile });
  const dialect = dialectOf(db);
  await migrate(db);
  if (dialect === 'sqlite') {
    // For the seeding connection only: a larger page cache for the index inserts, and no journal
    // (a failed seeding is thrown away). The server's connection has the service's settings.
    await db.raw('PRAGMA cache_size = -2000000');
    await db.raw('PRAGMA journal_mode = OFF');
    await db.raw('PRAGMA synchronous = OFF');
  }

  console.log(
    `seeding ${n.toLocaleString('en')} sessions and accounts into ${dialect === 'sqlite' ? sqliteFile : `PostgreSQL database ${database}`} …`,
  );
  const t0 = Date.now();
  // The server is given the key the seeding sealed with, as every start of one installation is.
  const secretKey = randomBytes(32);
  const seeded = await seed(db, dialect, n, t0, secretKey);
  const seedSeconds = (Date.now() - t0) / 1000;
  let analyzeSeconds = 0;
  if (dialect === 'postgresql') {
    // What autovacuum would have done by the time a table holds this much.
    const t1 = Date.now();
    await db.raw('VACUUM ANALYZE');
    analyzeSeconds = (Date.now() - t1) / 1000;
  } else {
    await db.raw('PRAGMA journal_mode = WAL');
  }
  await db.destroy();
  const size = dialect === 'sqlite' ? fs.statSync(sqliteFile).size : undefined;
  const c = seeded.counts;
  const description =
    `${c.sessions.toLocaleString('en')} sessions (${c.native.toLocaleString('en')} native, ${c.decided.toLocaleString('en')} evaluated, ${c.fake.toLocaleString('en')} Fake), ` +
    `${c.links.toLocaleString('en')} session-account links, ${c.accounts.toLocaleString('en')} accounts (block ${c.members.block}, allow ${c.members.allow}, vip ${c.members.vip}), ` +
    `emails at ${args['spread-domains'] ? `${Math.max(1, Math.floor(n / 100)).toLocaleString('en')} domains` : `${DOMAINS.length} domains`}; ${seeded.live.length.toLocaleString('en')} live sessions to authenticate`;
  console.log(
    `seeded in ${seedSeconds.toFixed(1)} s (sessions ${seeded.phases.sessions.toFixed(1)} s, accounts ${seeded.phases.accounts.toFixed(1)} s)` +
      `${analyzeSeconds ? ` + VACUUM ANALYZE ${analyzeSeconds.toFixed(1)} s` : ''}${size ? `, ${(size / 1e6).toFixed(0)} MB` : ''}: ${description}`,
  );
  const bench = {
    n,
    dialect,
    dataDir,
    databaseUrl,
    database,
    apiKey: seeded.apiKey,
    secretKey: secretKey.toString('base64'),
    live: seeded.live,
    used: 0,
    seedSeconds,
    seededAt: t0,
    description,
  };
  if (args.keep) fs.writeFileSync(path.join(dataDir, 'bench.json'), JSON.stringify(bench));
  return bench;
}

async function discard(bench) {
  if (args.keep || args.reuse) {
    fs.writeFileSync(path.join(bench.dataDir, 'bench.json'), JSON.stringify(bench));
    console.log(
      `kept ${bench.dataDir}${bench.database ? ` and PostgreSQL database ${bench.database}` : ''}: measure it again with --reuse ${bench.dataDir}`,
    );
    return;
  }
  if (bench.database) {
    const admin = require('knex')({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 } });
    await admin.raw(`DROP DATABASE IF EXISTS ${bench.database} WITH (FORCE)`);
    await admin.destroy();
  }
  fs.rmSync(bench.dataDir, { recursive: true, force: true });
}

/**
 * A rules document of `n` rules (--rules N) as a team might write them: each reads three of the
 * evaluation's fields (a score against a threshold, a risk signal, the email or the network) and
 * tags; one in ten sets a decision, one in ten adds to a list. Most match rarely, as real rules
 * do, so that every rule's conditions are evaluated on every request.
 */
function benchRules(n) {
  if (!Number.isInteger(n) || n < 0 || n > 200) throw new Error('--rules must be an integer from 0 to 200');
  const signals = ['tor', 'datacenter', 'vpn', 'proxy', 'impossible_travel', 'device_risk'];
  const scores = ['account_score', 'bot', 'multiple_accounts', 'risk_signals'];
  return {
    rules: Array.from({ length: n }, (_, i) => ({
      id: `bench-${i}`,
      when: {
        all: [
          { field: scores[i % scores.length], op: 'gte', value: 0.5 + (i % 50) / 100 },
          {
            any: [
              { field: `session.risk_signals.${signals[i % signals.length]}`, op: 'eq', value: true },
              { field: 'account.email.disposable', op: 'eq', value: true },
            ],
          },
          { not: { field: 'session.location.country_code', op: 'in', value: ['AQ', 'BV'] } },
        ],
      },
      then: {
        tags: [`bench_${i}`],
        ...(i % 10 === 0 ? { decision: 'Fake' } : {}),
        ...(i % 10 === 5 ? { add_to_lists: ['bench_review'] } : {}),
      },
    })),
  };
}

/** The live sessions the requests authenticate, in turn: with --live K only the first K (the same users again and again). */
function liveOf(bench) {
  if (args.live === undefined) return bench.live;
  const k = Number(args.live);
  if (!Number.isInteger(k) || k < 1) throw new Error('--live must be an integer of at least 1');
  return bench.live.slice(0, k);
}

/** A database kept by an earlier run (--keep), to measure again. */
function reused(folder) {
  const bench = JSON.parse(fs.readFileSync(path.join(folder, 'bench.json'), 'utf8'));
  // The folder given, not the one it was seeded in: a copy (cp -a) measures the copy.
  if (bench.dialect === 'sqlite') bench.dataDir = path.resolve(folder);
  if (Date.now() - bench.seededAt > 18 * HOUR)
    throw new Error(`the kept sessions of ${folder} are too old to authenticate (seeded more than 18 hours ago)`);
  console.log(
    `reusing ${bench.dataDir} (seeded in ${bench.seedSeconds.toFixed(1)} s): ${bench.description}; ${bench.used} of its live sessions used`,
  );
  return bench;
}

async function main() {
  if (args.crowded)
    return require('./bench-crowded').crowdedBench({
      requests: args.requests,
      connections: Math.max(...connectionLevels()),
    });
  if (args.against !== undefined) return compare();
  let bench;
  if (args.reuse) {
    bench = reused(args.reuse);
  } else {
    const n = args.million ? 1_000_000 : Number(args.n ?? 10_000);
    if (!Number.isInteger(n) || n < 100) throw new Error('--n must be an integer of at least 100');
    bench = await prepare(n);
  }
  const processes = Number(args.processes);
  if (!Number.isInteger(processes) || processes < 1) throw new Error('--processes must be an integer of at least 1');
  const measured = [];
  for (const count of processes > 1 ? [1, processes] : [1]) measured.push(await measure(bench, count));
  await discard(bench);
  const [one, many] = measured.map((m) => report(bench, m));
  if (many) {
    const ratio = (key) => (many[key].rps / one[key].rps).toFixed(2);
    console.log(
      `\n${processes} processes / 1 process, req/s: bare ${ratio('bare')}x, authenticate ${ratio('auth')}x, GET /healthz ${ratio('health')}x (the target with one process per core: ${(0.7 * processes).toFixed(1)}x)`,
    );
  }
}

/**
 * --reuse A --against B: the two kept databases measured in turn, `--rounds` pairs of one round
 * each, and the ratio of authenticate's p50 (A over B) at the most connections in each pair.
 */
async function compare() {
  if (!args.reuse) throw new Error('--against needs --reuse (the two kept databases to compare)');
  if (Number(args.processes) !== 1) throw new Error('--against measures one server process');
  const pairs = Number(args.rounds);
  if (!Number.isInteger(pairs) || pairs < 2) throw new Error('--against needs --rounds 2 or more (pairs)');
  const [a, b] = [reused(args.reuse), reused(args.against)];
  const levels = connectionLevels();
  const most = levels.indexOf(Math.max(...levels));
  const authAt = (m) => m.results[0][most].auth;
  const cpu = os.cpus();
  const name = (bench) => `${bench.n.toLocaleString('en')} sessions`;
  console.log(
    `\n${a.dialect}: ${name(a)} against ${name(b)}, ${pairs} pairs; node ${process.version}, ${cpu.length} cores (${cpu[0]?.model ?? '?'}); ` +
      `autocannon ${args.duration} s × ${Math.max(...levels)} connections; ${args.live ?? 'all'} live sessions each; authenticate?accounts_linked=true`,
  );
  if (!args.cold) for (const bench of [a, b]) warm(bench);
  const ratios = [];
  for (let i = 0; i < pairs; i++) {
    const [x, y] = [authAt(await measure(a, 1, 1)), authAt(await measure(b, 1, 1))];
    ratios.push(x.p50 / y.p50);
    console.log(
      `pair ${i + 1}: ${name(a)} p50 ${ms(x.p50)} ms, ${x.rps.toFixed(0)} req/s, ${x.cpuMs.toFixed(3)} ms CPU; ` +
        `${name(b)} p50 ${ms(y.p50)} ms, ${y.rps.toFixed(0)} req/s, ${y.cpuMs.toFixed(3)} ms CPU; p50 ${ratios[i].toFixed(2)}x` +
        (i === 0 ? ' (warms the caches: not in the median)' : ''),
    );
  }
  await Promise.all([discard(a), discard(b)]);
  const rest = ratios.slice(1);
  console.log(
    `p50 ${name(a)} / ${name(b)}: median ${median(rest).toFixed(2)}x of pairs 2–${pairs} (${rest.map((r) => r.toFixed(2)).join(', ')})`,
  );
}

/** A kept SQLite database's files read once from start to end, into the operating system's cache (compare, above). */
function warm(bench) {
  if (bench.dialect !== 'sqlite') return;
  const t0 = process.hrtime.bigint();
  const buffer = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  for (const file of fs.readdirSync(bench.dataDir).filter((f) => /^trustgate\.sqlite(-wal)?$/.test(f))) {
    const fd = fs.openSync(path.join(bench.dataDir, file), 'r');
    try {
      for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0;) bytes += n;
    } finally {
      fs.closeSync(fd);
    }
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(
    `read ${bench.dataDir}'s database (${(bytes / 1e9).toFixed(2)} GB) into the operating system's cache in ${seconds.toFixed(1)} s`,
  );
}

/**
 * Starts the server as `processes` processes (a cluster when more than 1), loads it `rounds`
 * times (--rounds) and stops it.
 */
async function measure(bench, processes, rounds = Number(args.rounds)) {
  const duration = Number(args.duration);
  const levels = connectionLevels();
  const autocannon = require('autocannon');

  // The server, as `npm start` runs it, in a process of its own.
  const child = fork(__filename, ['--serve'], {
    execArgv: args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(args['cpu-prof'])] : [],
    env: {
      ...process.env,
      BENCH_DATA_DIR: bench.dataDir,
      ...(bench.databaseUrl ? { DATABASE_URL: bench.databaseUrl } : {}),
      BENCH_IP_DATA: args['stub-ip-data'] ? 'stub' : 'real',
      BENCH_PROFILE: args.profile ? '1' : '',
      BENCH_PROCESSES: String(processes),
      // (A database kept before the key was kept with it: a key of its own, as then.)
      BENCH_SECRET_KEY: bench.secretKey ?? randomBytes(32).toString('base64'),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const message = (pick) =>
    new Promise((resolve, reject) => {
      const onMessage = (m) => {
        if (pick(m)) {
          child.off('message', onMessage);
          child.off('exit', onExit);
          resolve(m);
        }
      };
      const onExit = (code) => reject(new Error(`server exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const ready = await message((m) => m && m.port);
  // Killed with the bench if it ends first; the listener goes with the server (a run of many pairs starts many).
  const killChild = () => child.kill();
  process.once('exit', killChild);
  child.once('exit', () => process.off('exit', killChild));
  const base = `http://127.0.0.1:${ready.port}`;
  const headers = { 'x-api-key': bench.apiKey, 'content-type': 'application/json' };

  const bare = {
    method: 'POST',
    path: '/session/unauthenticated',
    headers,
    body: JSON.stringify({ session_id: randomUUID() }),
  };
  const live = liveOf(bench);
  const authenticate = {
    method: 'POST',
    path: '/session/authenticate?accounts_linked=true',
    headers,
    setupRequest(request) {
      request.body = live[bench.used++ % live.length];
      return request;
    },
  };
  // With --processes: a route that writes nothing, to tell the processes' own scaling from the database's.
  const health = args.processes > 1 ? { method: 'GET', path: '/healthz', headers } : undefined;
  const cpuOfServer = async () => {
    child.send('cpu');
    return (await message((m) => m && m.cpu)).cpu;
  };
  // `onLoadEnd` runs as soon as the load stops (--wal-pages: before the checkpoint thread, with
  // nothing left to copy, lets the next write start the log again).
  const run = async (request, seconds, connections, onLoadEnd) => {
    const serverBefore = await cpuOfServer();
    const cpu = process.cpuUsage();
    const r = summary(await load(autocannon, base, { connections, duration: seconds, requests: [request] }));
    // The load generator shares the machine's cores with the server: what it took of them.
    const { user, system } = process.cpuUsage(cpu);
    onLoadEnd?.();
    // The server finishes the requests that were in flight when the run ended before the next starts.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const serverAfter = await cpuOfServer();
    const perRequest = (key) =>
      serverBefore?.[key] !== undefined ? (serverAfter[key] - serverBefore[key]) / 1000 / r.total : undefined;
    // The database's processes by id: one that started during the run counts whole, one that ended is lost.
    const database =
      serverBefore?.database && serverAfter?.database
        ? Object.entries(serverAfter.database).reduce(
            (sum, [pid, us]) => sum + us - (serverBefore.database[pid] ?? 0),
            0,
          ) /
          1000 /
          r.total
        : undefined;
    return {
      ...r,
      loadCpu: (user + system) / 1e6 / seconds,
      cpuMs: perRequest('all'),
      mainCpuMs: perRequest('main'),
      databaseCpuMs: database,
    };
  };

  // --rules N: the project's rules document (docs/rules.md), put before anything is measured.
  if (args.rules !== undefined) {
    const res = await fetch(`${base}/rules`, {
      method: 'PUT',
      headers,
      body: JSON.stringify(benchRules(Number(args.rules))),
    });
    if (res.status !== 200) throw new Error(`PUT /rules answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  }

  // One request of each first: the load is measured only if they answer as they should.
  for (const [request, expected] of [
    [bare, 400],
    [authenticate, 200],
  ]) {
    const res = await fetch(`${base}${request.path}`, {
      method: 'POST',
      headers,
      body: request.setupRequest ? request.setupRequest({}).body : request.body,
    });
    const text = await res.text();
    if (res.status !== expected)
      throw new Error(`${request.path} answered ${res.status}, not ${expected}: ${text.slice(0, 500)}`);
    if (
      expected === 200 &&
      args.rules !== undefined &&
      Number(args.rules) > 0 &&
      !(JSON.parse(text).rules?.version > 0)
    )
      throw new Error(`authenticate answered without the rules document: ${text.slice(0, 500)}`);
  }

  // SQL statements per request of each session endpoint, from 20 requests one at a time.
  const statementsPer = {};
  const counted = async (name, send) => {
    child.send('statements');
    await message((m) => m && m.statements !== undefined);
    for (let i = 0; i < 20; i++) {
      const res = await send();
      if (res.status >= 500) throw new Error(`${name} answered ${res.status}`);
      await res.arrayBuffer();
    }
    child.send('statements');
    const m = await message((m) => m && m.statements !== undefined);
    statementsPer[name] = { statements: m.statements / 20, preparations: m.preparations / 20 };
  };
  const post = (p, body) => fetch(`${base}${p}`, { method: 'POST', headers, body });
  const nextLive = () => live[bench.used++ % live.length];
  await counted(AUTH, () => post('/session/authenticate?accounts_linked=true', nextLive()));
  await counted('POST /session/authenticate', () => post('/session/authenticate', nextLive()));
  await counted('POST /session/unauthenticated?accounts_linked=true', () =>
    post(
      '/session/unauthenticated?accounts_linked=true',
      JSON.stringify({ session_id: JSON.parse(nextLive()).session_id }),
    ),
  );
  await counted('GET /session/{session_id}', () =>
    fetch(`${base}/session/${JSON.parse(nextLive()).session_id}`, { headers }),
  );
  await counted(BARE, () => post(bare.path, bare.body));

  // Warm-up (JIT, caches), then the measured runs: bare and authenticate in turn, `rounds` times.
  const most = Math.max(...levels);
  await run(bare, 3, most);
  await run(authenticate, 3, most);
  if (args.profile) {
    child.send('profile');
    await message((m) => m && m.profile);
  }
  // results[r][l]: round r at levels[l] connections.
  const results = [];
  // --wal-pages: the log as it stood before the last authenticate run at the most connections.
  const walFile =
    args['wal-pages'] && bench.dialect === 'sqlite' ? path.join(bench.dataDir, 'trustgate.sqlite-wal') : undefined;
  let walCommits;
  for (let r = 0; r < rounds; r++) {
    const round = [];
    for (const connections of levels) {
      const counted = walFile && r === rounds - 1 && connections === most;
      const bareRun = await run(bare, duration, connections);
      const walBefore = counted ? walPagesOf.readWal(walFile) : undefined;
      const authRun = await run(authenticate, duration, connections, () => {
        if (counted) walCommits = walPagesOf.readWal(walFile, walBefore).commits;
      });
      round.push({
        bare: bareRun,
        auth: authRun,
        ...(health ? { health: await run(health, duration, connections) } : {}),
      });
    }
    results.push(round);
  }
  const walPages =
    walCommits &&
    walPagesOf.pagesByBtree(
      walCommits,
      walPagesOf.pageOwners(require('better-sqlite3'), path.join(bench.dataDir, 'trustgate.sqlite')),
    );
  let profile = [];
  if (args.profile) {
    child.send('profile');
    profile = (await message((m) => m && m.profile)).profile;
  }
  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  return {
    processes,
    results,
    profile,
    statementsPer,
    walPages,
    validateResponses: ready.validateResponses,
    used: bench.used,
  };
}

/** A time in milliseconds, to the hundredth below 10 and the tenth above. */
const ms = (v) => v.toFixed(v < 10 ? 2 : 1).padStart(6);

/** The numbers of connections to load with (`--connections 1,16`). */
function connectionLevels() {
  const levels = String(args.connections)
    .split(',')
    .map((c) => Number(c.trim()));
  if (levels.length === 0 || levels.some((c) => !Number.isInteger(c) || c < 1))
    throw new Error('--connections must be one or more integers of at least 1, separated by commas (1,16)');
  return levels;
}

/** Prints one measurement; returns its medians at the most connections. */
function report(bench, { processes, results, profile, statementsPer, walPages, validateResponses, used }) {
  const duration = Number(args.duration);
  const levels = connectionLevels();
  const rounds = Number(args.rounds);
  const live = liveOf(bench);
  const cpu = os.cpus();
  console.log(
    `\n${bench.dialect}, ${bench.n.toLocaleString('en')} sessions; node ${process.version}, ${cpu.length} cores (${cpu[0]?.model ?? '?'}), load average ${os.loadavg()[0].toFixed(2)}; ` +
      `autocannon ${duration} s × ${levels.join(' and ')} connections${rounds > 1 ? `, ${rounds} rounds` : ''}; IP data ${args['stub-ip-data'] ? 'stubbed' : 'real (shipped)'}; ` +
      `response validation ${validateResponses ? 'on' : 'off'}; ${processes} server process${processes > 1 ? 'es (node:cluster)' : ''}`,
  );
  const row = (name, r) =>
    `${name.padEnd(52)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${ms(r.p50)} ms   p99 ${ms(r.p99)} ms   mean ${ms(r.mean)} ms` +
    (r.max !== undefined ? `   p99.9 ${ms(r.p999)} ms   max ${ms(r.max)} ms` : '') +
    (r.cpuMs !== undefined
      ? `   server CPU ${r.cpuMs.toFixed(3)} ms/req (main thread${processes > 1 ? 's' : ''} ${r.mainCpuMs?.toFixed(3) ?? '?'})`
      : '') +
    (r.databaseCpuMs !== undefined ? `   database CPU ${r.databaseCpuMs.toFixed(3)} ms/req` : '') +
    (r.total !== undefined
      ? `   (${r.total} requests: ${r.codes || 'none'}; ${r.errors} errors; autocannon ${(r.loadCpu * 100).toFixed(0)}% of a core)`
      : '');
  let medians;
  levels.forEach((connections, l) => {
    console.log(`\nat ${connections} connection${connections > 1 ? 's' : ''}`);
    const atLevel = results.map((round) => round[l]);
    atLevel.forEach((res, i) => {
      if (rounds > 1) console.log(`round ${i + 1}`);
      console.log(row(BARE, res.bare));
      console.log(row(AUTH, res.auth));
      if (res.health) console.log(row(HEALTH, res.health));
    });
    const med = (key) => {
      const of = (m) =>
        atLevel.every((x) => x[key][m] !== undefined) ? median(atLevel.map((x) => x[key][m])) : undefined;
      return {
        rps: of('rps'),
        p50: of('p50'),
        p99: of('p99'),
        mean: of('mean'),
        cpuMs: of('cpuMs'),
        mainCpuMs: of('mainCpuMs'),
        databaseCpuMs: of('databaseCpuMs'),
      };
    };
    const b = med('bare');
    const a = med('auth');
    const h = atLevel[0].health ? med('health') : undefined;
    if (rounds > 1) {
      console.log(`median of ${rounds} rounds`);
      console.log(row(BARE, b));
      console.log(row(AUTH, a));
      if (h) console.log(row(HEALTH, h));
    }
    console.log(
      `authenticate / bare at ${connections}: ${(b.rps / a.rps).toFixed(1)}x fewer req/s (authenticate at ${((100 * a.rps) / b.rps).toFixed(1)} % of the bare route), ` +
        `p50 ${(a.p50 / Math.max(b.p50, 0.01)).toFixed(1)}x, p99 ${(a.p99 / Math.max(b.p99, 0.01)).toFixed(1)}x; authenticate p99 / p50 ${(a.p99 / Math.max(a.p50, 0.01)).toFixed(1)}` +
        (a.cpuMs !== undefined
          ? `; server CPU per request ${(a.cpuMs / b.cpuMs).toFixed(1)}x (bare at ${((100 * b.cpuMs) / a.cpuMs).toFixed(1)} % of authenticate's)`
          : '') +
        (a.databaseCpuMs !== undefined && b.databaseCpuMs !== undefined
          ? `; database CPU per request ${(a.databaseCpuMs / b.databaseCpuMs).toFixed(1)}x`
          : ''),
    );
    if (rounds > 1) {
      // Each round's authenticate against the bare route measured just before it: what the
      // machine's speed did between rounds (other work on a shared host) moves both alike.
      const paired = (f) => {
        const xs = atLevel.map(f);
        return `${xs.map((x) => x.toFixed(1)).join(', ')}; median ${median(xs).toFixed(1)}`;
      };
      console.log(
        `each round paired: authenticate at ${paired((x) => (100 * x.auth.rps) / x.bare.rps)} % of the bare route; ` +
          `authenticate p99 / p50 ${paired((x) => x.auth.p99 / Math.max(x.auth.p50, 0.01))}`,
      );
    }
    if (connections === Math.max(...levels)) medians = { bare: b, auth: a, ...(h ? { health: h } : {}) };
  });
  const total = results.flat().reduce((s, x) => s + x.auth.total, 0);
  console.log(
    `authenticated ${total} times${used > live.length ? `; the ${live.length} live sessions ran out and were authenticated again` : ', each time another live session'}` +
      `; seeding took ${bench.seedSeconds.toFixed(1)} s`,
  );
  console.log('\nSQL statements per request (mean of 20, transaction control included):');
  for (const [name, n] of Object.entries(statementsPer))
    console.log(
      `  ${name.padEnd(52)} ${n.statements.toFixed(1)}` +
        (n.preparations > 0
          ? ` (and ${n.preparations.toFixed(2)} PREPAREs of write texts new to their connection: once per connection and text)`
          : ''),
    );
  if (walPages) {
    console.log(
      `\nPages into SQLite's write-ahead log during the last authenticate run at ${Math.max(...levels)} connections:`,
    );
    for (const line of walPagesOf.describe(walPages)) console.log(`  ${line}`);
  } else if (args['wal-pages'])
    console.log(`\n--wal-pages counts SQLite's write-ahead log: nothing to count on ${bench.dialect}`);
  if (profile.length) {
    const sum = profile.reduce((s, [, p]) => s + p.ms, 0);
    console.log(`\nSQL during the measured runs, by total time (${sum.toFixed(0)} ms in all):`);
    for (const [sql, p] of profile.sort((x, y) => y[1].ms - x[1].ms).slice(0, 25)) {
      console.log(
        `${p.ms.toFixed(0).padStart(8)} ms ${String(p.calls).padStart(7)} calls ${(p.ms / p.calls).toFixed(3).padStart(8)} ms  ${sql.slice(0, 170)}`,
      );
    }
  }
  return medians;
}

// For bench-console.js (prepare and the seeding) and bench-crowded.js (the project, the sessions, the server).
module.exports = { prepare, HOUR, benchProject, sessionRowOf, FIRST_NAMES };
if (require.main !== module) {
  // Required: nothing runs.
} else if (args.serve) {
  serve().catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(String(e?.stack ?? e).slice(0, 2000));
    process.exit(1);
  });
}
