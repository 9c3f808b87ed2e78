#!/usr/bin/env node
// `npm start`'s prestart: runs `npm run build` only when what the build reads has changed since
// the last build, so that a restart (a changed environment variable) does not rebuild.
//
// The last build's inputs are kept as one SHA-256 over their paths and contents in
// dist/.build-stamp, which `npm run build` writes when it has finished (`--stamp`). Contents,
// not modification times: a checkout, a copy or a clock change cannot make an old build look new.
//
//   node scripts/build-if-stale.js           build when stale (or when an output is missing)
//   node scripts/build-if-stale.js --stamp   record the inputs as built (the end of `npm run build`)
//   node scripts/build-if-stale.js --clean   remove the compiled server (the start of `npm run build`)
//
// tsc writes its outputs over the last build's and never removes one: a module that became a
// folder (geo/ip-lists.ts → geo/ip-lists/index.ts) left its old ip-lists.js beside the new
// folder, and Node resolves the file first, so an installation updated in place ran the old
// module (GET /healthz answered 503). The build therefore starts from an empty dist/src.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/** What `npm run build` reads: tsc's projects and sources, the packages' sources and bundlers, the installed versions. */
const INPUTS = [
  'src',
  'generated',
  ...['client', 'web'].flatMap((p) => [
    `packages/${p}/src`,
    `packages/${p}/package.json`,
    `packages/${p}/tsconfig.json`,
  ]),
  'scripts/build-package.js',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build-sdk.js',
  'console',
  'scripts/build-console.js',
  'package.json',
  'package-lock.json',
];
/** What `npm start` and the `trustgate` command run. */
const OUTPUTS = [
  'dist/src/main.js',
  'dist/src/cli/main.js',
  'dist/sdk/trustgate.js',
  'packages/client/dist/cjs/index.js',
  'packages/web/dist/cjs/index.js',
  'dist/console/index.html',
];
const STAMP = 'dist/.build-stamp';
/** What tsc compiles into (tsconfig.build.json): removed before each build. */
const COMPILED = ['dist/src', 'dist/generated'];

/** Every file under `rel` (a file or a folder), relative to root, sorted; none when it does not exist. */
function files(root, rel) {
  const full = path.join(root, rel);
  if (!fs.existsSync(full)) return [];
  if (!fs.statSync(full).isDirectory()) return [rel];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => files(root, path.join(rel, entry.name)));
}

/** One hash over the inputs' paths and contents (`inputs`: the build's, unless another list is given). */
function inputsHash(root, inputs = INPUTS) {
  const hash = crypto.createHash('sha256');
  for (const rel of inputs.flatMap((input) => files(root, input))) {
    hash.update(`${rel}\0`);
    hash.update(fs.readFileSync(path.join(root, rel)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Why a build is needed, or undefined when dist/ was built from the inputs as they are. */
function staleness(root) {
  const missing = OUTPUTS.find((rel) => !fs.existsSync(path.join(root, rel)));
  if (missing) return `${missing} is missing`;
  const stamp = path.join(root, STAMP);
  if (!fs.existsSync(stamp)) return `${STAMP} is missing`;
  if (fs.readFileSync(stamp, 'utf8').trim() !== inputsHash(root)) return 'the sources changed since the last build';
  return undefined;
}

function writeStamp(root) {
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, STAMP), `${inputsHash(root)}\n`);
}

/** Removes the last build's compiled files (and its stamp: an interrupted build is stale). */
function clean(root) {
  for (const rel of [...COMPILED, STAMP]) fs.rmSync(path.join(root, rel), { recursive: true, force: true });
}

module.exports = { clean, inputsHash, staleness, writeStamp, COMPILED, INPUTS, OUTPUTS, STAMP };

if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  if (process.argv.includes('--stamp')) {
    writeStamp(root);
  } else if (process.argv.includes('--clean')) {
    clean(root);
  } else {
    const why = staleness(root);
    if (why) {
      process.stderr.write(`build: ${why}; running npm run build\n`);
      const npm = process.env.npm_execpath
        ? [process.execPath, [process.env.npm_execpath, 'run', 'build']]
        : ['npm', ['run', 'build']];
      const built = spawnSync(npm[0], npm[1], { cwd: root, stdio: 'inherit' });
      process.exit(built.status ?? 1);
    }
  }
}
