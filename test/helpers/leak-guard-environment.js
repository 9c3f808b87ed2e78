/**
 * The test environment of every test file (jest.config.js): Node's, plus a guard that fails the
 * file when it ends with a server still listening or a child process still running that it
 * started (an app, a webhook receiver, a `trustgate worker` or server process), or a background
 * loop of the service still running in it (a webhook dispatcher, the verification sweeper:
 * src/loops.ts lists them on the test's global object). It runs after
 * every `afterAll` of the file, so a file that closes what it opened passes; one that forgets
 * fails here, naming what it left, instead of slowing or breaking the files after it.
 */
'use strict';
const { TestEnvironment } = require('jest-environment-node');

/** The kinds of handle a test must close (Node's names, from process.getActiveResourcesInfo()). */
const GUARDED = ['TCPServerWrap', 'PipeServerWrap', 'ProcessWrap'];

function counts() {
  const out = Object.fromEntries(GUARDED.map((k) => [k, 0]));
  for (const r of process.getActiveResourcesInfo()) if (r in out) out[r]++;
  return out;
}

class LeakGuardEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    this.before = counts();
  }

  async teardown() {
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
