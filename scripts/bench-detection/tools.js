'use strict';
// The automated browsers of the detection benchmark: Debian's Chromium driven by playwright-core
// or patchright-core (the playwright family), and by rebrowser-puppeteer-core. Each visit has one
// shape: load the page, move the pointer, click the e-mail field, type the address, click the
// button, read the session id the page shows.
const { ADDRESS, BASE_ARGS, CHROMIUM, withDisplay } = require('./context');

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
    const sessionId = await signUpOverCdp(await context.newPage(), bench.customer.origin);
    await bench.evaluate(name, 'automated', sessionId);
    return { first: posts[0], last: posts.at(-1) };
  } finally {
    await browser.close();
  }
}

/**
 * A visit driven by rebrowser-puppeteer (puppeteer with the DevTools Runtime domain left off, so
 * `cdp:runtime_enabled` cannot fire). `launchOptions` are added to puppeteer's launch.
 */
async function puppeteerVisit(bench, name, { core, headless, display, launchOptions = {}, typeOptions }) {
  const browser = await require(core).launch({
    executablePath: CHROMIUM,
    headless,
    env: withDisplay(display),
    ...launchOptions,
    args: [...BASE_ARGS, ...(launchOptions.args ?? [])],
  });
  try {
    const page = await browser.newPage();
    await page.goto(bench.customer.origin + '/');
    await wander(page.mouse);
    await page.click('#email');
    await page.type('#email', ADDRESS, typeOptions);
    await page.click('#go');
    await page.waitForFunction(shown, { timeout: 15_000 });
    await bench.evaluate(name, 'automated', await page.$eval('#session', (e) => e.textContent));
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
