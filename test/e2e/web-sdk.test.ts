/**
 * The web SDK end to end: Debian's Chromium (playwright-core) loads a customer's page on one
 * origin with the SDK from Trustgate on another; a person moves, clicks and types; the backend
 * reads the session through the Session API; Trustgate's real HTTP server and database,
 * the real bundle from packages/web.
 */
import type http from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { buildSdk } from '../../scripts/build-sdk';
import type { Session } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { customerPage, launchChromium, listen, type Listening } from '../helpers/browser';

let ctx: TestContext;
let trustgate: Listening;
let customer: Listening;
let browser: Browser;
/** Every URL any page of this file requested. */
const requested: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  await buildSdk();
  ctx = await makeTestContext();
  trustgate = await listen(ctx.app);
  customer = await listen(customerPage(trustgate.origin, ctx.project.project_id));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await customer?.close();
  await trustgate?.close();
  await ctx?.close();
});

async function newContext(options: { timezoneId?: string; locale?: string } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'ja-JP', ...options });
  context.setDefaultTimeout(10_000);
  context.on('request', (r) => requested.push(r.url()));
  context.on('page', (p) => p.on('pageerror', (e) => pageErrors.push(e.message)));
  return context;
}

const getSession = async (id: string): Promise<Session> => {
  const response = await request(ctx.app).get(`/session/${id}`).set('x-api-key', ctx.project.api_key);
  expect(response.status).toBe(200);
  return response.body as Session;
};

const sessionOf = (page: Page) => page.evaluate(() => window.Trustgate!.session().then((s) => s.session_id));

async function storedFingerprint(sessionId: string): Promise<string> {
  const row = await ctx.testDb.db('sessions').where({ id: sessionId }).first();
  return row.browser_fingerprint;
}

