/**
 * The console's account page end to end in Debian's Chromium (headless), served by the app from
 * dist/console: an account with sessions from two countries, two linked accounts (a shared
 * browser, a shared phone) and a Face Match with its selfie. The page draws the latest receipt's
 * terms (with a table for screen readers), the signals and email intelligence, the sessions
 * over time and on the map, the verification's image through its signed URL, and the
 * linked-accounts graph (edges by match type, nodes reached and opened with the keyboard). An
 * admin erases an account after typing its id (the audit names the admin, not the account); a
 * viewer sees no action button and the API refuses the erasure (403). No request leaves
 * Trustgate's origin and no page logs an error. Screenshots at 1280×800 and 390×844 go to
 * test-artifacts/console/; axe-core checks the page against WCAG 2 A and AA.
 */
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import request from 'supertest';
import type { AuditEvent, OperatorRole } from '../../src/api-types';
import type { TestContext } from '../helpers/app';
import { checkPage, consoleBrowser, PASSWORD, shot, SIZES, type ConsoleBrowser } from '../helpers/console-e2e';
import { LONDON_IP, US_IP } from '../helpers/evaluation';
import { fakeAnalysisEngine } from '../helpers/fake-analysis';
import { verificationContext, type verificationFlow } from '../helpers/verification';

const DAY = 86_400_000;
const DEVICE = '5f0e7c1a-4b2d-4e8f-9a6b-3c1d2e4f5a6b';
const PHONE = '+447911123456';

let ctx: TestContext;
let flow: ReturnType<typeof verificationFlow>;
let closeContext: () => Promise<void>;
let harness: ConsoleBrowser;
const operators: Partial<Record<OperatorRole, { id: string; email: string }>> = {};

/** A real JPEG (so the browser draws it) that the fake analysis engine reads as `person`'s selfie. */
async function drawableSelfie(person: string): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 120, height: 160, channels: 3, background: '#7a9cc6' } })
    .jpeg()
    .toBuffer();
  return Buffer.concat([
    jpeg,
    Buffer.from(`FAKE:${JSON.stringify({ faces: [{ person }] })}`),
    Buffer.from([0xff, 0xd9]),
  ]);
}

beforeAll(async () => {
  ({
    ctx,
    flow,
    close: closeContext,
  } = await verificationContext(
    { consoleInsecureCookie: true, trustProxy: 'loopback', demo: false },
    { analysis: fakeAnalysisEngine, media: true },
  ));
  // The history over the last three days; the browser checks the cookie against the real clock.
  const now = Date.now();
  ctx.clock.set(new Date(now - 3 * DAY));
  for (const role of ['admin', 'viewer'] as const) {
    const email = `${role}@example.com`;
    const op = await ctx.services.operators.add({ projectId: ctx.project.project_id, email, role, password: PASSWORD });
    operators[role] = { id: op.id, email };
  }
  const sdk = flow.sdk;
  const ada = { id: 'ada', email: 'Ada.Lovelace@gmail.com', phone: PHONE, first_name: 'Ada', last_name: 'Lovelace' };
  await sdk.signIn(ada, { device_id: DEVICE }, LONDON_IP);
  ctx.clock.advance(DAY);
  await sdk.signIn({ id: 'ada' }, {}, US_IP);
  ctx.clock.advance(DAY / 2);
  await sdk.signIn({ id: 'ada-twin' }, { device_id: DEVICE }, LONDON_IP, true);
  await sdk.signIn({ id: 'ada-friend', phone: PHONE }, {}, US_IP, true);
  // A namesake who shares nothing else: under the link floor, so neither listed nor drawn.
  await sdk.signIn({ id: 'ada-namesake', first_name: 'ADA', last_name: 'lovelace' }, {}, US_IP, true);
  ctx.clock.advance(DAY / 4);
  await sdk.signIn({ id: 'ada' }, { device_id: DEVICE }, LONDON_IP, true);
  const verification = await flow.create('face-match', { account_id: 'ada' });
  const done = await flow.complete(verification, { selfie: await drawableSelfie('ada') });
  expect(done.body.status).toBe('success');
  ctx.clock.set(new Date(now));
  harness = await consoleBrowser(ctx.app);
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await closeContext?.();
});

const newContext: ConsoleBrowser['newContext'] = (options) => harness.newContext(options);
const signIn = (page: Page, role: OperatorRole) => harness.signIn(page, operators[role]!.email);

