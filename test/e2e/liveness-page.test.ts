/**
 * The hosted verification page end to end in Debian's Chromium: it loads with the web SDK,
 * Cancel sends the user to the customer's redirect_url, and a photo chosen with the file
 * input reaches the capture endpoint (stored encrypted) and completes the session. The
 * analysis engine is a deterministic fake (tests only); the media folder is temporary.
 */
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { buildSdk } from '../../scripts/build-sdk';
import type { ProjectCredentials } from '../../src/usecases/projects';
import type { AnalysisEngine } from '../../src/domain/verification/analysis';
import { seededUnitVector } from '../helpers/fake-analysis';
import { makeTestContext, type TestContext } from '../helpers/app';
import { launchChromium, listen, type Listening } from '../helpers/browser';

const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  randomBytes(100),
  Buffer.from([0xff, 0xd9]),
]);
/** A fake engine that finds one live face in whatever the fake camera shows (the real engine has its own tests). */
const fakeEngine: AnalysisEngine = {
  analyse: async () => ({
    outcome: 'analysed',
    selfie: { embedding: seededUnitVector('fake-camera'), liveness: 0.95, age: 30, confidence: 0.9 },
  }),
};

let ctx: TestContext;
let trustgate: Listening;
let customer: Listening;
let browser: Browser;
let project: ProjectCredentials;
let context: BrowserContext;
const pageErrors: string[] = [];
const captures: string[] = [];

beforeAll(async () => {
  await buildSdk();
  // The real clock: the browser's SDK session and the page run in real time.
  // The hosted page's URL is made on the public base URL: this server's origin once it listens.
  ctx = await makeTestContext(
    { demo: false },
    { analysis: fakeEngine, media: true, publicBaseUrl: () => trustgate.origin },
  );
  ctx.clock.set(new Date());
  project = ctx.project;
  trustgate = await listen(ctx.app);
  customer = await listen(((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Back at the shop</title><p>Welcome back</p>');
  }) as http.RequestListener);
  browser = await launchChromium();
  context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  context.on('page', (p) => p.on('pageerror', (e) => pageErrors.push(e.message)));
  context.on('request', (r) => {
    if (/\/capture\?/.test(r.url())) captures.push(r.url());
  });
}, 60_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await customer?.close();
  await trustgate?.close();
  await ctx?.close();
});

async function openHostedPage(): Promise<{ page: Page; sessionId: string }> {
  const res = await request(trustgate.origin)
    .post('/liveness/session')
    .set('x-api-key', project.api_key)
    .send({ type: 'face-match', redirect_url: `${customer.origin}/done` });
  expect(res.status).toBe(200);
  const page = await context.newPage();
  await page.goto(res.body.url);
  return { page, sessionId: res.body.session_id };
}

test('when the hosted page loads, then it carries the web SDK, a labelled file input and a live region', async () => {
  const { page } = await openHostedPage();
  await expect(page.evaluate(() => typeof window.Trustgate)).resolves.toBe('object');
  await expect(page.getByRole('button', { name: 'Cancel' }).isVisible()).resolves.toBe(true);
  await expect(page.getByLabel('Or upload a photo').getAttribute('accept')).resolves.toBe('image/*');
  await expect(page.getByRole('status').textContent()).resolves.toMatch(/Step 1/);
  await page.close();
});

test('when the user presses Cancel, then the browser lands on redirect_url with success=false and liveness_check_failed', async () => {
  const { page, sessionId } = await openHostedPage();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForURL(`${customer.origin}/done?**`);
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toEqual({
    session_id: sessionId,
    success: 'false',
    error_message: 'liveness_check_failed',
  });
  await page.close();
});

test('when the user uploads a photo, then it reaches the capture endpoint, is stored, and the session completes with success', async () => {
  const { page, sessionId } = await openHostedPage();
  await page
    .getByLabel('Or upload a photo')
    .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: JPEG });
  await page.waitForURL(`${customer.origin}/done?**`, { timeout: 15_000 });
  expect(captures.some((u) => u.includes(`/liveness/${sessionId}/capture?`) && u.includes('kind=selfie'))).toBe(true);
  const row = await ctx.testDb.db('verification_captures').where({ session_id: sessionId }).first();
  expect(row).toMatchObject({ kind: 'selfie', content_type: 'image/jpeg', size: JPEG.length });
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ session_id: sessionId, success: 'true' });
  expect(pageErrors).toEqual([]);
  await page.close();
}, 30_000);
