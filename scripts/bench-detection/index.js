#!/usr/bin/env node
// The detection benchmark: real browsers on this machine against the compiled server, and what
// Trustgate makes of each session, beside what BotD (@fingerprintjs/botd) makes of it in the same
// page.
//
//   npm run build && npm run bench:detection [-- --json] [-- --humans N]
//
// The server (dist/: makeRuntime + createApp, as `npm start` runs it, the shipped IP data, a
// fresh SQLite file in a temporary folder) listens on a loopback port; a customer's sign-up
// page on another port carries the SDK's script tag and BotD beside it (page.js). Each
// configuration loads the page (or posts without a browser), a session is made, and POST
// /session/unauthenticated says what Trustgate found: device_risk, the bot score, the decision
// and the device conditions; the BotD column is what BotD's detect() said in that page.
//
// Configurations (tools.js, browserless.js, human.js), Debian's Chromium (/usr/bin/chromium)
// throughout, "headful" a window on Xvfb (skipped when Xvfb is not installed):
// - playwright-core over the DevTools Protocol, headless and headful, each plain and with the
//   usual stealth overrides patched in before page scripts (navigator.webdriver false, a user
//   agent without "HeadlessChrome", plugins, window.chrome, languages) and
//   --disable-blink-features=AutomationControlled;
// - the drivers that keep the DevTools Runtime domain off, headless and headful:
//   rebrowser-puppeteer (launched without the automation switch, so navigator.webdriver is
//   false) and patchright (playwright so patched; it evaluates in worlds of its own);
// - puppeteer-extra with its stealth plugin over puppeteer-core, headless, headful, and headful
//   with ghost-cursor doing the pointer's moves and clicks;
// - rebrowser-puppeteer with puppeteer-extra's stealth plugin, headless and headful;
// - fingerprint-injector (Apify's, with fingerprint-generator) over puppeteer-core, a
//   generated fingerprint of desktop Chrome on Linux, headless and headful;
// - without a browser (Node's fetch): the http replay (the SDK's post copied from the headless
//   run and posted again as a new session), the http hand-made post (a clean-looking payload
//   written by hand), and the re-signed forgery (patchright headful's post, whose facts read as
//   a person's, with a new session, device id and fingerprint and the run's last event counts,
//   bound to a fresh challenge with the SDK's own signing, a post the server verifies as
//   validly signed; the headless run's post when Xvfb is missing);
// - a control: headless Chromium started with the page's URL and no debugging client (no
//   person, so it is automated too, but nothing of the DevTools Protocol);
// - the human baseline, `--humans N` runs (default 3): headful Chromium launched without any
//   automation flag or debugging port (a plain process, a fresh profile folder each run, the
//   page's URL on its command line), driven by xdotool (OS-level pointer and keys: curved
//   reaches to random points of the targets, presses held, keys 90–260 ms apart); the session
//   id is the one the page posts to the customer's back end; skipped when Xvfb or xdotool is
//   missing (apt-get install xvfb xdotool).
//
// Printed: a table (configuration × signal), then `caught N/M, BotD K/M, human false positives
// H/P (BotD: H2/P)` over the automated configurations that ran (caught: device_risk raised,
// bot >= 0.5 or decision Fake) and the human runs (report.js).
//
// Identity (identity.js): persistent playwright profiles, each visit ending in POST
// /session/authenticate?accounts_linked=true with its own account: two profiles of one browser
// (a `device` link, never `browser`), the same profile again (`browser`), one profile before
// and after clearing the site's cookies and storage, one with its time zone and language changed.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { DIST, has, startBench, virtualDisplay } = require('./context');
const { handMade, replay, resignedForgery } = require('./browserless');
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
  const rebrowser = { core: 'rebrowser-puppeteer-core', launchOptions: REBROWSER_LAUNCH };
  const extra = { core: 'puppeteer-core', stealth: true };
  return [
    cdp('headless+stealth (CDP)', false, { stealth: true, driver: playwright }),
    cdp('headful (Xvfb, CDP)', true, { driver: playwright }),
    cdp('headful+stealth (Xvfb, CDP)', true, { stealth: true, driver: playwright }),
    pptr('rebrowser-puppeteer, headless', false, { ...rebrowser, typeOptions: { delay: 20 } }),
    cdp('patchright, headless', false, { driver: patchright }),
    pptr('rebrowser-puppeteer, headful (Xvfb)', true, { ...rebrowser, typeOptions: { delay: 20 } }),
    cdp('patchright, headful (Xvfb)', true, { driver: patchright }),
    pptr('puppeteer-extra+stealth, headless', false, extra),
    pptr('puppeteer-extra+stealth, headful (Xvfb)', true, extra),
    pptr('puppeteer-extra+stealth+ghost-cursor, headful (Xvfb)', true, { ...extra, ghost: true }),
    pptr('rebrowser-puppeteer+stealth, headless', false, { ...rebrowser, stealth: true }),
    pptr('rebrowser-puppeteer+stealth, headful (Xvfb)', true, { ...rebrowser, stealth: true }),
    pptr('fingerprint-injector, headless', false, { core: 'puppeteer-core', injector: true }),
    pptr('fingerprint-injector, headful (Xvfb)', true, { core: 'puppeteer-core', injector: true }),
  ];
}