/** Opens the account's page and waits until every section has drawn (the map's countries included). */
async function openAccount(page: Page, id: string) {
  await page.goto(`${harness.origin}/console/accounts/${id}`);
  await page.getByRole('heading', { name: `Account ${id}` }).waitFor();
  await page.getByTestId('linked-graph').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="sessions-map"] path').length > 100);
}

describe('an admin', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(SIZES[0]![1]);
    page = await context.newPage();
    await signIn(page, 'admin');
  });
  afterAll(() => context?.close());

  test('when the admin opens the account, then the receipt, signals, email, sessions on the timeline and the map, the verification image and the graph are shown', async () => {
    await openAccount(page, 'ada');
    // The receipt: a bar per term that weighed, and the same terms in a table for screen readers.
    const receipt = page.getByRole('region', { name: /^Receipt of the evaluation of / });
    await expect(receipt.locator('[data-testid^="receipt-bars-"]').count()).resolves.toBe(4);
    await expect(receipt.locator('[data-testid="receipt-bars-account_score"] rect').count()).resolves.toBeGreaterThan(
      0,
    );
    await expect(receipt.getByRole('table').count()).resolves.toBe(4);
    // No term's name runs off the drawing's left edge.
    const clipped = await receipt
      .locator('svg text')
      .evaluateAll((texts) => texts.filter((t) => (t as SVGTextElement).getBBox().x < 0).map((t) => t.textContent));
    expect(clipped).toEqual([]);
    await expect(receipt.getByRole('table').first().locator('caption').textContent()).resolves.toMatch(
      /^Account score: 0\.\d{3}, from these terms$/,
    );

    await expect(page.getByRole('table', { name: 'Risk signals' }).locator('tbody tr').count()).resolves.toBe(10);
    await expect(page.getByTestId('email-normalised').textContent()).resolves.toBe('adalovelace@gmail.com');

    // Three sessions: three marks on the timeline, one point per located address on the map.
    await expect(page.locator('[data-testid="sessions-timeline"] circle').count()).resolves.toBe(3);
    await expect(page.getByTestId('map-point').count()).resolves.toBe(3);

    // The selfie, loaded through its signed URL.
    const selfie = page.getByRole('img', { name: /^Selfie of the verification/ });
    await selfie.waitFor();
    await page.waitForFunction(
      () => (document.querySelector('img[alt^="Selfie"]') as HTMLImageElement | null)?.naturalWidth === 120,
    );
    await expect(selfie.getAttribute('src')).resolves.toMatch(/^\/media\/[0-9a-f-]{36}\?expires=\d+&signature=/);

    // The graph: both linked accounts as nodes; an edge per match type, in its colour.
    const graph = page.getByTestId('linked-graph');
    const nodes = await graph
      .getByRole('link')
      .evaluateAll((links) => links.map((l) => l.closest('[data-account]')?.getAttribute('data-account')));
    expect(nodes).toEqual(expect.arrayContaining(['ada-twin', 'ada-friend']));
    expect(nodes).not.toContain('ada-namesake');
    const edges = await graph
      .locator('line')
      .evaluateAll((lines) => lines.map((l) => [l.getAttribute('data-match-type'), l.getAttribute('stroke')]));
    expect(edges).toEqual(
      expect.arrayContaining([
        ['browser', '#1f5fa8'],
        ['phone', '#1b7a3a'],
      ]),
    );
    // Readable: the nodes lie inside the drawing and apart from each other (no two circles overlap).
    const circles = await graph.locator('circle').evaluateAll((cs) =>
      cs.map((c) => {
        const r = c.getBoundingClientRect();
        return { x: r.x + r.width / 2, y: r.y + r.height / 2, radius: r.width / 2 };
      }),
    );
    const box = (await graph.boundingBox())!;
    expect(circles).toHaveLength(3);
    for (const [i, a] of circles.entries()) {
      expect(a.x - a.radius).toBeGreaterThanOrEqual(box.x);
      expect(a.x + a.radius).toBeLessThanOrEqual(box.x + box.width);
      expect(a.y - a.radius).toBeGreaterThanOrEqual(box.y);
      expect(a.y + a.radius).toBeLessThanOrEqual(box.y + box.height);
      for (const b of circles.slice(i + 1))
        expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(a.radius + b.radius);
    }
    await shot(page, 'desktop-account-full');
  });

  test('when a graph node is reached with the keyboard and Enter pressed, then the other account opens', async () => {
    await openAccount(page, 'ada');
    const twin = page.getByTestId('linked-graph').getByRole('link', { name: /^Account ada-twin, hop 1, / });
    // Tab until the node has the focus (it is in the page's tab order).
    for (let i = 0; i < 200; i++) {
      await page.keyboard.press('Tab');
      if (await twin.evaluate((el) => el === document.activeElement)) break;
    }
    await expect(twin.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await shot(page, 'desktop-account-graph-focus');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/console/accounts/ada-twin');
    await page.getByRole('heading', { name: 'Account ada-twin' }).waitFor();
  });

  test('when an account evaluated Real is labelled and put on block, then the page says what its last evaluation decided and when, that block decides its next one, whose receipt it shows, and who labelled it by email', async () => {
    const key = ctx.project.api_key;
    const before = (await request(ctx.app).get('/account/ada-twin').set('x-api-key', key)).body;
    expect(before.decision).toBe('Real');
    const evaluated = before.last_evaluation;
    expect(evaluated.request_id).toEqual(expect.any(String));
    await openAccount(page, 'ada-twin');
    await page.getByRole('button', { name: 'Label fraud' }).click();
    await page
      .getByRole('dialog', { name: 'Label account ada-twin fraud?' })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await page
      .getByTestId('current-label')
      .filter({ hasText: `by ${operators.admin!.email} on` })
      .waitFor();
    const listed = await request(ctx.app).post('/list/block/account/ada-twin').set('x-api-key', key).send({});
    expect(listed.status).toBe(200);

    await openAccount(page, 'ada-twin');
    const state = page.getByTestId('account-decision');
    await expect(state.textContent()).resolves.toBe(
      `Last evaluation Real on ${new Date(evaluated.created_at).toISOString().replace('T', ' ').slice(0, 19)} UTC` +
        'block decides its next evaluation: Fake',
    );
    const receipt = page.getByRole('region', { name: /^Receipt of the evaluation of / });
    await expect(receipt.textContent()).resolves.toContain(`Evaluation ${evaluated.request_id} of session`);
    await shot(page, 'desktop-account-state');
  });

  test('when the admin erases an account, then only the typed id enables it, the account is gone and the audit names the admin', async () => {
    await openAccount(page, 'ada-friend');
    await page.getByRole('button', { name: 'Erase account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase account ada-friend?' });
    await dialog.waitFor();
    const erase = dialog.getByRole('button', { name: 'Erase', exact: true });
    await expect(erase.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Account id').fill('ada-frien');
    await expect(erase.isDisabled()).resolves.toBe(true);
    await dialog.getByLabel('Account id').fill('ada-friend');
    await shot(page, 'desktop-account-erase-confirm');
    await erase.click();
    await page.getByRole('status').filter({ hasText: 'The account was erased' }).waitFor();

    const gone = await request(ctx.app).get('/account/ada-friend').set('x-api-key', ctx.project.api_key);
    expect(gone.status).toBe(400);
    const audit = await request(ctx.app).get('/audit').set('x-api-key', ctx.project.api_key);
    const [latest] = audit.body.events as AuditEvent[];
    expect(latest).toMatchObject({ action: 'account.erased', actor: `operator:${operators.admin!.id}`, changes: [] });
    expect(latest).not.toHaveProperty('account_id');
    harness.expectNothingAmiss();
  });
});

