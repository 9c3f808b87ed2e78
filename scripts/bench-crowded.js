'use strict';
// `npm run bench:authenticate -- --crowded [--requests 15000] [--connections 16]`: what one
// authenticate?accounts_linked=true costs as the history crowds, against the same run on a
// history whose users share nothing. Each run starts from an empty project (SQLite, or
// PostgreSQL when DATABASE_URL is set), authenticates 1,000 accounts unmeasured (WARM_UP, below),
// then `--requests` new accounts, each on a new session, in order, `--connections` at a time;
// every authenticate links its session and account, so the history the next one searches has
// grown.
//
// Crowded, the way identifiers are shared in life and in fraud:
// - devices: 40 % of new sessions come from an earlier session's device (the same stored id,
//   fingerprint and home address); of the new devices, 30 % are one of ten popular models (one
//   fingerprint for thousands of machines) and 20 % sit behind one of five corporate NATs;
// - emails: 15 % of new accounts reuse an earlier account's address;
// - names: first names from twenty, last names from thirty, the first of each far the most common
//   (a "John Smith" shared by hundreds).
// Uncrowded: every identifier is the account's own.
//
// Per 1,000 requests it prints the mean `accounts_linked`, the mean body size, the p50 and the
// requests a second; at the end, the p50 of the last thousand over the first, and the crowded
// run's authenticate/bare ratio over the uncrowded run's (the bare route, POST
// /session/unauthenticated for an unknown session, measured before and after each run).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork } = require('node:child_process');
const { createHash, randomBytes, randomUUID } = require('node:crypto');
const { mulberry32: prng } = require('./prng');
const { benchProject, sessionRowOf, FIRST_NAMES, HOUR } = require('./bench-authenticate');

const ROOT = path.resolve(__dirname, '..');
const req = (p) => require(path.join(ROOT, 'dist', 'src', p));
const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
]
  .concat(['Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin'])
  .concat(['Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson']);

/** An index in [0, n), the first far the most likely (Zipf, exponent 1). */
function zipf(rand, n) {
  const total = Array.from({ length: n }, (_, k) => 1 / (k + 1)).reduce((a, b) => a + b, 0);
  let x = rand() * total;
  for (let k = 0; k < n; k++) if ((x -= 1 / (k + 1)) < 0) return k;
  return n - 1;
}

/** The `count` sessions' devices and the accounts' identifiers, crowded or each its own. */
function population(count, crowded, seed = 20261207) {
  const rand = prng(seed);
  const devices = [];
  const people = [];
  for (let i = 0; i < count; i++) {
    let device;
    if (crowded && i > 0 && rand() < 0.4) device = devices[Math.floor(rand() * i)];
    else {
      const d = i;
      const model = crowded && rand() < 0.3 ? `model-${zipf(rand, 10)}` : `fp-${d}`;
      const nat = crowded && rand() < 0.2 ? `81.2.69.${10 + zipf(rand, 5)}` : undefined;
      device = {
        deviceId: `dev-${d}`,
        fingerprint: createHash('sha256').update(model).digest('hex').slice(0, 32),
        ip: nat ?? `${24 + (d % 150)}.${(d >> 8) & 255}.${d & 255}.10`,
      };
    }
    devices.push(device);
    const email = crowded && i > 0 && rand() < 0.15 ? people[Math.floor(rand() * i)].email : `u${i}@gmail.com`;
    people.push(
      crowded
        ? { email, first_name: FIRST_NAMES[zipf(rand, FIRST_NAMES.length)], last_name: LAST_NAMES[zipf(rand, 30)] }
        : { email, first_name: `First${i}`, last_name: `Last${i}` },
    );
  }
  return { devices, people };
}

/** An empty, migrated database: a SQLite file in a temporary folder, or a new PostgreSQL database. */
async function freshDatabase() {
  const { makeDb, migrate } = req('storage/db.js');
  const knex = require('knex');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-bench-crowded-'));
  let databaseUrl;
  let database;
  if (process.env.DATABASE_URL) {
    database = `tg_bench_${randomBytes(5).toString('hex')}`;
    const admin = knex({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 } });
    await admin.raw(`CREATE DATABASE ${database}`);
    await admin.destroy();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  const db = makeDb(databaseUrl ? { databaseUrl } : { sqliteFile: path.join(dataDir, 'trustgate.sqlite') });
  await migrate(db);
  return { db, dataDir, databaseUrl, database };
}

