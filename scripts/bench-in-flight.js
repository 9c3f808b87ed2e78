#!/usr/bin/env node
// What a long-lived registry of work in flight costs the garbage collector: a Map against
// src/in-flight.ts's two (docs/pipeline.md, "Long-lived maps of short-lived entries"); and what
// each costs an entry (a set, a get and a delete, 16 in flight, numbers in order).
//
//   npm run build && npm run bench:in-flight [-- --seconds 5] [--in-flight 16]
//
// Each registry runs in a process of its own with V8's --trace-gc-nvp. The registry is made old
// first (it survives two young collections, as the service's registries do once it has run a
// while); then `in-flight` pieces of work at a time each put an entry in it, hold about 20 KB of
// objects for a millisecond (a timer) and take the entry out again, the way a request waits for
// the SQLite thread's answer or an account's previous authenticate. Printed per registry: the
// pieces done a second, the young collections, and what each of them kept alive and promoted to
// the old generation on average (the work in flight at that moment is all that is still in use).
'use strict';
const path = require('node:path');
const { fork } = require('node:child_process');
const { parseArgs } = require('node:util');

const IN_FLIGHT = path.join(__dirname, '..', 'dist', 'src', 'in-flight.js');

if (process.argv[2] === '--child') {
  const [, , , kind, seconds, inFlight] = process.argv;
  const registry =
    kind === 'Map'
      ? (() => {
          const m = new Map();
          return { set: (k, v) => m.set(k, v), delete: (k) => m.delete(k) };
        })()
      : require(IN_FLIGHT)[kind]();
  registry.set(-1, {});
  global.gc({ type: 'minor' });
  global.gc({ type: 'minor' });
  registry.delete(-1);
  let id = 0;
  let done = 0;
  const end = Date.now() + Number(seconds) * 1000;
  const work = () => {
    const mine = id++;
    registry.set(
      mine,
      Array.from({ length: 500 }, (_, i) => ({ i, s: `v${i}` })),
    );
    setTimeout(() => {
      registry.delete(mine);
      done++;
      if (Date.now() < end) work();
      else if (done === id) process.send({ perSecond: done / Number(seconds) });
    }, 1);
  };
  for (let i = 0; i < Number(inFlight); i++) work();
} else {
  const { values: args } = parseArgs({
    options: { seconds: { type: 'string', default: '5' }, 'in-flight': { type: 'string', default: '16' } },
  });
  try {
    require(IN_FLIGHT);
  } catch {
    console.error('bench-in-flight: run `npm run build` first');
    process.exit(1);
  }
  const measure = (kind) =>
    new Promise((resolve, reject) => {
      const child = fork(__filename, ['--child', kind, args.seconds, args['in-flight']], {
        execArgv: ['--expose-gc', '--trace-gc-nvp'],
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      });
      let out = '';
      let perSecond = 0;
      child.stdout.on('data', (d) => (out += d));
      child.on('message', (m) => {
        perSecond = m.perSecond;
        child.kill();
      });
      child.on('error', reject);
      child.on('exit', () => {
        // The young collections after the two the registry was made old with.
        const young = out
          .split('\n')
          .filter((l) => l.includes(' gc=s '))
          .slice(2);
        const field = (l, name) => Number((l.match(new RegExp(` ${name}=(\\d+)`)) || [])[1] || 0);
        const mean = (name) => young.reduce((t, l) => t + field(l, name), 0) / Math.max(1, young.length);
        const total = young.reduce((t, l) => t + field(l, 'promoted'), 0);
        resolve({
          perSecond,
          collections: young.length,
          survived: mean('new_space_survived'),
          promoted: mean('promoted'),
          total,
        });
      });
    });
  (async () => {
    console.log(
      `in-flight registries: node ${process.version}, ${args['in-flight']} in flight, ${args.seconds} s each`,
    );
    const rows = [];
    for (const kind of ['Map', 'makeInFlight', 'makeNumberedInFlight']) {
      const r = await measure(kind);
      rows.push(r);
      console.log(
        `${kind.padEnd(20)} ${String(Math.round(r.perSecond)).padStart(7)} a second   ${String(r.collections).padStart(4)} young collections, each keeping ${(r.survived / 1024).toFixed(0).padStart(5)} KB and promoting ${(r.promoted / 1024).toFixed(0).padStart(5)} KB (${(r.total / 1e6).toFixed(1)} MB in all)`,
      );
    }
    const [map, inFlight, numbered] = rows;
    console.log(
      `promoted in all: makeInFlight ${((inFlight.total / Math.max(1, map.total)) * 100).toFixed(1)} % of the Map's, makeNumberedInFlight ${((numbered.total / Math.max(1, map.total)) * 100).toFixed(1)} %; pieces a second ×${(inFlight.perSecond / map.perSecond).toFixed(2)} and ×${(numbered.perSecond / map.perSecond).toFixed(2)}`,
    );
    // The cost of an entry, in this process: numbers in order, 16 in flight.
    const lib = require(IN_FLIGHT);
    const perEntry = (make) => {
      const registry = make();
      const value = {};
      const n = 2_000_000;
      const start = process.hrtime.bigint();
      for (let id = 0; id < n; id++) {
        registry.set(id, value);
        if (id >= 16) {
          registry.get(id - 16);
          registry.delete(id - 16);
        }
      }
      return Number(process.hrtime.bigint() - start) / n;
    };
    const kinds = {
      Map: () => new Map(),
      makeInFlight: lib.makeInFlight,
      makeNumberedInFlight: lib.makeNumberedInFlight,
    };
    perEntry(kinds.makeInFlight); // (warm-up)
    console.log(
      `an entry (set, get, delete): ${Object.entries(kinds)
        .map(([kind, make]) => `${kind} ${perEntry(make).toFixed(0)} ns`)
        .join(', ')}`,
    );
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
