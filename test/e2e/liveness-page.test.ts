/**
 * The hosted verification page end to end in Debian's Chromium (headless, a fake camera): it
 * loads with the web SDK under its Content-Security-Policy, shows the project's name and the
 * steps, works by camera and by upload, offers the upload when the camera is refused, ends in a
 * done state with every control disabled (or sends the user to redirect_url), and fits a phone.
 * At a phone (390×844, touch) and a desktop (1280×800) size it writes screenshots of each state
 * to test-artifacts/liveness-page/. The analysis engine is the deterministic fake of the
 * verification tests (a photo from the fake camera holds no face it can read; an uploaded
 * fakeImage does); the media folder is temporary.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import request from 'supertest';
import { buildSdk } from '../../scripts/build-sdk';
import { PACKAGE_ROOT } from '../../src/spec';
import type { ProjectCredentials } from '../../src/usecases/projects';
import { fakeAnalysisEngine, fakeImage } from '../helpers/fake-analysis';
import { launchChromium, listen, type Listening } from '../helpers/browser';
import { verificationContext } from '../helpers/verification';

const ARTEFACTS = path.join(PACKAGE_ROOT, 'test-artifacts', 'liveness-page');
const PROJECT_NAME = 'Acme & Sons Cycles';
const SELFIE = fakeImage({ faces: [{ person: 'ada' }] });
const PHOTOS = {
  id_front: fakeImage({ faces: [{ person: 'ada' }] }),
  id_back: fakeImage({ fields: { firstName: 'ADA', lastName: 'LOVELACE' } }),
  selfie: SELFIE,
};
const SIZES: [string, BrowserContextOptions][] = [
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ['desktop', { viewport: { width: 1280, height: 800 } }],
];
const STEP_LABELS = { 'face-match': ['Selfie'], 'id-check': ['ID front', 'ID back', 'Selfie'] } as const;
type SessionType = keyof typeof STEP_LABELS;

let setup: Awaited<ReturnType<typeof verificationContext>>;
let trustgate: Listening;
let customer: Listening;
let browser: Browser;
let project: ProjectCredentials;
/** What went wrong in any page: uncaught errors and console errors (a CSP violation is one). */
const pageErrors: string[] = [];
const captures: string[] = [];

beforeAll(async () => {
  await buildSdk();
  fs.rmSync(ARTEFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTEFACTS, { recursive: true });
  // The hosted page's URL is made on the public base URL: this server's origin once it listens.
  setup = await verificationContext(
    { demo: false },
    { analysis: fakeAnalysisEngine, media: true, publicBaseUrl: () => trustgate.origin },
  );
  // The real clock: the browser's SDK session and the page run in real time.
  setup.ctx.clock.set(new Date());
  project = await setup.ctx.services.projects.create({ name: PROJECT_NAME });
  trustgate = await listen(setup.ctx.app);
  customer = await listen(((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>Back at the shop</title><p>Welcome back</p>');
  }) as http.RequestListener);
  browser = await launchChromium(['--use-fake-device-for-media-stream']);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await customer?.close();
  await trustgate?.close();
  await setup?.close();
});

/** A browser context at a size; the camera allowed unless `camera: false` (then the browser refuses it). */
async function newContext(options: BrowserContextOptions, camera = true): Promise<BrowserContext> {
  const context = await browser.newContext({ ...options, permissions: camera ? ['camera'] : [] });
  context.setDefaultTimeout(10_000);
  context.on('page', (p) => {
    p.on('pageerror', (e) => pageErrors.push(e.message));
    p.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
  });
  context.on('request', (r) => {
    if (/\/capture\?/.test(r.url())) captures.push(r.url());
  });
  return context;
}

async function openHostedPage(
  context: BrowserContext,
  type: SessionType = 'face-match',
  redirect = true,
): Promise<{ page: Page; sessionId: string }> {
  const res = await request(trustgate.origin)
    .post('/liveness/session')
    .set('x-api-key', project.api_key)
    .send({ type, ...(redirect ? { redirect_url: `${customer.origin}/done` } : {}) });
  expect(res.status).toBe(200);
  const page = await context.newPage();
  await page.goto(res.body.url);
  return { page, sessionId: res.body.session_id };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTEFACTS, `${name}.png`), fullPage: true });

/** Whether the page is wider than the window (a phone would scroll sideways). */
const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Every button and input of the page that is still enabled (by its id or class). */
const enabledControls = (page: Page) =>
  page
    .locator('button, input')
    .evaluateAll((els) =>
      els.filter((e) => !(e as HTMLButtonElement).disabled).map((e) => e.id || e.className || e.tagName),
    );

const upload = (page: Page, kind: keyof typeof PHOTOS) =>
  page.locator(`#file-${kind}`).setInputFiles({ name: `${kind}.jpg`, mimeType: 'image/jpeg', buffer: PHOTOS[kind] });

