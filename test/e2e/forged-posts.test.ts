/**
 * The first post's timing with the real SDK bundle in Debian's Chromium: a real session with the
 * pointer and keys in use while the SDK starts raises none of the conditions that catch a
 * re-signed forgery.
 */
import type { BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import type { Session } from '../../src/api-types';
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

const NEW = /^events_outpace_challenge$/;

const sessionOf = (page: Page) => page.evaluate(() => window.Trustgate!.session().then((s) => s.session_id));

async function stored(id: string): Promise<{ session: Session; sdk: SdkFacts }> {
  const { ctx } = stack;
  const response = await request(ctx.app).get(`/session/${id}`).set('x-api-key', ctx.project.api_key);
  expect(response.status).toBe(200);
  const facts = await ctx.testDb.db('session_facts').where({ session_id: id }).first();
  return { session: response.body as Session, sdk: JSON.parse(facts.sdk) };
}

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
