/**
 * The test environment of every test file (jest.config.js): Node's, plus a guard that fails the
 * file when it ends with a server still listening or a child process still running that it
 * started (an app, a webhook receiver, a `trustgate worker` or server process), or a background
 * loop of the service still running in it (a webhook dispatcher, the verification sweeper:
 * src/loops.ts lists them on the test's global object). It runs after
 * every `afterAll` of the file, so a file that closes what it opened passes; one that forgets
 * fails here, naming what it left, instead of slowing or breaking the files after it.
 *
 * A file that scripts/engine-tests.js finds engine-independent (it never reaches storage, so the
 * PostgreSQL run skips it) runs with DATABASE_URL naming a PostgreSQL server that is not there,
 * in its own process.env and in the one its child processes inherit: a file the import graph
 * misjudged, one that opens a database after all, fails on SQLite instead of going untested on
 * PostgreSQL.
 */
'use strict';
const { TestEnvironment } = require('jest-environment-node');

/** The kinds of handle a test must close (Node's names, from process.getActiveResourcesInfo()). */
const GUARDED = ['TCPServerWrap', 'PipeServerWrap', 'ProcessWrap'];

/**
 * Kept for the life of the worker, across its test files: read-only data costly to load
 * (test/helpers/app.ts sharedIpData), which each file's own module registry would load again.
 */
const workerShared = new Map();

/** Nothing listens on port 1 of loopback: a connection is refused at once, naming why in the URL. */
const NO_DATABASE = 'postgres://engine-independent-test-reached-storage@127.0.0.1:1/see-scripts-engine-tests-js';

function counts() {
  const out = Object.fromEntries(GUARDED.map((k) => [k, 0]));
  for (const r of process.getActiveResourcesInfo()) if (r in out) out[r]++;
  return out;
}

class LeakGuardEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.global[Symbol.for('trustgate.workerShared')] = workerShared;
    const independent = config.projectConfig.testEnvironmentOptions.engineIndependent ?? [];
    this.engineIndependent = independent.includes(context.testPath);
    if (this.engineIndependent) this.global.process.env.DATABASE_URL = NO_DATABASE;
  }

  async setup() {
    await super.setup();
    this.before = counts();
    if (this.engineIndependent) {
      this.databaseUrl = process.env.DATABASE_URL;
      process.env.DATABASE_URL = NO_DATABASE;
    }
  }

  async teardown() {
    if (this.engineIndependent) {
      if (this.databaseUrl === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = this.databaseUrl;
    }
    // A handle being closed goes away on the next turns of the event loop.
    let left = [];
    for (let i = 0; i < 20; i++) {
      const now = counts();
      left = GUARDED.filter((k) => now[k] > this.before[k]).map((k) => `${now[k] - this.before[k]} × ${k}`);
      const loops = this.global[Symbol.for('trustgate.loops')];
      if (loops) for (const name of loops.values()) left.push(`the ${name} (never stopped: abort its signal)`);
      if (left.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await super.teardown();
    if (left.length > 0) {
      throw new Error(
        `${this.testPath} left running: ${left.join(', ')} (TCPServerWrap: a listening server; ProcessWrap: a child process). Close or kill it in afterAll.`,
      );
    }
  }
}

module.exports = LeakGuardEnvironment;
