/**
 * Jest's globalSetup: builds the console (dist/console, which test/http/console-app.test.ts and
 * test/e2e/console.test.ts serve) once per run, and only when its inputs changed since the last
 * build (scripts/build-console.js --if-stale: a hash of console/, its build script, the contract's types and the
 * lockfile, a few milliseconds; a build about 1 to 2 s on the shared machine). Where Vite is not
 * installed yet (node_modules older than package.json) the other tests still run: it says so,
 * and only the console's tests fail.
 */
const { buildConsoleIfStale } = require('../../scripts/build-console');

module.exports = async function buildConsoleForTests() {
  try {
    require.resolve('vite/package.json');
  } catch {
    process.stderr.write('\nglobalSetup: vite is not installed (run npm install); the console is not built\n');
    return;
  }
  const seconds = buildConsoleIfStale();
  if (seconds) process.stderr.write(`\nglobalSetup: console built into dist/console in ${seconds.toFixed(1)} s\n`);
};
