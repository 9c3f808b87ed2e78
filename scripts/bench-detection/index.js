#!/usr/bin/env node
// The detection benchmark: real browsers on this machine against the compiled server, and what
// Trustgate makes of each session.
//
//   npm run build && npm run bench:detection [-- --json]
//
// The server (dist/: makeRuntime + createApp, as `npm start` runs it, the shipped IP data, a
// fresh SQLite file in a temporary folder; context.js) listens on a loopback port; a customer's
// sign-up page on another port carries the SDK's script tag (page.js). Each configuration loads the page (or
// posts without a browser), a session is made, and POST /session/unauthenticated says what
// Trustgate found: device_risk, the bot score, the decision and the device conditions.
//
// Configurations (tools.js, browserless.js, human.js):
// - automated, Debian's Chromium (/usr/bin/chromium) driven by playwright-core over the DevTools
//   Protocol, the pointer moved and keys typed through the protocol:
//   - headless: new headless, as launched by playwright;
//   - headless+stealth: the same with the usual stealth overrides patched in before page
//     scripts (navigator.webdriver false, a user agent without "HeadlessChrome", plugins,
//     window.chrome, languages) and --disable-blink-features=AutomationControlled;
//   - headful (Xvfb) and headful+stealth (Xvfb): the same with a window on a virtual display
//     (skipped when Xvfb is not installed);
// - automated by the drivers that keep the DevTools Runtime domain off, headless and headful
//   (Xvfb): rebrowser-puppeteer (puppeteer so patched, launched without the automation switch,
//   so navigator.webdriver is false) and patchright (playwright so patched; it evaluates in
//   worlds of its own);
// - automated without a browser (Node's fetch):
//   - http replay: the SDK's post copied from the headless run and posted again as a new session;
//   - http hand-made: a clean-looking payload written by hand, as a script would;
// - the human baseline: headful Chromium under Xvfb launched without any automation flag or
//   debugging port (a plain process, a fresh profile folder, the page's URL on its command
//   line), driven by xdotool (OS-level pointer and keys); the session id is the one the page
//   posts to the customer's back end, and the row shows the event counts the SDK sent, proof
//   that the input reached the page; skipped when Xvfb or xdotool is missing
//   (apt-get install xvfb xdotool);
// - a control: headless Chromium started with the page's URL and no debugging client (no
//   person, so it is automated too, but nothing of the DevTools Protocol).
//
// Printed: a table (configuration × signal), the detection rate over the automated
// configurations that ran (flagged: device_risk raised, bot >= 0.5 or decision Fake) and the
// false positives over the human baseline.
//
// Identity (identity.js; persistent playwright profiles, headful under Xvfb when it is there,
// each visit ending in POST /session/authenticate?accounts_linked=true with its own account; the
// match types read from linked_accounts[].match_type): two profiles of one browser (a `device` link,
// never `browser`), the same profile again (the control: `browser`), one profile before and
// after clearing the site's cookies and storage (`device`, no `browser`), one profile with its
// time zone and language changed (`device`). Printed: each case as expected or not, and the
// `browser` links between accounts of different profiles (target 0).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { DIST, has, startBench, virtualDisplay } = require('./context');
const { handMade, replay } = require('./browserless');
const { headlessControl, humanVisit } = require('./human');
const { identity } = require('./identity');
const { report } = require('./report');
const { REBROWSER_LAUNCH, cdpVisit, puppeteerVisit } = require('./tools');

/**
 * The configurations driven by a tool, in order: `name`, whether it needs the virtual display,
 * and `run(bench, display)`.
 */
function drivenConfigurations() {
  const playwright = require('playwright-core').chromium;
  const patchright = require('patchright-core').chromium;
  const cdp = (name, headful, opts) => ({
    name,
    headful,
    run: (bench, display) => cdpVisit(bench, name, { headless: !headful, display, ...opts }),
  });
  const pptr = (name, headful, opts) => ({
    name,
    headful,
    run: (bench, display) => puppeteerVisit(bench, name, { headless: !headful, display, ...opts }),
  });
  const rebrowser = { core: 'rebrowser-puppeteer-core', launchOptions: REBROWSER_LAUNCH, typeOptions: { delay: 20 } };
  return [
    cdp('headless+stealth (CDP)', false, { stealth: true, driver: playwright }),
    cdp('headful (Xvfb, CDP)', true, { driver: playwright }),
    cdp('headful+stealth (Xvfb, CDP)', true, { stealth: true, driver: playwright }),
    pptr('rebrowser-puppeteer, headless', false, rebrowser),
    cdp('patchright, headless', false, { driver: patchright }),
    pptr('rebrowser-puppeteer, headful (Xvfb)', true, rebrowser),
    cdp('patchright, headful (Xvfb)', true, { driver: patchright }),
  ];
}

async function main() {
  const bench = await startBench();
  const xvfb = await virtualDisplay();
  const noXvfb = 'Xvfb is not installed (apt-get install xvfb)';
  try {
    const { chromium } = require('playwright-core');
    const captured = await cdpVisit(bench, 'headless (CDP)', { headless: true, driver: chromium });
    for (const c of drivenConfigurations()) {
      if (c.headful && !xvfb) bench.results.push({ name: c.name, kind: 'automated', skipped: noXvfb });
      else await c.run(bench, xvfb?.display);
    }
    await replay(bench, captured);
    await handMade(bench);
    await headlessControl(bench, 'headless, no CDP client (control)');
    const human = 'human: headful (Xvfb), no automation, xdotool';
    if (!xvfb || !has('xdotool')) {
      const missing = `${xvfb ? '' : 'Xvfb '}${has('xdotool') ? '' : 'xdotool '}`;
      bench.results.push({
        name: human,
        kind: 'human',
        skipped: `${missing}not installed (apt-get install xvfb xdotool)`,
      });
    } else await humanVisit(bench, human, xvfb.display);
    const { identities, crossProfileBrowserLinks } = await identity(bench, xvfb?.display);
    return { results: bench.results, identities, crossProfileBrowserLinks };
  } finally {
    xvfb?.stop();
    await bench.close();
  }
}

if (require.main === module) {
  const { values: args } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
  if (!fs.existsSync(path.join(DIST, 'app.js'))) {
    console.error('bench-detection: run `npm run build` first');
    process.exit(1);
  }
  main()
    .then((run) => console.log(args.json ? JSON.stringify(run, null, 2) : report(run)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
