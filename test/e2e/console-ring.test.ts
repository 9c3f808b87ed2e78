/**
 * The account page's ring end to end in Debian's Chromium, served by the app from dist/console:
 * seven accounts on one browser, six of them bots decided Fake, two on block and two labelled
 * fraud, and one more account linked to a member by a phone (two hops away) labelled legit. The
 * page sums the ring up, draws each node filled by its decision with its label's outline and its
 * list's badge, expands to two hops, and blocks the ring after showing the count the server
 * gave; the members then show as blocked. A viewer gets no Block button. No request leaves
 * Trustgate's origin and no page logs an error; screenshots at desktop and phone sizes in
 * test-artifacts/console/, axe-core clean.
 */
import type { Page } from 'playwright-core';
import request from 'supertest';
import type { AuditEvents } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { checkPage, consoleBrowser, PASSWORD, shot, SIZES, type ConsoleBrowser } from '../helpers/console-e2e';
import { scenario } from '../helpers/evaluation';

const DEVICE = '7b2e1d0c-4a3f-4e5d-9c8b-1a2b3c4d5e6f';
const PHONE = '+447911123654';
/** The nodes' fills (console/src/pages/account/RingGraph.tsx DECISION_MARKS). */
const FILLS = { Fake: '#a51d1d', Real: '#1f5fa8' };
const RING = ['ring-1', 'ring-2', 'ring-3', 'ring-4', 'ring-5', 'ring-6', 'ring-7'];

let ctx: TestContext;
let harness: ConsoleBrowser;
const operators: Record<'analyst' | 'viewer', { id: string; email: string }> = {
  analyst: { id: '', email: 'analyst@example.com' },
  viewer: { id: '', email: 'viewer@example.com' },
};

let ips = 0;
/** A residential London address in a /24 of its own: the accounts share only what the test gives them. */
const freshIp = () => `90.${210 + Math.floor(ips / 250)}.${ips++ % 250}.10`;

beforeAll(async () => {
  ctx = await makeTestContext({ consoleInsecureCookie: true, trustProxy: 'loopback' });
  // The browser checks the cookie against the real clock.
  ctx.clock.set(new Date());
  for (const role of ['analyst', 'viewer'] as const) {
    const op = await ctx.services.operators.add({
      projectId: ctx.project.project_id,
      email: operators[role].email,
      role,
      password: PASSWORD,
    });
    operators[role].id = op.id;
  }
  const run = scenario(ctx);
  await run.signIn({ id: 'ring-1' }, { device_id: DEVICE }, freshIp());
  for (const id of RING.slice(1)) {
    const bot = await run.signIn(
      { id, ...(id === 'ring-7' ? { phone: PHONE } : {}) },
      { device_id: DEVICE, automation: { webdriver: true, signals: [] } },
      freshIp(),
    );
    expect(bot.decision).toBe('Fake');
  }
  const beyond = await run.signIn({ id: 'beyond', phone: PHONE }, {}, freshIp());
  expect(beyond.decision).toBe('Real');
  const key = ctx.project.api_key;
  for (const id of ['ring-2', 'ring-3'])
    await request(ctx.app).post(`/list/block/account/${id}`).set('x-api-key', key).expect(200);
  for (const [id, label] of [
    ['ring-2', 'fraud'],
    ['ring-4', 'fraud'],
    ['beyond', 'legit'],
  ] as const)
    await request(ctx.app).post(`/account/${id}/label`).set('x-api-key', key).send({ label }).expect(201);
  harness = await consoleBrowser(ctx.app);
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await ctx?.close();
});

const node = (page: Page, id: string) => page.getByTestId('linked-graph').locator(`[data-account="${id}"]`);
const summary = (page: Page) => page.getByTestId('ring-summary').textContent();

async function openRing(page: Page, id: string) {
  await page.goto(`${harness.origin}/console/accounts/${id}`);
  // A browser's first page parses the whole bundle: on a busy machine that alone can take seconds.
  await page.getByRole('heading', { name: `Account ${id}` }).waitFor({ timeout: 30_000 });
  await page.getByTestId('ring-summary').waitFor();
}

async function expandToTwoHops(page: Page) {
  await page.getByRole('switch', { name: 'Expand to two hops' }).check();
  await node(page, 'beyond').waitFor();
}

