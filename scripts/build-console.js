#!/usr/bin/env node
// Builds the console (console/, a Vite + React + Mantine app; docs/console.md) into
// dist/console, which the server serves at /console.
//
// As in build-if-stale.js (whose hash it uses), the build's inputs are kept as one SHA-256 over
// their paths and contents (dist/console/.build-stamp), so `--if-stale` (the jest run's
// globalSetup) builds only when the console's sources, the contract's types or the installed
// versions changed.
//
//   node scripts/build-console.js              build
//   node scripts/build-console.js --if-stale   build when stale or missing
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { inputsHash: hashOf } = require('./build-if-stale');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'dist', 'console');
const STAMP = path.join(OUT, '.build-stamp');
/** What the console's build reads. */
const INPUTS = ['console', 'scripts/build-console.js', 'generated/openapi.d.ts', 'package-lock.json'];

const inputsHash = () => hashOf(ROOT, INPUTS);

/** Whether dist/console is missing or was built from other inputs. */
function isStale() {
  if (!fs.existsSync(path.join(OUT, 'index.html')) || !fs.existsSync(STAMP)) return true;
  return fs.readFileSync(STAMP, 'utf8').trim() !== inputsHash();
}

/** Runs Vite's production build; throws when it fails. Returns the seconds it took. */
function buildConsole() {
  const started = process.hrtime.bigint();
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
  const run = spawnSync(
    process.execPath,
    [vite, 'build', '--config', path.join(ROOT, 'console', 'vite.config.mts'), '--logLevel', 'warn'],
    {
      cwd: ROOT,
      stdio: 'inherit',
      // Always the production bundle: jest sets NODE_ENV=test, which would make Vite bundle React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
  if (run.status !== 0) throw new Error(`the console's build failed (exit ${run.status})`);
  fs.writeFileSync(STAMP, `${inputsHash()}\n`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Builds when stale; the seconds it took, or 0 when the build was current. */
function buildConsoleIfStale() {
  return isStale() ? buildConsole() : 0;
}

module.exports = { buildConsole, buildConsoleIfStale, isStale, CONSOLE_DIST: OUT };

if (require.main === module) {
  const seconds = process.argv.includes('--if-stale') ? buildConsoleIfStale() : buildConsole();
  if (seconds) console.log(`console built into dist/console in ${seconds.toFixed(1)} s`);
}