describe('the hosted page with redirect_url', () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await newContext({});
  });
  afterAll(() => context?.close());

  test('when the hosted page loads, then it carries the web SDK, a labelled file input and a live region', async () => {
    const { page } = await openHostedPage(context);
    await expect(page.evaluate(() => typeof window.Trustgate)).resolves.toBe('object');
    await expect(page.getByRole('button', { name: 'Cancel verification' }).isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Upload a photo').getAttribute('accept')).resolves.toBe('image/*');
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/Step 1 of 1/);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  test('when the user presses Cancel, then the browser lands on redirect_url with success=false and liveness_check_failed', async () => {
    const { page, sessionId } = await openHostedPage(context);
    await page.getByRole('button', { name: 'Cancel verification' }).click();
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
    const { page, sessionId } = await openHostedPage(context);
    await page
      .getByLabel('Upload a photo')
      .setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: SELFIE });
    await page.waitForURL(`${customer.origin}/done?**`, { timeout: 15_000 });
    expect(captures.some((u) => u.includes(`/liveness/${sessionId}/capture?`) && u.includes('kind=selfie'))).toBe(true);
    const row = await setup.ctx.testDb.db('verification_captures').where({ session_id: sessionId }).first();
    expect(row).toMatchObject({ kind: 'selfie', content_type: 'image/jpeg', size: SELFIE.length });
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ session_id: sessionId, success: 'true' });
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 30_000);
});

describe.each(SIZES)('the hosted page on a %s', (size, options) => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await newContext(options);
  });
  afterAll(() => context?.close());

  test.each(['face-match', 'id-check'] as const)(
    'when a %s session is opened, then the project name and the steps; through the camera and uploads to done, every control disabled, never wider than the window',
    async (type) => {
      const { page } = await openHostedPage(context, type, false);
      const labels = STEP_LABELS[type];
      await expect(page.locator('#project-name').textContent()).resolves.toBe(PROJECT_NAME);
      await expect(page.title()).resolves.toBe(`Verify your identity · ${PROJECT_NAME}`);
      await expect(page.getByRole('list', { name: 'Steps' }).getByRole('listitem').allTextContents()).resolves.toEqual(
        labels.map((l, i) => `${i + 1}${l}${i ? '' : ' (current)'}`),
      );
      await expect(
        page.getByRole('heading', { level: 2, name: `Step 1 of ${labels.length}` }).isVisible(),
      ).resolves.toBe(true);
      await expect(page.getByRole('progressbar').getAttribute('value')).resolves.toBe('0');
      expect(await overflows(page)).toBe(false);
      await shot(page, `${size}-${type}-1-start`);

      // ID Check: the front by upload, then the back by the camera; Face Match: the selfie by the camera.
      if (type === 'id-check') {
        await upload(page, 'id_front');
        await page.getByRole('heading', { name: /Step 2 of 3/ }).waitFor();
        await expect(page.getByRole('status').textContent()).resolves.toMatch(/Photo 1 of 3 uploaded/);
      }
      const step = type === 'id-check' ? 'id_back' : 'selfie';
      await page.locator(`.start-camera[data-kind="${step}"]`).click();
      await page.locator(`.capture[data-kind="${step}"]`).waitFor();
      await expect(page.locator(`.capture[data-kind="${step}"]`).isEnabled()).resolves.toBe(true);
      await expect(page.locator(`#video-${step}`).evaluate((v: HTMLVideoElement) => v.videoWidth > 0)).resolves.toBe(
        true,
      );
      expect(await overflows(page)).toBe(false);
      await shot(page, `${size}-${type}-2-camera`);

      if (type === 'id-check') {
        await page.locator('.capture[data-kind="id_back"]').click();
        await page.getByRole('heading', { name: /Step 3 of 3/ }).waitFor();
        await expect(page.locator('#video-id_back').evaluate((v: HTMLVideoElement) => v.srcObject)).resolves.toBeNull();
      }
      await upload(page, 'selfie');
      await page.locator('#done').waitFor();
      await expect(page.locator('#done-title').textContent()).resolves.toBe('Verification complete');
      await expect(page.getByRole('status').textContent()).resolves.toBe(
        'Verification complete. You can close this page.',
      );
      await expect(page.getByRole('progressbar').getAttribute('value')).resolves.toBe(String(labels.length));
      expect(await enabledControls(page)).toEqual([]);
      await expect(page.locator('.step:visible, #cancel:visible').count()).resolves.toBe(0);
      expect(await overflows(page)).toBe(false);
      await shot(page, `${size}-${type}-3-done`);
      expect(pageErrors).toEqual([]);
      await page.close();
    },
    30_000,
  );

  test('when the user moves by keyboard, then the camera, the upload and Cancel come in that order, each with a focus ring', async () => {
    const { page } = await openHostedPage(context, 'face-match', false);
    const ring = async (selector: string) =>
      page.locator(selector).evaluate((e) => {
        const style = getComputedStyle(e);
        return `${style.outlineStyle} ${style.outlineWidth}`;
      });
    const order: string[] = [];
    for (const ringed of ['.start-camera', 'label.file', '#cancel']) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement!.id || document.activeElement!.className));
      expect(await ring(ringed)).toBe('solid 3px');
    }
    expect(order).toEqual(['btn primary start-camera', 'file-selfie', 'cancel']);
    await page.close();
  });

  test('when the user cancels, then a cancelled state with every control disabled', async () => {
    const { page, sessionId } = await openHostedPage(context, 'id-check', false);
    await page.getByRole('button', { name: 'Cancel verification' }).click();
    await page.locator('#done').waitFor();
    await expect(page.locator('#done-title').textContent()).resolves.toBe('Verification cancelled');
    expect(await enabledControls(page)).toEqual([]);
    expect(await overflows(page)).toBe(false);
    await shot(page, `${size}-id-check-4-cancelled`);
    const record = await setup.ctx.services.repos.verifications.find(sessionId);
    expect(record).toMatchObject({ state: 'ended', outcome: 'liveness_check_failed' });
    expect(pageErrors).toEqual([]);
    // The link again: the page of a link that cannot be used (410, under its own CSP).
    const again = await page.reload();
    expect(again?.status()).toBe(410);
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'This verification has already ended. (liveness_check_failed)',
    );
    expect(await overflows(page)).toBe(false);
    await shot(page, `${size}-ended-link`);
    expect(pageErrors.filter((e) => !/status of 410/.test(e))).toEqual([]);
    pageErrors.length = 0;
    await page.close();
  });
});

describe('the camera on a phone', () => {
  test('when the browser refuses the camera, then the page says so and offers the upload, focused', async () => {
    const context = await newContext(SIZES[0]![1], false);
    const { page } = await openHostedPage(context, 'face-match', false);
    await page.getByRole('button', { name: 'Use the camera' }).click();
    await page.locator('.status[data-tone="error"]').waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toMatch(
      /^Camera access was refused\. Upload a photo/,
    );
    await expect(page.locator('label.file[data-kind="selfie"]').getAttribute('class')).resolves.toContain('primary');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('file-selfie');
    await expect(page.getByRole('button', { name: 'Try the camera again' }).isEnabled()).resolves.toBe(true);
    await shot(page, 'phone-face-match-camera-refused');
    await upload(page, 'selfie');
    await expect(page.locator('#done-title').textContent()).resolves.toBe('Verification complete');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  test('while a photo uploads, then every control is disabled and the page is busy; after it, the next step', async () => {
    const context = await newContext(SIZES[0]![1]);
    const { page } = await openHostedPage(context, 'id-check', false);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    await page.route('**/capture?**', async (route) => {
      arrived();
      await held;
      await route.continue();
    });
    await upload(page, 'id_front');
    await arrival;
    expect(await enabledControls(page)).toEqual([]);
    await expect(page.locator('main').getAttribute('aria-busy')).resolves.toBe('true');
    await expect(page.getByRole('status').textContent()).resolves.toBe('Uploading photo 1 of 3…');
    await shot(page, 'phone-id-check-uploading');
    release();
    await page.getByRole('heading', { name: /Step 2 of 3/ }).waitFor();
    await expect(page.locator('main').getAttribute('aria-busy')).resolves.toBeNull();
    expect(await enabledControls(page)).toEqual(expect.arrayContaining(['cancel', 'file-id_back']));
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  test('when the photo from the camera shows no face, then the page asks again with the attempts left and its controls enabled', async () => {
    const context = await newContext(SIZES[0]![1]);
    const { page, sessionId } = await openHostedPage(context, 'face-match', false);
    await page.getByRole('button', { name: 'Use the camera' }).click();
    await page.getByRole('button', { name: 'Take photo' }).click();
    await page.locator('.status[data-tone="error"]').waitFor();
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      'No face was found in the selfie. Please take the photo again (2 attempts left).',
    );
    const row = await setup.ctx.testDb.db('verification_captures').where({ session_id: sessionId }).first();
    expect(row).toMatchObject({ kind: 'selfie', content_type: 'image/jpeg' });
    await expect(page.getByRole('button', { name: 'Use the camera' }).isEnabled()).resolves.toBe(true);
    await expect(page.locator('#file-selfie').isEnabled()).resolves.toBe(true);
    await expect(page.getByRole('progressbar').getAttribute('value')).resolves.toBe('0');
    await shot(page, 'phone-face-match-retry');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