test('when the analyst opens a member, then the ring is summed up, each node is filled by its decision and marked by its label and lists, and two hops add the account beyond', async () => {
  const context = await harness.newContext(SIZES[0]![1]);
  try {
    const page = await context.newPage();
    await harness.signIn(page, operators.analyst.email);
    await openRing(page, 'ring-1');
    await expect(summary(page)).resolves.toBe('Ring of 7: 6 Fake (86 %), 2 blocked (29 %), 2 labelled fraud (29 %).');
    const facts = (id: string) =>
      node(page, id).evaluate((g) => ({
        decision: g.getAttribute('data-decision'),
        label: g.getAttribute('data-label'),
        fill: g.querySelector('circle')!.getAttribute('fill'),
        dashed: g.querySelector('circle')!.getAttribute('stroke-dasharray') !== null,
        badge: g.querySelector('[data-list]')?.getAttribute('data-list') ?? null,
        hop: g.getAttribute('data-hop'),
      }));
    await expect(facts('ring-1')).resolves.toEqual({
      decision: 'Real',
      label: 'none',
      fill: FILLS.Real,
      dashed: false,
      badge: null,
      hop: '0',
    });
    await expect(facts('ring-2')).resolves.toEqual({
      decision: 'Fake',
      label: 'fraud',
      fill: FILLS.Fake,
      dashed: true,
      badge: 'block',
      hop: '1',
    });
    await expect(facts('ring-6')).resolves.toMatchObject({ decision: 'Fake', label: 'none', badge: null });
    await expect(node(page, 'beyond').count()).resolves.toBe(0);
    // The same facts in the table, in words.
    const row = page.getByRole('table', { name: 'Accounts of the ring' }).locator('tr[data-account="ring-2"]');
    await expect(row.textContent()).resolves.toContain('Fake (block decides Fake next)');
    await shot(page, 'desktop-ring-one-hop');

    await expandToTwoHops(page);
    await expect(summary(page)).resolves.toBe(
      'Ring of 8: 6 Fake (75 %), 2 blocked (25 %), 2 labelled fraud (25 %), 1 labelled legit.',
    );
    await expect(facts('beyond')).resolves.toMatchObject({ hop: '2', label: 'legit', decision: 'Real' });
    // Smaller and fainter than the first hop's.
    const radius = (id: string) => node(page, id).evaluate((g) => Number(g.querySelector('circle')!.getAttribute('r')));
    expect(await radius('beyond')).toBeLessThan(await radius('ring-7'));
    await shot(page, 'desktop-ring-two-hops');
    harness.expectNothingAmiss();
  } finally {
    await context.close();
  }
}, 60_000);

describe.each(SIZES)('the ring on a %s', (size, options) => {
  test('when it is expanded to two hops, then a screenshot, no sideways scrolling and no WCAG 2 A/AA violation found by axe', async () => {
    // axe is injected as an inline script, which the console's CSP refuses: this context alone bypasses it.
    const context = await harness.newContext({ ...options, bypassCSP: true });
    try {
      const page = await context.newPage();
      await harness.signIn(page, operators.analyst.email);
      await openRing(page, 'ring-1');
      await expandToTwoHops(page);
      await checkPage(page, `${size}-ring`);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  }, 60_000);
});

test('when the analyst blocks the ring, then the dialog shows the count first, and once confirmed every member shows as blocked and the audit names the analyst', async () => {
  const context = await harness.newContext(SIZES[0]![1]);
  try {
    const page = await context.newPage();
    await harness.signIn(page, operators.analyst.email);
    await openRing(page, 'ring-1');
    await expandToTwoHops(page);
    await page.getByRole('button', { name: 'Block the ring' }).click();
    const dialog = page.getByRole('dialog', { name: 'Block 8 accounts of the ring of ring-1?' });
    await dialog.waitFor();
    await expect(dialog.getByTestId('ring-block-count').textContent()).resolves.toMatch(
      /^6 accounts will join block; 2 are on it already\./,
    );
    // The count was a dry run: nothing is blocked yet.
    const blocked = async () =>
      (await request(ctx.app).get('/list/block').set('x-api-key', ctx.project.api_key)).body.accounts as string[];
    expect((await blocked()).sort()).toEqual(['ring-2', 'ring-3']);
    await shot(page, 'desktop-ring-block-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Blocked the ring: 6 accounts joined block, 2 already on it.' })
      .waitFor();
    await expect(summary(page)).resolves.toBe(
      'Ring of 8: 6 Fake (75 %), 8 blocked (100 %), 2 labelled fraud (25 %), 1 labelled legit.',
    );
    for (const id of [...RING.slice(1), 'beyond'])
      await expect(node(page, id).locator('[data-list]').getAttribute('data-list')).resolves.toBe('block');
    expect((await blocked()).sort()).toEqual([...RING, 'beyond'].sort());
    const audit = await request(ctx.app).get('/audit').set('x-api-key', ctx.project.api_key);
    const [latest] = (audit.body as AuditEvents).events;
    expect(latest).toMatchObject({
      action: 'ring.blocked',
      actor: `operator:${operators.analyst.id}`,
      account_id: 'ring-1',
      changes: expect.arrayContaining([{ field: 'blocked_count', before: null, after: 6 }]),
    });
    await shot(page, 'desktop-ring-blocked');
    harness.expectNothingAmiss();
  } finally {
    await context.close();
  }
}, 60_000);

test('when a viewer opens the ring, then it is drawn without the Block button', async () => {
  const context = await harness.newContext(SIZES[0]![1]);
  try {
    const page = await context.newPage();
    await harness.signIn(page, operators.viewer.email);
    await openRing(page, 'ring-1');
    await node(page, 'ring-2').waitFor();
    await expect(page.getByRole('button', { name: 'Block the ring' }).count()).resolves.toBe(0);
    harness.expectNothingAmiss();
  } finally {
    await context.close();
  }
});