/** Runs `run`; a configuration that fails to run is a skipped row saying why, not the end of the bench. */
async function attempt(bench, name, kind, run) {
  try {
    return await run();
  } catch (error) {
    bench.results.push({ name, kind, skipped: `failed: ${String(error.message).split('\n')[0].slice(0, 160)}` });
    return undefined;
  }
}

const CLEAN_SOURCE = 'patchright, headful (Xvfb)';

async function main({ humans }) {
  const bench = await startBench();
  const xvfb = await virtualDisplay();
  const noXvfb = 'Xvfb is not installed (apt-get install xvfb)';
  try {
    const { chromium } = require('playwright-core');
    const name = 'headless (CDP)';
    const captured = await attempt(bench, name, 'automated', () =>
      cdpVisit(bench, name, { headless: true, driver: chromium }),
    );
    const posts = new Map(); // configuration → the SDK posts it captured
    for (const c of drivenConfigurations()) {
      if (c.headful && !xvfb) bench.results.push({ name: c.name, kind: 'automated', skipped: noXvfb });
      else posts.set(c.name, await attempt(bench, c.name, 'automated', () => c.run(bench, xvfb?.display)));
    }
    await replay(bench, captured);
    await handMade(bench);
    // The forger signs a clean browser's post: patchright headful's own facts read as a person's,
    // so what catches the forgery is the forging, not facts copied from an automated browser.
    const clean = posts.get(CLEAN_SOURCE);
    const forgery = `re-signed forgery (${clean ? CLEAN_SOURCE : name} post, fresh challenge)`;
    await attempt(bench, forgery, 'automated', () => resignedForgery(bench, forgery, clean ?? captured));
    const control = 'headless, no CDP client (control)';
    await attempt(bench, control, 'automated', () => headlessControl(bench, control));
    for (let i = 1; i <= humans; i++) {
      const human = `human ${i}/${humans}: headful (Xvfb), no automation, xdotool`;
      if (!xvfb || !has('xdotool')) {
        const missing = `${xvfb ? '' : 'Xvfb '}${has('xdotool') ? '' : 'xdotool '}`;
        bench.results.push({
          name: human,
          kind: 'human',
          skipped: `${missing}not installed (apt-get install xvfb xdotool)`,
        });
      } else await attempt(bench, human, 'human', () => humanVisit(bench, human, xvfb.display));
    }
    const { identities, crossProfileBrowserLinks } = await identity(bench, xvfb?.display);
    return { results: bench.results, identities, crossProfileBrowserLinks };
  } finally {
    xvfb?.stop();
    await bench.close();
  }
}

if (require.main === module) {
  const { values: args } = parseArgs({
    options: { json: { type: 'boolean', default: false }, humans: { type: 'string', default: '3' } },
  });
  const humans = Number(args.humans);
  if (!Number.isInteger(humans) || humans < 0) {
    console.error('bench-detection: --humans takes a whole number, 0 or more');
    process.exit(1);
  }
  if (!fs.existsSync(path.join(DIST, 'app.js'))) {
    console.error('bench-detection: run `npm run build` first');
    process.exit(1);
  }
  main({ humans })
    .then((run) => console.log(args.json ? JSON.stringify(run, null, 2) : report(run)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
