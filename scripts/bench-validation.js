#!/usr/bin/env node
// Measures what response validation costs: the same server (compiled, from dist/) with
// response validation on and off, loaded over loopback with GET /session/{id} (the largest
// response) and POST /session/authenticate with an unknown session (request validation and
// the error path). Prints requests per second and mean latency for each.
//   npm run build && npm run bench:validation [-- --requests 4000 --concurrency 16]
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes, randomUUID } = require('node:crypto');
const { parseArgs } = require('node:util');

const dist = path.resolve(__dirname, '..', 'dist', 'src');
if (!fs.existsSync(path.join(dist, 'app.js'))) {
  console.error('bench-validation: run `npm run build` first');
  process.exit(1);
}
const { createApp } = require(path.join(dist, 'app.js'));
const { makeServices } = require(path.join(dist, 'composition.js'));
const { makeDb, migrate } = require(path.join(dist, 'storage', 'db.js'));
const { makeSecretBox } = require(path.join(dist, 'security', 'secrets.js'));
const { systemRandom } = require(path.join(dist, 'clock.js'));
const { openIpLists } = require(path.join(dist, 'geo', 'ip-lists.js'));

const { values } = parseArgs({
  options: { requests: { type: 'string', default: '4000' }, concurrency: { type: 'string', default: '16' } },
});
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);

async function load(url, init) {
  let next = 0;
  const started = process.hrtime.bigint();
  let totalLatency = 0;
  async function worker() {
    while (next < REQUESTS) {
      next++;
      const t0 = process.hrtime.bigint();
      const res = await fetch(url, init);
      await res.arrayBuffer();
      totalLatency += Number(process.hrtime.bigint() - t0) / 1e6;
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { rps: REQUESTS / seconds, meanMs: totalLatency / REQUESTS };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-bench-'));
  const db = makeDb({ sqliteFile: path.join(dir, 'trustgate.sqlite') });
  await migrate(db);
  // The shipped IP lists only (no operator folder, so nothing is watched).
  const ipLists = openIpLists({});
  const services = makeServices({ db, secretBox: makeSecretBox(randomBytes(32), systemRandom), ipLists });
  const project = await services.projects.create({ name: 'bench' });
  const example = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', 'generated', 'openapi.json'), 'utf8'))
    .components.examples.AuthenticateResponseReal.value.session;
  const sessionId = randomUUID();
  await services.repos.sessions.insert({
    id: sessionId,
    projectId: project.project_id,
    ipAddress: example.network.ip_address,
    startTime: new Date(),
    updatedAt: new Date(),
    facts: example,
  });

  const rows = [];
  for (const validateResponses of [false, true]) {
    const app = createApp({
      services,
      config: {
        rateLimitPerMinute: 1e9,
        bulkRateLimitPerMinute: 1e9,
        authFailureLimitPerIp: 1e9,
        ingestRateLimitPerIp: 1e9,
        ingestRateLimitPerProject: 1e9,
        publicRedirectRateLimitPerIp: 1e9,
        publicRedirectRateLimitPerProject: 1e9,
        rateLimitStore: 'memory',
        validateResponses,
        trustProxy: false,
        bodyLimit: '1mb',
        evaluationConcurrency: 64,
      },
    });
    const server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${server.address().port}`;
    const headers = { 'x-api-key': project.api_key, 'content-type': 'application/json' };
    await load(`${base}/session/${sessionId}`, { headers }); // warm-up
    const get = await load(`${base}/session/${sessionId}`, { headers });
    const post = await load(`${base}/session/authenticate`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ session_id: randomUUID(), account: { id: 'a' } }),
    });
    rows.push({ validateResponses, get, post });
    await new Promise((r) => server.close(r));
  }
  ipLists.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });

  console.log(`${REQUESTS} requests, concurrency ${CONCURRENCY}, node ${process.version}, ${os.cpus().length} cores`);
  for (const r of rows) {
    console.log(
      `response validation ${r.validateResponses ? 'on ' : 'off'}: GET /session/{id} ${r.get.rps.toFixed(0)} req/s, ${r.get.meanMs.toFixed(2)} ms mean; ` +
        `POST /session/authenticate (400) ${r.post.rps.toFixed(0)} req/s, ${r.post.meanMs.toFixed(2)} ms mean`,
    );
  }
  const [off, on] = rows;
  console.log(
    `cost of response validation on GET /session/{id}: ${(((off.get.rps - on.get.rps) / off.get.rps) * 100).toFixed(1)}% fewer req/s`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
