#!/usr/bin/env node
// The latency tail this machine allows a server shaped like authenticate, without the service:
// what `bench:authenticate`'s "p99 ≤ 2× p50" is to be judged against.
//
//   npm run bench:tail-floor [-- --duration 8] [--connections 16]
//
// Each shape is a plain node:http server in a process of its own (no Express, no database, no
// garbage to speak of), loaded with autocannon as bench:authenticate loads its routes (POST, a
// small JSON body, an answer of about 5 KB; latencies from each response's time). The request
// thread spends `main` ms of CPU per request, in `hops` slices; with a worker, each slice but
// the last is followed by a call to a worker thread that spends `worker` ms and answers (one
// message per turn of the event loop, as src/storage/sqlite/thread.ts batches its calls), the
// way an authenticate alternates between the request thread and the SQLite thread. `objects`
// makes each slice allocate that many small objects, one in eight kept until the answer.
// The shapes' CPU per request is about authenticate's on SQLite (bench:authenticate prints it).
'use strict';
const http = require('node:http');
const { fork } = require('node:child_process');
const { parseArgs } = require('node:util');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');

const spin = (ms) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

const SHAPES = [
  { name: 'request thread only, in one go', main: 1, hops: 1, worker: 0, objects: 0 },
  { name: 'request thread only, in 4 slices', main: 1, hops: 4, worker: 0, objects: 0 },
  {
    name: '4 slices with a worker-thread call after each of the first 3',
    main: 0.45,
    hops: 4,
    worker: 0.2,
    objects: 0,
  },
  { name: 'the same, each slice allocating 1,200 objects', main: 0.3, hops: 4, worker: 0.2, objects: 1200 },
];

if (!isMainThread) {
  // The worker: spends the asked time on each call and answers a batch with one message.
  parentPort.on('message', (calls) => {
    parentPort.postMessage(
      calls.map(({ id }) => {
        spin(workerData.worker);
        return { id, rows: [{ value: 'x'.repeat(200) }] };
      }),
    );
  });
} else if (process.argv[2] === '--serve') {
  const shape = JSON.parse(process.argv[3]);
  const worker = shape.worker > 0 ? new Worker(__filename, { workerData: shape }) : undefined;
  const pending = new Map();
  let next = 0;
  let batch = [];
  worker?.on('message', (answers) => {
    for (const a of answers) {
      pending.get(a.id)(a);
      pending.delete(a.id);
    }
  });
  const call = () =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      if (batch.length === 0)
        queueMicrotask(() => {
          worker.postMessage(batch);
          batch = [];
        });
      batch.push({ id });
    });
  const answer = JSON.stringify({ session: 'y'.repeat(5000) });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      const kept = [];
      for (let hop = 0; hop < shape.hops; hop++) {
        spin(shape.main / shape.hops);
        for (let k = 0; k < shape.objects; k++) {
          const o = { k, s: `v${k}`, a: [k, hop] };
          if (k % 8 === 0) kept.push(o);
        }
        if (worker && hop < shape.hops - 1) await call();
        else if (hop < shape.hops - 1) await new Promise(setImmediate);
      }
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-kept', String(kept.length));
      res.end(answer);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
} else {
  const { values: args } = parseArgs({
    options: { duration: { type: 'string', default: '8' }, connections: { type: 'string', default: '16' } },
  });
  const autocannon = require('autocannon');
  const measure = (shape) =>
    new Promise((resolve, reject) => {
      const child = fork(__filename, ['--serve', JSON.stringify(shape)]);
      child.once('message', ({ port }) => {
        const times = [];
        const instance = autocannon(
          {
            url: `http://127.0.0.1:${port}/`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ session_id: '00000000-0000-4000-8000-000000000000' }),
            connections: Number(args.connections),
            duration: Number(args.duration),
          },
          (err, result) => {
            child.kill();
            if (err) return reject(err);
            const sorted = Float64Array.from(times).sort();
            const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
            resolve({
              rps: result.requests.average,
              p50: at(0.5),
              p99: at(0.99),
              errors: result.errors + result.non2xx,
            });
          },
        );
        instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
      });
    });
  (async () => {
    console.log(`tail floor: node ${process.version}, autocannon ${args.duration} s × ${args.connections} connections`);
    for (const shape of SHAPES) {
      const r = await measure(shape);
      console.log(
        `${shape.name.padEnd(62)} ${String(Math.round(r.rps)).padStart(6)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   p99/p50 ${(r.p99 / r.p50).toFixed(2)}${r.errors ? `   (${r.errors} errors)` : ''}`,
      );
    }
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