async function dropDatabase(fresh) {
  if (fresh.database) {
    const admin = require('knex')({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 1 } });
    await admin.raw(`DROP DATABASE IF EXISTS ${fresh.database} WITH (FORCE)`);
    await admin.destroy();
  }
  fs.rmSync(fresh.dataDir, { recursive: true, force: true });
}

/** The sessions to authenticate, stored as ingestion stores them (not linked to an account yet). */
async function seedSessions(db, projectId, template, devices, now) {
  const ids = [];
  const rows = devices.map((d, i) => {
    // All within the last five hours, in order: live, and each within a day of the others.
    const startTime = now - 5 * HOUR + Math.floor((i * 4 * HOUR) / devices.length);
    const s = sessionRowOf({ projectId, template, ...d, startTime, native: false });
    ids.push(s.row.id);
    return s;
  });
  for (let i = 0; i < rows.length; i += 400)
    await db.transaction(async (trx) => {
      const chunk = rows.slice(i, i + 400);
      await trx('sessions').insert(chunk.map((s) => s.row));
      await trx('session_facts').insert(
        chunk.map((s) => ({ session_id: s.row.id, facts: JSON.stringify(s.facts), sdk: JSON.stringify(s.sdk) })),
      );
    });
  return ids;
}

/** The server, as `npm start` runs it, in a child process (bench-authenticate.js --serve). */
async function startServer(fresh, secretKey) {
  const child = fork(path.join(__dirname, 'bench-authenticate.js'), ['--serve'], {
    env: {
      ...process.env,
      BENCH_DATA_DIR: fresh.dataDir,
      ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
      BENCH_IP_DATA: 'stub',
      BENCH_PROCESSES: '1',
      BENCH_SECRET_KEY: secretKey.toString('base64'),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => (child.once('exit', resolve), child.send('stop'))),
    /** With BENCH_PROFILE=1: the statements the server ran since the last call, by total time. */
    profile: () =>
      new Promise((resolve) => {
        const on = (m) => m?.profile && (child.off('message', on), resolve(m.profile));
        child.on('message', on);
        child.send('profile');
      }),
  };
}

/** Sends `count` requests `connections` at a time, the i-th made by `make(i)`; each one's time, status and body. */
async function drive(count, connections, make) {
  const out = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const { url, init } = make(i);
      const t0 = performance.now();
      const res = await fetch(url, init);
      const body = await res.text();
      out[i] = { ms: performance.now() - t0, at: performance.now(), status: res.status, body };
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  return { results: out, seconds: (performance.now() - started) / 1000 };
}

/** The most accounts that share one fingerprint, address, email and name at the end of a run. */
function crowdsOf(devices, people) {
  const most = (values) => {
    const counts = new Map();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    return Math.max(...counts.values());
  };
  return {
    fingerprint: most(devices.map((d) => d.fingerprint)),
    address: most(devices.map((d) => d.ip)),
    email: most(people.map((p) => p.email)),
    name: most(people.map((p) => `${p.first_name} ${p.last_name}`)),
  };
}

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The bare route's requests a second (POST /session/unauthenticated for an unknown session: a 400). */
async function bare(base, headers, connections) {
  const { results, seconds } = await drive(3000, connections, () => ({
    url: `${base}/session/unauthenticated`,
    init: { method: 'POST', headers, body: JSON.stringify({ session_id: randomUUID() }) },
  }));
  if (results.some((r) => r.status !== 400)) throw new Error('the bare route did not answer 400');
  return results.length / seconds;
}

/**
 * Authenticates before the measured ones: the project is not empty when measuring starts, and
 * PostgreSQL has statistics for its tables (`analyse`), as autovacuum gives a running
 * installation. Planned over empty tables, the hot path's generic plans scan what then grows.
 */
const WARM_UP = 1000;

/** PostgreSQL: the tables analysed once the warm-up wrote to them (the cached plans are made again). */
async function analyse(fresh) {
  if (!fresh.databaseUrl) return;
  const db = require('knex')({ client: 'pg', connection: fresh.databaseUrl, pool: { min: 0, max: 1 } });
  await db.raw('ANALYZE');
  await db.destroy();
}

/** One run: an empty project, `count` authenticates over a crowded (or uncrowded) population. */
async function run(crowded, count, connections) {
  const fresh = await freshDatabase();
  const secretKey = randomBytes(32);
  const { project, projectId, template } = await benchProject(fresh.db, secretKey);
  const { devices, people } = population(WARM_UP + count, crowded);
  const sessions = await seedSessions(fresh.db, projectId, template, devices, Date.now());
  await fresh.db.destroy();
  const server = await startServer(fresh, secretKey);
  const headers = { 'x-api-key': project.api_key, 'content-type': 'application/json' };
  const authenticate = (i) => ({
    url: `${server.base}/session/authenticate?accounts_linked=true`,
    init: {
      method: 'POST',
      headers,
      body: JSON.stringify({ session_id: sessions[i], account: { id: `acct-${i}`, ...people[i] } }),
    },
  });
  try {
    await drive(WARM_UP, connections, authenticate);
    await analyse(fresh);
    if (process.env.BENCH_PROFILE) await server.profile();
    const bareBefore = await bare(server.base, headers, connections);
    const { results, seconds } = await drive(count, connections, (i) => authenticate(WARM_UP + i));
    const profile = process.env.BENCH_PROFILE ? await server.profile() : [];
    const bareAfter = await bare(server.base, headers, connections);
    const failed = results.filter((r) => r.status !== 200);
    if (failed.length) throw new Error(`${failed.length} authenticates failed: ${failed[0].body.slice(0, 300)}`);
    const thousands = [];
    for (let k = 0; k < count; k += 1000) {
      const chunk = results.slice(k, k + 1000);
      const bodies = chunk.map((r) => JSON.parse(r.body));
      const span = (Math.max(...chunk.map((r) => r.at)) - Math.min(...chunk.map((r) => r.at - r.ms))) / 1000;
      thousands.push({
        linked: bodies.reduce((s, b) => s + b.accounts_linked, 0) / chunk.length,
        bodyKb: chunk.reduce((s, r) => s + Buffer.byteLength(r.body), 0) / chunk.length / 1000,
        p50: p50(chunk.map((r) => r.ms)),
        rps: chunk.length / span,
      });
    }
    const crowds = crowdsOf(devices, people);
    return { thousands, rps: count / seconds, bare: (bareBefore + bareAfter) / 2, crowds, profile };
  } finally {
    await server.stop();
    await dropDatabase(fresh);
  }
}

function print(name, r) {
  console.log(
    `\n${name}: ${r.rps.toFixed(0)} authenticates/s, bare ${r.bare.toFixed(0)} req/s, ratio ${((100 * r.rps) / r.bare).toFixed(1)} %`,
  );
  const c = r.crowds;
  console.log(
    `at the end, the most accounts on one fingerprint ${c.fingerprint}, one address ${c.address}, one email ${c.email}, one name ${c.name}`,
  );
  for (const [sql, p] of r.profile.sort((x, y) => y[1].ms - x[1].ms).slice(0, 12))
    console.log(`${p.ms.toFixed(0).padStart(8)} ms ${String(p.calls).padStart(7)} calls  ${sql.slice(0, 150)}`);
  console.log('requests      linked   body KB   p50 ms    req/s');
  r.thousands.forEach((t, k) =>
    console.log(
      `${String(k * 1000 + 1).padStart(6)}–${String((k + 1) * 1000).padEnd(6)} ${t.linked.toFixed(1).padStart(7)} ${t.bodyKb.toFixed(1).padStart(9)} ${t.p50.toFixed(2).padStart(8)} ${t.rps.toFixed(0).padStart(8)}`,
    ),
  );
}

async function crowdedBench({ requests, connections }) {
  const count = Number(requests);
  if (!Number.isInteger(count) || count < 1000) throw new Error('--requests must be an integer of at least 1000');
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  console.log(
    `${engine}, node ${process.version}, ${os.cpus().length} cores; ${count.toLocaleString('en')} authenticates?accounts_linked=true, ${connections} at a time, from an empty project`,
  );
  const plain = await run(false, count, connections);
  print('uncrowded (every identifier the account’s own)', plain);
  const crowded = await run(true, count, connections);
  print('crowded (devices, emails and names reused)', crowded);
  const first = crowded.thousands[0];
  const last = crowded.thousands[crowded.thousands.length - 1];
  console.log(
    `\ncrowded: p50 of the last thousand over the first ${(last.p50 / first.p50).toFixed(2)}x (at most 1.3x); ` +
      `authenticate/bare ${((100 * crowded.rps) / crowded.bare).toFixed(1)} % against uncrowded ${((100 * plain.rps) / plain.bare).toFixed(1)} %: ` +
      `${(plain.rps / plain.bare / (crowded.rps / crowded.bare)).toFixed(2)}x (at most 1.3x)`,
  );
}

module.exports = { crowdedBench, population };
