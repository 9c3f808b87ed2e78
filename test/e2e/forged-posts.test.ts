/**
 * The fingerprint and the first post's timing with the real SDK bundle in Debian's Chromium: the
 * server derives from the posted components the very fingerprint the SDK computed, and a real
 * session, idle or with the pointer and keys in use while the SDK starts, raises none of the
 * conditions that catch a re-signed forgery.
 */
import type { BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import type { IngestSession, Session } from '../../src/api-types';
import { deriveFingerprint } from '../../src/domain/session/fingerprint';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';
import { sdkStack, type SdkStack } from '../helpers/browser';

let stack: SdkStack;
let ticking: NodeJS.Timeout | undefined;
beforeAll(async () => {
  stack = await sdkStack();
  // The test context's clock is fixed; here it follows real time (to 5 ms), as the time between
  // a challenge and the post is what is measured.
  const base = stack.ctx.clock.now().getTime();
  const start = Date.now();
  ticking = setInterval(() => stack.ctx.clock.set(new Date(base + Date.now() - start)), 5);
}, 60_000);
afterAll(async () => {
  clearInterval(ticking);
  await stack?.close();
});

let context: BrowserContext | undefined;
afterEach(() => context?.close());

const NEW = /^(events_outpace_challenge|fingerprint_mismatch|fingerprint_inconsistent:)/;

/** A fresh page of the customer's site, with every post the SDK makes to /ingest/session kept as sent. */
async function openPage(): Promise<{ page: Page; posts: IngestSession[] }> {
  context = await stack.browser.newContext();
  const page = await context.newPage();
  const posts: IngestSession[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/ingest/session') posts.push(JSON.parse(r.postData()!));
  });
  await page.goto(stack.customer.origin + '/');
  return { page, posts };
}

const sessionOf = (page: Page) => page.evaluate(() => window.Trustgate!.session().then((s) => s.session_id));

async function stored(id: string): Promise<{ session: Session; fingerprint: string; sdk: SdkFacts }> {
  const { ctx } = stack;
  const response = await request(ctx.app).get(`/session/${id}`).set('x-api-key', ctx.project.api_key);
  expect(response.status).toBe(200);
  const row = await ctx.testDb.db('sessions').where({ id }).first();
  const facts = await ctx.testDb.db('session_facts').where({ session_id: id }).first();
  return { session: response.body as Session, fingerprint: row.browser_fingerprint, sdk: JSON.parse(facts.sdk) };
}

test("when the real SDK makes a session, then the server's fingerprint is the one the SDK computed, and none of the new conditions", async () => {
  const { page, posts } = await openPage();
  const id = await sessionOf(page);
  const first = posts.find((p) => p.session_id === id && p.fingerprint_components);
  expect(first?.browser_fingerprint).toMatch(/^[0-9a-f]{32}$/);
  expect(deriveFingerprint(first!.fingerprint_components!)).toBe(first!.browser_fingerprint);
  // The components are what the page itself reads, beside the facts they are checked against.
  const c = first!.fingerprint_components!;
  expect(c.canvas).toMatch(/^[0-9a-f]{32}$/);
  expect(c.gpu).toBe(first!.gpu);
  expect(c.cores).toBe(await page.evaluate(() => navigator.hardwareConcurrency));
  expect(c.platform).toBe(await page.evaluate(() => navigator.platform));

  const { session, fingerprint, sdk } = await stored(id);
  expect(fingerprint).toBe(first!.browser_fingerprint);
  expect(sdk.received?.integrity).toBe('valid');
  expect(sdk.received?.claimed_fingerprint).toBe(first!.browser_fingerprint);
  // Posted right after load: a first post carries the events of the moments since its challenge.
  expect(sdk.received?.first_post?.challenge_age_ms).toBeGreaterThanOrEqual(0);
  expect(session.risk_signal_details.device.filter((d) => NEW.test(d))).toEqual([]);
}, 30_000);

test('when the first posts fail while the person moves the pointer and types, then the post that makes the session carries that input, within the rates', async () => {
  context = await stack.browser.newContext();
  const page = await context.newPage();
  // The network drops the first three posts: the SDK retries after 0.5, 1 and 2 s, so the post
  // that arrives carries what the person did in the meantime.
  let dropped = 0;
  await page.route('**/ingest/session', (route) => (dropped < 3 ? (dropped++, route.abort()) : route.continue()));
  await page.goto(stack.customer.origin + '/');
  for (let i = 0; i < 80; i++) await page.mouse.move(100 + i * 3, 200 + (i % 7) * 5);
  await page.click('#email');
  await page.keyboard.type('someone@example.com');
  const id = await sessionOf(page);
  expect(dropped).toBe(3);
  const { session, sdk } = await stored(id);
  const first = sdk.received!.first_post!;
  expect(first.challenge_age_ms).toBeGreaterThan(3000);
  expect(first.events.keyboard).toBe(19);
  expect(first.events.mouse).toBeGreaterThanOrEqual(40);
  expect(session.risk_signal_details.device.filter((d) => NEW.test(d))).toEqual([]);
}, 30_000);

test('when the same browser makes a second session, then the server derives the same fingerprint (the device links)', async () => {
  const one = await openPage();
  const a = await sessionOf(one.page);
  await context!.close();
  const two = await openPage();
  const b = await sessionOf(two.page);
  expect(a).not.toBe(b);
  expect((await stored(a)).fingerprint).toBe((await stored(b)).fingerprint);
}, 30_000);