/** A person on the page: the pointer wanders, clicks the email field and types. */
async function behaveLikeAPerson(page: Page): Promise<void> {
  for (let i = 0; i < 12; i++) await page.mouse.move(40 + i * 15, 60 + (i % 4) * 10, { steps: 3 });
  await page.click('#email');
  await page.keyboard.type('ada@example.com', { delay: 5 });
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  let value = await read();
  while (!ok(value) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

describe('the web SDK on a customer page', () => {
  let context: BrowserContext;
  let page: Page;
  let sessionId: string;
  let deviceId: string;

  beforeAll(async () => {
    context = await newContext();
    page = await context.newPage();
    await page.goto(customer.origin + '/');
  });
  afterAll(() => context.close());

  test('when a person moves, clicks and types, then GET /session shows what the browser is and did', async () => {
    await behaveLikeAPerson(page);
    sessionId = await sessionOf(page);
    expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const seen = await page.evaluate(() => ({
      cores: navigator.hardwareConcurrency,
      languages: navigator.languages,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      width: screen.width,
      deviceId: localStorage.getItem('trustgate_device_id'),
      cookie: document.cookie,
    }));
    deviceId = seen.deviceId!;
    expect(deviceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.cookie).toContain(`trustgate_device_id=${deviceId}`);

    const session = await getSession(sessionId);
    expect(session.session_id).toBe(sessionId);
    expect(session.project_id).toBe(ctx.project.project_id);
    expect(session.source).toBe('web');
    expect(session.source_version).toBeNull();
    expect(session.device_id).toBe(deviceId);
    expect(session.browser.timezone).toBe('Asia/Tokyo');
    expect(seen.timezone).toBe('Asia/Tokyo');
    expect(session.browser.language).toBe(seen.languages[0]);
    expect(session.browser.language).toBe('ja-JP');
    expect(session.device.cpu_cores).toBe(seen.cores);
    expect(session.device.screen_width).toBe(seen.width);
    expect(session.device.category).toBe('desktop');
    expect(session.browser.type).toMatch(/Chrom/);
    expect(session.browser.version).toBe(browser.version());
    expect(session.browser.user_agent).toBe(await page.evaluate(() => navigator.userAgent));
    expect(session.bot.mouse_num_events).toBeGreaterThan(0);
    expect(session.bot.click_num_events).toBeGreaterThan(0);
    expect(session.bot.keyboard_num_events).toBeGreaterThanOrEqual('ada@example.com'.length);
    expect(session.network.ip_address).toBe('127.0.0.1');
    expect(session.mobile).toEqual({});
  });

  test('when the browser is driven by automation, then the session says so', async () => {
    const session = await getSession(sessionId);
    const webdriver = await page.evaluate(() => navigator.webdriver);
    const details = session.risk_signal_details?.device ?? [];
    // Playwright's Chromium reports navigator.webdriver; headless Chromium also names itself in its user agent.
    if (webdriver) expect(details).toContain('webdriver');
    if (/HeadlessChrome/.test(session.browser.user_agent ?? ''))
      expect(details).toContain('headless_chrome:user_agent');
    expect(details.length).toBeGreaterThan(0);
    expect(session.risk_signals.device_risk).toBe(true);
  });

  test('when a driver defines its global only once the page is in use, then the session names it when the page asks for it', async () => {
    const name = 'cdc_adoQpoasnfa76pfcZLmcfl_late';
    expect((await getSession(sessionId)).risk_signal_details?.device ?? []).not.toContain(`driver_global:${name}`);
    await page.evaluate((global) => {
      (window as unknown as Record<string, unknown>)[global] = Array;
    }, name);
    expect(await sessionOf(page)).toBe(sessionId);
    expect((await getSession(sessionId)).risk_signal_details?.device ?? []).toContain(`driver_global:${name}`);
  });

  test('when the page is left, then the last counts arrive by beacon', async () => {
    const before = (await getSession(sessionId)).bot;
    await page.mouse.move(300, 200, { steps: 20 });
    await page.keyboard.type('xyz');
    await page.goto(customer.origin + '/next');
    const after = await eventually(
      () => getSession(sessionId).then((s) => s.bot),
      (bot) => bot.mouse_num_events >= before.mouse_num_events + 20,
    );
    expect(after.mouse_num_events).toBeGreaterThanOrEqual(before.mouse_num_events + 20);
    expect(after.keyboard_num_events).toBeGreaterThanOrEqual(before.keyboard_num_events + 3);
  });

  test('when the next page of the flow loads in the same tab, then it continues the same session and device', async () => {
    const previous = await getSession(sessionId);
    expect(await sessionOf(page)).toBe(sessionId);
    const now = await getSession(sessionId);
    expect(now.device_id).toBe(deviceId);
    expect(now.bot.mouse_num_events).toBeGreaterThanOrEqual(previous.bot.mouse_num_events);
  });

  test('when the site is opened again in a new tab, then it is a new session with the same device id and fingerprint', async () => {
    const tab = await context.newPage();
    await tab.goto(customer.origin + '/');
    const second = await sessionOf(tab);
    expect(second).not.toBe(sessionId);
    expect((await getSession(second)).device_id).toBe(deviceId);
    expect(await storedFingerprint(second)).toBe(await storedFingerprint(sessionId));
    expect(await storedFingerprint(second)).toMatch(/^[0-9a-f]{32}$/);
    await tab.close();
  });

  test('when the customer calls reinitialize (logout), then a new session starts on the same device', async () => {
    const renewed = await page.evaluate(() => window.Trustgate!.reinitialize().then((s) => s.session_id));
    expect(renewed).not.toBe(sessionId);
    expect(await sessionOf(page)).toBe(renewed);
    const session = await getSession(renewed);
    expect(session.device_id).toBe(deviceId);
    expect(session.bot.mouse_num_events).toBe(0);
  });

  test('when another browser profile opens the page, then it gets a new device id (and the same machine fingerprint)', async () => {
    const other = await newContext();
    const otherPage = await other.newPage();
    await otherPage.goto(customer.origin + '/');
    const id = await sessionOf(otherPage);
    const session = await getSession(id);
    expect(session.device_id).not.toBe(deviceId);
    expect(await storedFingerprint(id)).toBe(await storedFingerprint(sessionId));
    await other.close();
  });

  test("when a traveller's profile has another time zone and language, then the same machine fingerprint (the same device), sent beside them as facts", async () => {
    const other = await newContext({ timezoneId: 'America/New_York', locale: 'fr-FR' });
    const otherPage = await other.newPage();
    await otherPage.goto(customer.origin + '/');
    const id = await sessionOf(otherPage);
    const session = await getSession(id);
    expect(session.browser.timezone).toBe('America/New_York');
    expect(session.browser.language).toBe('fr-FR');
    expect(session.device_id).not.toBe(deviceId);
    expect(await storedFingerprint(id)).toBe(await storedFingerprint(sessionId));
    await other.close();
  });
});

describe('links between real browser profiles (docs/scoring.md, "Linked accounts")', () => {
  const signIn = async (sessionId: string, account: string) => {
    const res = await request(ctx.app)
      .post('/session/authenticate?accounts_linked=true')
      .set('x-api-key', ctx.project.api_key)
      .send({ session_id: sessionId, account: { id: account } });
    expect(res.status).toBe(200);
    return res.body as { linked_accounts: { account_id: string; match_type: string[]; score: number }[] };
  };
  const linkTo = (r: Awaited<ReturnType<typeof signIn>>, account: string) =>
    r.linked_accounts.find((l) => l.account_id === account);

  test('when two profiles of one browser sign in to two accounts, then they share a device, never a browser; when one clears its storage, then it is a new browser on the same device', async () => {
    const first = await newContext();
    const second = await newContext({ timezoneId: 'Europe/Paris', locale: 'fr-FR' });
    const [a, b] = [await first.newPage(), await second.newPage()];
    await a.goto(customer.origin + '/');
    await b.goto(customer.origin + '/');
    await signIn(await sessionOf(a), 'profile-one');
    const other = linkTo(await signIn(await sessionOf(b), 'profile-two'), 'profile-one');
    expect(other?.match_type).toContain('device');
    expect(other?.match_type).not.toContain('browser');

    // The same profile again: its stored id comes back, a browser link of 1.
    const again = await a.evaluate(() => window.Trustgate!.reinitialize().then((s) => s.session_id));
    const same = linkTo(await signIn(again, 'profile-one-again'), 'profile-one');
    expect(same?.match_type).toEqual(expect.arrayContaining(['browser', 'device']));
    expect(same?.score).toBe(1);

    // Storage cleared (the site's data removed, as the browser's settings do; a page of the
    // site open meanwhile keeps nothing but its tab's session): a new stored id, the same machine.
    await a.close();
    const clearing = await first.newPage();
    await clearing.goto(customer.origin + '/');
    await first.clearCookies();
    await clearing.evaluate(() => localStorage.clear());
    await clearing.close();
    const fresh = await first.newPage();
    await fresh.goto(customer.origin + '/');
    const cleared = linkTo(await signIn(await sessionOf(fresh), 'profile-one-cleared'), 'profile-one');
    expect(cleared?.match_type).toContain('device');
    expect(cleared?.match_type).not.toContain('browser');
    await first.close();
    await second.close();
  });
});

describe('the web SDK when things go wrong', () => {
  test('when the project id is unknown, then session() rejects and the page keeps working', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const badPage = await listen(customerPage(trustgate.origin, '00000000-0000-4000-8000-000000000000'));
    await page.goto(badPage.origin + '/');
    const outcome = await page.evaluate(() =>
      window.Trustgate!.session().then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
    );
    expect(outcome).toMatch(/refused \(400/);
    await page.click('#go');
    expect(await page.textContent('#own')).toBe('clicked');
    await context.close();
    await badPage.close();
  });

  test('when Trustgate is unreachable, then the page works and raises no errors', async () => {
    const gone = await listen(((_req, res) => res.end()) as http.RequestListener);
    const unreachable = gone.origin;
    await gone.close();
    const host = await listen(customerPage(unreachable, ctx.project.project_id));
    const context = await newContext();
    const page = await context.newPage();
    await page.goto(host.origin + '/');
    await behaveLikeAPerson(page);
    await page.click('#go');
    expect(await page.textContent('#own')).toBe('clicked');
    await page.waitForTimeout(300);
    await context.close();
    await host.close();
    expect(pageErrors).toEqual([]);
  });
});

describe('the demo sign-up page', () => {
  test('when a visitor fills in the form and submits, then the page shows what the backend learned, readably', async () => {
    const context = await newContext({ timezoneId: 'Europe/Berlin', locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(trustgate.origin + '/demo');
    for (let i = 0; i < 10; i++) await page.mouse.move(30 + i * 20, 80 + (i % 3) * 15, { steps: 2 });
    await page.fill('input[name=name]', 'Ada Lovelace');
    await page.click('input[name=email]');
    await page.keyboard.type('ada@example.com');
    await page.click('button[type=submit]');
    await page.waitForSelector('#result:not([hidden])');

    const sessionId = await sessionOf(page);
    const demo = await ctx.services.projects.ensureDemo();
    expect(demo.id).not.toBe(ctx.project.project_id);
    const session = await ctx.services.evaluation.get(demo, sessionId, 'test');

    const text = await page.textContent('#cards');
    expect(text).toContain(sessionId);
    expect(text).toContain(session.device_id);
    expect(text).toContain('Europe/Berlin');
    expect(text).toContain(`${session.browser.type} ${session.browser.version}`);
    expect(text).toContain('127.0.0.1');
    const keyPresses = await page.textContent('dt:text-is("Key presses") + dd');
    expect(Number(keyPresses)).toBeGreaterThanOrEqual('ada@example.com'.length);
    // Rendered as tables and lists, with the raw response folded away below them.
    expect(await page.locator('.card').count()).toBeGreaterThanOrEqual(6);
    expect(await page.locator('details pre').isVisible()).toBe(false);
    const evaluation = JSON.parse((await page.textContent('#raw'))!);
    expect(evaluation.session_id).toBe(sessionId);
    expect(evaluation.account_id).toBe('demo:ada@example.com');
    // The decision the page shows is the engine's (Playwright's Chromium reports webdriver, so it may well be Fake).
    expect(await page.textContent('#decision')).toBe(evaluation.decision);
    expect(text).toContain(evaluation.account_score.toFixed(2));
    // The demo project's sessions are not the customer project's.
    expect((await request(ctx.app).get(`/session/${sessionId}`).set('x-api-key', ctx.project.api_key)).status).toBe(
      400,
    );
    await context.close();
  });

  test('when the demo is asked about a malformed session id, then 400 naming the field', async () => {
    const response = await request(ctx.app).post('/demo/session').send({ session_id: 'nope' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ statusCode: 400, message: 'session_id must be a lowercase UUID' });
  });
});

describe('GET /sdk.js', () => {
  test('when fetched, then it is the bundle, embeddable from any site', async () => {
    const response = await request(ctx.app).get('/sdk.js');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/javascript/);
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['cache-control']).toMatch(/max-age=300/);
    expect(response.text).toContain('Trustgate web SDK');
  });
});

afterAll(() => {
  // No page ever talked to anything but the customer's origin and Trustgate's (all loopback here).
  // (The SDK's Web Worker is a blob: URL, made in the page: not a request to any host.)
  const hosts = new Set(requested.filter((url) => !url.startsWith('blob:')).map((url) => new URL(url).host));
  for (const host of hosts) expect(host).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(requested.some((url) => url.endsWith('/ingest/session'))).toBe(true);
});
