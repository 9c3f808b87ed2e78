'use strict';
// The automated browsers of the detection benchmark: Debian's Chromium driven by playwright-core
// or patchright-core (the playwright family), and by puppeteer-core or rebrowser-puppeteer-core,
// plain or with puppeteer-extra's stealth plugin, ghost-cursor or fingerprint-injector (the
// puppeteer family). Each visit has one shape: load the page, move the pointer, click the e-mail
// field, type the address, click the button, read the session id the page shows.
const { ADDRESS, BASE_ARGS, CHROMIUM, botdSince, withDisplay } = require('./context');

const shown = () => document.getElementById('session').textContent.length > 0;

/** The pointer moved across the page's top, as every driven visit starts (both families' mouse). */
async function wander(mouse) {
  for (let i = 0; i < 15; i++) await mouse.move(30 + i * 17, 40 + (i % 5) * 9, { steps: 4 });
}

/** Loads the page, moves, clicks and types over the DevTools Protocol (playwright); the session id shown. */
async function signUpOverCdp(page, origin) {
  await page.goto(origin + '/');
  await wander(page.mouse);
  await page.click('#email');
  await page.keyboard.type(ADDRESS, { delay: 20 });
  await page.click('#go');
  await page.waitForFunction(shown, null, { timeout: 15_000 });
  return page.textContent('#session');
}

/** The usual stealth overrides, patched in before page scripts (the hand-written stealth rows). */
function stealthOverrides() {
  Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false, configurable: true });
  Object.defineProperty(Navigator.prototype, 'languages', { get: () => ['en-US', 'en'], configurable: true });
  Object.defineProperty(Navigator.prototype, 'plugins', { get: () => [1, 2, 3, 4, 5], configurable: true });
  window.chrome = window.chrome || { runtime: {} };
}

/**
 * A visit driven by the playwright family (`driver`: playwright-core's or patchright-core's
 * chromium). Returns the SDK's posts to /ingest/session as sent, `first` (the signed one that
 * made the session) and `last` (the update with the visit's event counts), for the posts
 * without a browser.
 */
async function cdpVisit(bench, name, { headless, stealth, display, driver }) {
  const browser = await driver.launch({
    executablePath: CHROMIUM,
    headless,
    args: [...BASE_ARGS, ...(stealth ? ['--disable-blink-features=AutomationControlled'] : [])],
    env: withDisplay(display),
  });
  try {
    const probe = await browser.newPage();
    const realUa = (await probe.evaluate(() => navigator.userAgent)).replace('HeadlessChrome', 'Chrome');
    await probe.close();
    const context = await browser.newContext(stealth ? { userAgent: realUa, locale: 'en-US' } : {});
    if (stealth) await context.addInitScript(stealthOverrides);
    const posts = [];
    context.on('request', (r) => {
      if (r.url().endsWith('/ingest/session') && r.method() === 'POST') posts.push(r.postData());
    });
    const mark = bench.page.botd.length;
    const sessionId = await signUpOverCdp(await context.newPage(), bench.customer.origin);
    await bench.evaluate(name, 'automated', sessionId, { botd: await botdSince(bench.page, mark) });
    return { first: posts[0], last: posts.at(-1) };
  } finally {
    await browser.close();
  }
}

/** The puppeteer package `core`, with puppeteer-extra's stealth plugin when `stealth`. */
function puppeteerOf(core, stealth) {
  const puppeteer = require(core);
  if (!stealth) return puppeteer;
  // As puppeteer-extra's README shows it for a core package: addExtra, then the plugin; so no
  // package that downloads a browser of its own (puppeteer) is needed.
  const extra = require('puppeteer-extra').addExtra(puppeteer);
  extra.use(require('puppeteer-extra-plugin-stealth')());
  return extra;
}

/**
 * A visit driven by the puppeteer family, each tool as its README's examples use it:
 * page.click(selector), page.type(selector, text) (default options unless `typeOptions`);
 * with `ghost`, ghost-cursor's moveTo and click(selector) do the pointer's part; with
 * `injector`, fingerprint-injector's newInjectedPage gives the page a generated fingerprint of
 * desktop Chrome on Linux (what the browser is, so that the fingerprint does not contradict it).
 * `launchOptions` are added to puppeteer's launch.
 */
async function puppeteerVisit(bench, name, opts) {
  const { core, stealth, ghost, injector, headless, display, launchOptions = {}, typeOptions } = opts;
  const browser = await puppeteerOf(core, stealth).launch({
    executablePath: CHROMIUM,
    headless,
    env: withDisplay(display),
    ...launchOptions,
    args: [...BASE_ARGS, ...(launchOptions.args ?? [])],
  });
  try {
    const page = injector
      ? await require('fingerprint-injector').newInjectedPage(browser, {
          fingerprintOptions: { devices: ['desktop'], browsers: ['chrome'], operatingSystems: ['linux'] },
        })
      : await browser.newPage();
    const mark = bench.page.botd.length;
    await page.goto(bench.customer.origin + '/');
    if (ghost) {
      const { GhostCursor } = require('ghost-cursor');
      const cursor = new GhostCursor(page);
      for (const point of [
        { x: 300, y: 60 },
        { x: 760, y: 90 },
        { x: 520, y: 40 },
      ])
        await cursor.moveTo(point);
      await cursor.click('#email');
      await page.type('#email', ADDRESS);
      await cursor.click('#go');
    } else {
      await wander(page.mouse);
      await page.click('#email');
      await page.type('#email', ADDRESS, typeOptions);
      await page.click('#go');
    }
    await page.waitForFunction(shown, { timeout: 15_000 });
    const sessionId = await page.$eval('#session', (e) => e.textContent);
    await bench.evaluate(name, 'automated', sessionId, { botd: await botdSince(bench.page, mark) });
  } finally {
    await browser.close();
  }
}

/**
 * rebrowser-puppeteer as its users launch it: without the automation switch, so
 * navigator.webdriver is false and the browser's own facts are a person's.
 */
const REBROWSER_LAUNCH = {
  ignoreDefaultArgs: ['--enable-automation'],
  args: ['--disable-blink-features=AutomationControlled'],
};

module.exports = { REBROWSER_LAUNCH, cdpVisit, puppeteerVisit, signUpOverCdp };
