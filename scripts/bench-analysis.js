#!/usr/bin/env node
// Measures the local analysis engine (compiled, from dist/): model load time, warm-up, seconds
// per Face Match analysis and per ID Check analysis (a licence with its PDF417, and a passport
// read by its MRZ; median of --runs after warm-up), and the
// memory the process holds with the models loaded. With --similarity it also prints the face
// similarity figures docs/analysis.md quotes; with --scan, the brute-force search over
// --vectors enrolled embeddings.
//   npx tsc -p tsconfig.build.json && npm run bench:analysis [-- --runs 10 --similarity --scan]
// The input images are made at run time by the test fixtures (test/analysis/fixtures/), bundled
// here with esbuild (a devDependency), from photos that installed packages ship.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist', 'src', 'analysis');
if (!fs.existsSync(path.join(dist, 'engine.js'))) {
  console.error('bench-analysis: build first: npx tsc -p tsconfig.build.json (or npm run build)');
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    similarity: { type: 'boolean', default: false },
    scan: { type: 'boolean', default: false },
    vectors: { type: 'string', default: '100000' },
  },
});
const RUNS = Number(values.runs);

function loadFixtures() {
  // Inside the project (dist/ is build output), so that the bundle's requires find node_modules.
  const out = path.join(root, 'dist', 'bench', 'analysis-fixtures.js');
  require('esbuild').buildSync({
    entryPoints: [path.join(root, 'test', 'analysis', 'fixtures', 'index.ts')],
    bundle: true,
    platform: 'node',
    packages: 'external',
    outfile: out,
    logLevel: 'warning',
    absWorkingDir: root,
  });
  return require(out);
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(3)} s`;

async function time(fn) {
  const t0 = process.hrtime.bigint();
  const result = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, result };
}

async function main() {
  const sharp = require(require.resolve('sharp', { paths: [root] }));
  const fx = loadFixtures();
  const photos = await fx.facePhotos();
  const person = photos.find((p) => p.name === 'sample3#0');
  // A phone-like selfie: the face large in a 960 x 1280 JPEG.
  const selfie = await sharp(person.png).resize(960, 1280, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();
  const front = await fx.photograph(await fx.cardFront(person.png), {
    width: 2400,
    height: 1800,
    rotate: 3,
    noise: 6,
    jpeg: true,
  });
  const back = await fx.photograph(await fx.cardBack(await fx.pdf417Png(fx.buildAamva(fx.CALIFORNIA))), {
    width: 2400,
    height: 1800,
    rotate: -4,
    noise: 6,
    jpeg: true,
  });
  const passport = await fx.photograph(await fx.passportPage(person.png, fx.td3(fx.PASSPORT_HOLDER)), {
    width: 2400,
    height: 1800,
    rotate: 2,
    noise: 6,
    jpeg: true,
  });
  const cover = await fx.photograph(
    await sharp({ create: { width: 880, height: 1250, channels: 3, background: '#6b1420' } })
      .png()
      .toBuffer(),
    { width: 2400, height: 1800, scale: 0.45, jpeg: true },
  );
  const faceMatch = { type: 'face-match', captures: [{ kind: 'selfie', contentType: 'image/jpeg', bytes: selfie }] };
  const idCheck = {
    type: 'id-check',
    captures: [
      { kind: 'selfie', contentType: 'image/jpeg', bytes: selfie },
      { kind: 'id_front', contentType: 'image/jpeg', bytes: front },
      { kind: 'id_back', contentType: 'image/jpeg', bytes: back },
    ],
  };

  const passportCheck = {
    type: 'id-check',
    captures: [
      { kind: 'selfie', contentType: 'image/jpeg', bytes: selfie },
      { kind: 'id_front', contentType: 'image/jpeg', bytes: passport },
      { kind: 'id_back', contentType: 'image/jpeg', bytes: cover },
    ],
  };

  global.gc?.();
  const baseline = process.memoryUsage();
  const { acquireHuman, defaultModelDir, releaseHuman } = require(path.join(dist, 'face', 'models.js'));
  const { makeLocalAnalysisEngine } = require(path.join(dist, 'engine.js'));
  const engine = makeLocalAnalysisEngine();
  // The models are shared per process: loading them here first times the load alone.
  const load = await time(() => acquireHuman(defaultModelDir(), 5));
  const warm = await time(() => engine.warmUp());
  await releaseHuman(); // the engine holds its own reference

  const check = await engine.analyse(idCheck);
  if (check.outcome !== 'analysed' || check.document.barcode !== 'read' || !check.document.face) {
    throw new Error(`the ID Check input was not fully read: ${JSON.stringify(check).slice(0, 300)}`);
  }
  const mrz = await engine.analyse(passportCheck);
  if (mrz.outcome !== 'analysed' || mrz.document.source !== 'mrz')
    throw new Error(`the passport's MRZ was not read: ${JSON.stringify(mrz).slice(0, 300)}`);
  const fm = [];
  const id = [];
  const pp = [];
  for (let i = 0; i < RUNS; i++) {
    fm.push((await time(() => engine.analyse(faceMatch))).ms);
    id.push((await time(() => engine.analyse(idCheck))).ms);
    pp.push((await time(() => engine.analyse(passportCheck))).ms);
  }
  global.gc?.();
  const held = process.memoryUsage();

  console.log(`node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0].model})`);
  console.log(`model load (Human's 5 face models from disk, wasm backend): ${seconds(load.ms)}`);
  console.log(`warm-up (zxing wasm, Tesseract worker, first run of each face model): ${seconds(warm.ms)}`);
  console.log(
    `Face Match analysis, median of ${RUNS}: ${seconds(median(fm))}  (min ${seconds(Math.min(...fm))}, max ${seconds(Math.max(...fm))})`,
  );
  console.log(
    `ID Check analysis,   median of ${RUNS}: ${seconds(median(id))}  (min ${seconds(Math.min(...id))}, max ${seconds(Math.max(...id))})`,
  );
  console.log(
    `ID Check, passport (no barcode: MRZ OCR on both sides), median of ${RUNS}: ${seconds(median(pp))}  (min ${seconds(Math.min(...pp))}, max ${seconds(Math.max(...pp))})`,
  );
  console.log(`  inputs: selfie 960x1280 JPEG; front and back 2400x1800 JPEG`);
  console.log(
    `memory after warm-up and the runs: rss ${mb(held.rss)} (+${mb(held.rss - baseline.rss)}), heap used ${mb(held.heapUsed)}, ` +
      `external ${mb(held.external)}, array buffers ${mb(held.arrayBuffers)}${global.gc ? '' : ' (run with --expose-gc for steadier figures)'}`,
  );

  if (values.similarity) await similarity(engine, fx, photos);
  await engine.close();
  if (values.scan) scan(Number(values.vectors));
}