describe('a viewer', () => {
  test('when a viewer opens the account, then everything is shown but no action button, and the API refuses the erasure (403)', async () => {
    const context = await newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await signIn(page, 'viewer');
      await openAccount(page, 'ada');
      await page.getByRole('img', { name: /^Selfie of the verification/ }).waitFor();
      for (const name of ['Erase account', 'Label fraud', 'Label legit', 'Add', 'Remove from block'])
        await expect(page.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
      await shot(page, 'desktop-account-page-viewer');
      const status = await page.evaluate(async () => {
        const me = (await (await fetch('/console/me')).json()) as { csrf_token: string };
        const res = await fetch('/account/ada', { method: 'DELETE', headers: { 'x-csrf-token': me.csrf_token } });
        return res.status;
      });
      expect(status).toBe(403);
      expect((await request(ctx.app).get('/account/ada').set('x-api-key', ctx.project.api_key)).status).toBe(200);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)('the account page on a %s', (size, options) => {
  test('when it is shown, then a screenshot, no sideways scrolling and no WCAG 2 A/AA violation found by axe', async () => {
    // axe is injected as an inline script, which the console's CSP refuses: this context alone bypasses it.
    const context = await newContext({ ...options, bypassCSP: true });
    try {
      const page = await context.newPage();
      await signIn(page, 'admin');
      await openAccount(page, 'ada');
      await page.getByRole('img', { name: /^Selfie of the verification/ }).waitFor();
      await checkPage(page, `${size}-account-page`);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  }, 60_000);
});
