/**
 * Signs that the page is driven by automation: `navigator.webdriver`, the detectors of
 * @fingerprintjs/botd (MIT; headless browsers, Selenium, PhantomJS, Electron, …), the globals
 * that drivers leave behind, and events dispatched by scripts. Signals are short snake_case
 * names, for example `headless_chrome:user_agent`.
 *
 * botd's `load()` may send a statistics request to a third party; the SDK calls its
 * `collect` and `detect` directly, so nothing leaves the page but Trustgate's own posts.
 */
import { collect, detect, detectors, sources } from '@fingerprintjs/botd';
import { bindingSignals, cdpSignals } from './cdp.js';
import type { IngestSession } from './types.js';

type Automation = NonNullable<IngestSession['automation']>;

const DRIVER_GLOBALS =
  /^(cdc_|\$cdc_|\$wdc_|__webdriver|__selenium|__fxdriver|__driver_|_selenium|_Selenium_IDE_Recorder|callSelenium|callPhantom|_phantom|__nightmare|domAutomation|__playwright|__pw_|__puppeteer)/;

const snake = (text: string) =>
  text
    .replace(/^detect/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();

function driverGlobals(): string[] {
  const found = new Set<string>();
  for (const scope of [window, document] as object[]) {
    try {
      for (const name of Object.getOwnPropertyNames(scope))
        if (DRIVER_GLOBALS.test(name)) found.add(`driver_global:${name.slice(0, 40)}`);
    } catch {
      // A hostile page can make property enumeration throw; the other checks still count.
    }
  }
  return [...found];
}

/**
 * The checks that a driver may trip only once the page is in use (a global or a protocol binding
 * it defines on its first action, not at load): run again for every later post, and when the
 * page asks for the session (trustgate.ts `update`). Cheap enough for that: walks of the
 * window's and the document's own names (a fresh frame's are read once).
 */
export function lateSignals(): string[] {
  return [...driverGlobals(), ...bindingSignals()];
}

export async function automation(syntheticEvents = 0): Promise<Automation> {
  // Before the first await: the DevTools checks read the call stack that started the SDK.
  const signals = new Set<string>(cdpSignals());
  try {
    const [detections] = detect(await collect(sources), detectors);
    for (const [name, result] of Object.entries(detections)) {
      if (result.bot) signals.add(`${result.botKind}:${snake(name)}`);
    }
  } catch {
    // botd failing is not a finding.
  }
  for (const signal of driverGlobals()) signals.add(signal);
  if (syntheticEvents > 0) signals.add('synthetic_events');
  return { webdriver: navigator.webdriver === true, signals: [...signals].slice(0, 32).map((s) => s.slice(0, 64)) };
}
