/**
 * Signs that a Chrome DevTools Protocol client (puppeteer, playwright and the "undetected"
 * drivers built on them) controls the page, from side effects that stealth patches of
 * `navigator` do not remove:
 *
 * - `cdp:runtime_enabled`: with the protocol's Runtime domain enabled (every puppeteer and
 *   playwright page; also an open DevTools window), each console message is turned into remote
 *   objects for the client, and an Error's description reads its stack, which formats it
 *   through `Error.prepareStackTrace`. Without a client the console keeps the message as is and
 *   the hook never runs. The message is logged at debug level, hidden in DevTools by default.
 * - `cdp:evaluation_stack`: the SDK itself was started from a protocol evaluation (the
 *   drivers' script URLs appear in its call stack).
 */
const EVALUATION_SCRIPTS = /pptr:|__puppeteer_evaluation_script__|__playwright_evaluation_script__|UtilityScript/;

function runtimeEnabled(): boolean {
  const E = Error as ErrorConstructor & { prepareStackTrace?: unknown };
  const original = E.prepareStackTrace;
  let formatted = false;
  try {
    E.prepareStackTrace = () => {
      formatted = true;
      return '';
    };
    console.debug(new Error(''));
  } catch {
    // A console that throws tells nothing.
  } finally {
    E.prepareStackTrace = original;
  }
  return formatted;
}

export function cdpSignals(): string[] {
  const found: string[] = [];
  if (runtimeEnabled()) found.push('cdp:runtime_enabled');
  try {
    if (EVALUATION_SCRIPTS.test(new Error('').stack ?? '')) found.push('cdp:evaluation_stack');
  } catch {
    // No stack, no finding.
  }
  return found;
}
