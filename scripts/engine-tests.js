#!/usr/bin/env node
/**
 * Which test files reach storage, from their import graph. The PostgreSQL run (`npm run test:pg`,
 * .ci/run) runs only those: a file that never reaches a database driver nor hands DATABASE_URL to
 * a process runs the same on both engines, and running it twice proves nothing twice.
 *
 * A test file reaches storage when a module it loads (its relative imports, require() and
 * import() calls, followed through test/, src/, scripts/ and the workspace packages; type-only
 * imports are erased and not followed) imports a database driver (knex, pg, better-sqlite3) or
 * names DATABASE_URL (a helper that starts the server or the CLI with the test's database). The
 * graph cannot see a child process that inherits the environment and opens a database itself:
 * the test environment (test/helpers/leak-guard-environment.js) covers that by running every
 * engine-independent file with a DATABASE_URL that points nowhere, so such a file fails on SQLite.
 *
 *   node scripts/engine-tests.js            the engine-independent files, one a line
 *   node scripts/engine-tests.js --storage  the files that reach storage
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DRIVERS = new Set(['knex', 'pg', 'better-sqlite3']);
const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.mjs', '.cjs', '/index.ts', '/index.js'];

/** Every specifier a module loads at run time: import … from, export … from, import '…', require(), import(). */
function specifiers(source) {
  const out = [];
  const statement = /^\s*(import|export)\s+(type\s+)?(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(statement)) if (!m[2]) out.push(m[3]);
  for (const m of source.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]);
  return out;
}

function resolveFile(from, specifier) {
  let base;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else if (specifier.startsWith('@trustgate/')) base = path.join(ROOT, 'packages', specifier.slice(11), 'src', 'index');
  else return undefined;
  // The sources import each other as Node's ES modules must ('./x.js' for x.ts), as jest.config.js maps.
  const candidates = [base, base.replace(/\.js$/, '')];
  for (const candidate of candidates)
    for (const extension of EXTENSIONS) {
      const file = candidate + extension;
      if (fs.existsSync(file) && fs.statSync(file).isFile()) return file;
    }
  return undefined;
}

const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Whether each module, or one it loads, reaches storage; memoised over the whole graph. */
function makeClassifier() {
  const direct = new Map();
  const edges = new Map();
  const load = (file) => {
    if (edges.has(file)) return;
    const source = /\.(ts|tsx|js|mjs|cjs)$/.test(file) ? fs.readFileSync(file, 'utf8') : '';
    const found = specifiers(source);
    direct.set(file, source.includes('DATABASE_URL') || found.some((s) => DRIVERS.has(packageName(s))));
    edges.set(file, found.map((s) => resolveFile(file, s)).filter(Boolean));
  };
  return function reachesStorage(file) {
    const seen = new Set([file]);
    const queue = [file];
    while (queue.length > 0) {
      const next = queue.pop();
      load(next);
      if (direct.get(next)) return true;
      for (const dependency of edges.get(next))
        if (!seen.has(dependency)) (seen.add(dependency), queue.push(dependency));
    }
    return false;
  };
}

function testFiles(folder = path.join(ROOT, 'test')) {
  const out = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(file));
    else if (entry.name.endsWith('.test.ts')) out.push(file);
  }
  return out.sort();
}

/** The test files (absolute paths) split by whether they reach storage. */
function classifyTests(files = testFiles()) {
  const reachesStorage = makeClassifier();
  const storage = [];
  const independent = [];
  for (const file of files) (reachesStorage(file) ? storage : independent).push(file);
  return { storage, independent };
}

module.exports = { classifyTests, specifiers };

if (require.main === module) {
  const { storage, independent } = classifyTests();
  const list = process.argv.includes('--storage') ? storage : independent;
  for (const file of list) console.log(path.relative(ROOT, file));
}
