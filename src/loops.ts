/**
 * The background loops running in this process (the webhook dispatcher, the verification
 * sweeper), so that the tests' guard (test/helpers/leak-guard-environment.js) can fail a test
 * file that leaves one running. Kept on the global object under a registered symbol, where the
 * guard reads it from the test's global; costs a Map entry per loop.
 */
const LOOPS = Symbol.for('trustgate.loops');

function running(): Map<object, string> {
  const global = globalThis as { [LOOPS]?: Map<object, string> };
  return (global[LOOPS] ??= new Map());
}

/** Runs `loop` as a named background loop: listed while it runs, whichever way it ends. */
export async function trackLoop(name: string, loop: () => Promise<void>): Promise<void> {
  const token = {};
  running().set(token, name);
  try {
    await loop();
  } finally {
    running().delete(token);
  }
}
