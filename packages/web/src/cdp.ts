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
 * - `cdp:binding` (`bindingSignals`): a function the protocol's `Runtime.addBinding` put on the
 *   page's window. Drivers that keep the Runtime domain off (rebrowser) reach the
 *   page through one, under a random name, from their first action on it: so it is looked for
 *   in every later post too. Such a function is native code without a name, and a fresh frame's
 *   window lacks it. What a page puts on window itself is its own code, or keeps a name (a copied
 *   `fetch` is named `fetch`, a bound function `bound f`), or is in every frame.
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

const NATIVE = /\{\s*\[native code\]\s*\}\s*$/;
/** The names a fresh frame's window has: read once, as a frame added and removed is seen by the page's observers. */
let frameNames: Set<string> | undefined;

function freshFrameNames(): Set<string> {
  const frame = document.createElement('iframe');
  frame.style.display = 'none';
  document.documentElement.appendChild(frame);
  try {
    return new Set(Object.getOwnPropertyNames(frame.contentWindow ?? {}));
  } finally {
    frame.remove();
  }
}

export function bindingSignals(): string[] {
  try {
    frameNames ??= freshFrameNames();
    for (const name of Object.getOwnPropertyNames(window)) {
      if (frameNames.has(name)) continue;
      const value: unknown = Object.getOwnPropertyDescriptor(window, name)?.value;
      if (typeof value === 'function' && value.name === '' && NATIVE.test(Function.prototype.toString.call(value)))
        return ['cdp:binding'];
    }
  } catch {
    // A page that makes the walk throw hides nothing this way; the other checks still count.
  }
  return [];
}