async function similarity(engine, fx, photos) {
  const embed = async (bytes) => {
    const r = await engine.analyse({
      type: 'face-match',
      captures: [{ kind: 'selfie', contentType: 'image/png', bytes }],
    });
    return r.outcome === 'analysed' ? r.selfie.embedding : null;
  };
  // The similarity the service uses (src/domain/verification/faces.ts), unclamped.
  const { cosine: dot } = require(path.join(root, 'dist', 'src', 'domain', 'verification', 'faces.js'));
  const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(3);
  const embs = [];
  for (const p of photos) embs.push(await embed(p.png));
  const different = [];
  for (let i = 0; i < embs.length; i++) for (let j = i + 1; j < embs.length; j++) different.push(dot(embs[i], embs[j]));
  console.log(
    `\ndifferent people (${photos.length} faces, ${different.length} pairs): min ${q(different, 0)}, median ${q(different, 0.5)}, p95 ${q(different, 0.95)}, p99 ${q(different, 0.99)}, max ${q(different, 1)}`,
  );
  const same = {};
  let missed = 0;
  for (const [i, p] of photos.entries()) {
    for (const [name, bytes] of Object.entries(await fx.variations(p.png))) {
      const e = await embed(bytes);
      if (!e) {
        missed++;
        continue;
      }
      (same[name] ??= []).push(dot(embs[i], e));
    }
  }
  const all = Object.values(same).flat();
  for (const [name, xs] of Object.entries(same))
    console.log(
      `same face, ${name.padEnd(20)} n ${xs.length}: min ${q(xs, 0)}, p05 ${q(xs, 0.05)}, median ${q(xs, 0.5)}`,
    );
  console.log(
    `same face, all variations n ${all.length}: min ${q(all, 0)}, p01 ${q(all, 0.01)}, p05 ${q(all, 0.05)}; variations where no single face was found: ${missed}`,
  );
  const man = embs[photos.findIndex((p) => p.name === 'screenshot-facedetect#0')];
  const other = await embed(await fx.sameManOtherPhoto());
  console.log(
    `same man, two different photos: ${dot(man, other).toFixed(3)} (that photo against the 26 others: max ${Math.max(...embs.filter((e) => e !== man).map((e) => dot(e, other))).toFixed(3)})`,
  );
}

/** Brute-force nearest neighbours: one query against `count` unit vectors of 1024 floats in one Float32Array. */
function scan(count) {
  const dim = 1024;
  const store = new Float32Array(count * dim);
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296) * 2 - 1;
  for (let i = 0; i < count; i++) {
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += (store[i * dim + d] = random()) ** 2;
    norm = Math.sqrt(norm);
    for (let d = 0; d < dim; d++) store[i * dim + d] /= norm;
  }
  const query = store.slice(5 * dim, 6 * dim);
  const once = () => {
    let best = -2;
    let bestIndex = -1;
    for (let i = 0, off = 0; i < count; i++, off += dim) {
      let s = 0;
      for (let d = 0; d < dim; d++) s += store[off + d] * query[d];
      if (s > best) {
        best = s;
        bestIndex = i;
      }
    }
    return bestIndex;
  };
  once();
  const times = [];
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    if (once() !== 5) throw new Error('scan found the wrong vector');
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(
    `\nbrute-force scan, ${count} x ${dim} float32 (${mb(store.byteLength)}): median ${median(times).toFixed(1)} ms a query (one core)`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
