/**
 * The analyst's day with cases, end to end in Debian's Chromium, served by the app from
 * dist/console: a rule opens a case when a sign-up shares its laptop with two other accounts;
 * the analyst finds it in the queue (filtered by that rule, sorted by score), reads why it
 * opened and the scores then, works it on the account's and the laptop's pages, takes it,
 * notes it and closes it as fraud onto block after a confirmation that says how many accounts;
 * the account is then labelled fraud and its next evaluation is Fake. From an account's graph
 * an analyst opens a case for its ring. A viewer reads a case
 * without the buttons. No request leaves Trustgate's origin and no page logs an error;
 * screenshots of the queue and a case at desktop and phone sizes, axe-core clean.
 */
import type { Page } from 'playwright-core';
import request from 'supertest';
import type { Case, CasePage } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { checkPage, consoleBrowser, PASSWORD, SIZES, type ConsoleBrowser } from '../helpers/console-e2e';
import { scenario } from '../helpers/evaluation';

const LAPTOP = '7b2e1d3f-4c5a-4b6e-9f7a-1d2c3b4a5e6f';
const ADDRESS = '81.2.69.142';

let ctx: TestContext;
let harness: ConsoleBrowser;
let run: ReturnType<typeof scenario>;
const ANALYST = 'analyst@example.com';
const VIEWER = 'viewer@example.com';

beforeAll(async () => {
  ctx = await makeTestContext({ consoleInsecureCookie: true, trustProxy: 'loopback' });
  ctx.clock.set(new Date());
  for (const [email, role] of [
    [ANALYST, 'analyst'],
    [VIEWER, 'viewer'],
  ] as const)
    await ctx.services.operators.add({ projectId: ctx.project.project_id, email, role, password: PASSWORD });
  const rules = await request(ctx.app)
    .put('/rules')
    .set('x-api-key', ctx.project.api_key)
    .send({
      rules: [
        {
          id: 'third-on-one-device',
          description: 'A sign-up shares its device with two other accounts',
          // Not again once the account is blocked: the case is settled.
          when: {
            all: [
              { field: 'accounts_linked', op: 'gte', value: 2 },
              { not: { field: 'lists', op: 'contains', value: 'block' } },
            ],
          },
          then: { open_case: true },
        },
      ],
    });
  expect(rules.status).toBe(200);
  run = scenario(ctx);
  for (const id of ['promo-a', 'promo-b', 'promo-c'])
    await run.signIn({ id, email: `${id}@mail.example` }, { device_id: LAPTOP }, ADDRESS);
  harness = await consoleBrowser(ctx.app);
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await ctx?.close();
});

const activeCases = async (accountId: string) =>
  (
    (await request(ctx.app).get(`/cases?account_id=${accountId}`).set('x-api-key', ctx.project.api_key))
      .body as CasePage
  ).cases;

async function openQueue(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cases' }).click();
  await page.getByRole('heading', { name: 'Cases' }).waitFor();
  await page.getByRole('table', { name: 'Cases' }).waitFor();
}

test('when a rule opens a case, then the analyst finds it in the queue, works it on the entity pages, closes it as fraud onto block, and the next evaluation is Fake', async () => {
  const [opened] = await activeCases('promo-c');
  expect(opened).toMatchObject({ rule_id: 'third-on-one-device', status: 'open' });
  const context = await harness.newContext(SIZES[0]![1]);
  try {
    const page = await context.newPage();
    await harness.signIn(page, ANALYST);
    await openQueue(page);
    await page.getByRole('combobox', { name: 'Opened by rule' }).click();
    await page.getByRole('option', { name: 'third-on-one-device' }).click();
    await page.waitForURL(/rule_id=third-on-one-device/);
    await page.getByRole('combobox', { name: 'Sort' }).click();
    await page.getByRole('option', { name: 'Highest score' }).click();
    await page.waitForURL(/sort=score/);
    // The address changes first; the queue of that address is drawn once it has loaded.
    const rows = page.getByTestId('case-row');
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().textContent()).resolves.toContain('A sign-up shares its device with two other accounts');

    await rows
      .first()
      .getByRole('link', { name: /^Case [0-9a-f]{8}$/ })
      .click();
    await page.getByTestId('case-summary').waitFor();
    await expect(page.getByTestId('case-summary').textContent()).resolves.toContain('by the rule third-on-one-device');
    await expect(page.getByTestId('case-snapshot').textContent()).resolves.toMatch(/score 0\.\d{3}/);

    // The account's page, then the laptop's page from its sessions, then back to the case.
    await page.getByTestId('case-accounts').getByRole('link', { name: 'promo-c' }).click();
    await page.getByRole('heading', { name: 'Account promo-c' }).waitFor();
    await page
      .getByRole('table', { name: 'Sessions' })
      .getByRole('link', { name: LAPTOP.slice(0, 8) })
      .first()
      .click();
    await page.waitForURL(`**/console/devices/${LAPTOP}`);
    await page.getByTestId('entity-accounts').waitFor();
    await expect(page.getByTestId('entity-accounts').textContent()).resolves.toBe('3');
    await page.goBack();
    await page.getByTestId('account-case').getByRole('link').click();
    await page.getByTestId('case-work').waitFor();

    await page.getByRole('button', { name: 'Take it' }).click();
    await page.getByText('You have the case.').waitFor();
    await expect(page.getByTestId('case-summary').textContent()).resolves.toContain(`Assignee: ${ANALYST}`);
    await page.getByRole('textbox', { name: 'New note' }).fill('Three sign-ups from one laptop with one promo code.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Note added.').waitFor();
    await expect(page.getByTestId('case-notes').textContent()).resolves.toContain(
      `${ANALYST}, ` /* the author by email */,
    );

    await page.getByRole('textbox', { name: 'Closing note (kept as the labels’ note)' }).fill('Promo abuse ring.');
    await page.getByRole('button', { name: 'Close case' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close the case as fraud?' });
    await expect(dialog.textContent()).resolves.toContain('1 account will be labelled fraud and put on block');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Case closed as fraud.').waitFor();
    const accounts = page.getByTestId('case-accounts');
    await expect(accounts.textContent()).resolves.toMatch(/promo-cFakefraudblock/);
    harness.expectNothingAmiss();
  } finally {
    await context.close();
  }
  const account = await request(ctx.app).get('/account/promo-c').set('x-api-key', ctx.project.api_key);
  expect(account.body.label).toMatchObject({ label: 'fraud', note: 'Promo abuse ring.' });
  const next = await run.signIn({ id: 'promo-c', email: 'promo-c@mail.example' }, { device_id: LAPTOP }, ADDRESS);
  expect(next.decision).toBe('Fake');
  expect(await activeCases('promo-c')).toEqual([]);
});

test('when an analyst opens a case for an account’s ring from its graph, then the case holds them all, and a viewer reads it without the buttons', async () => {
  const context = await harness.newContext(SIZES[0]![1]);
  try {
    const page = await context.newPage();
    await harness.signIn(page, ANALYST);
    await page.goto(`${harness.origin}/console/accounts/promo-a`);
    await page.getByTestId('account-case').getByRole('button', { name: 'Open a case' }).waitFor();
    await page.getByTestId('ring-actions').getByRole('button', { name: 'Open a case for the ring' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a case for the ring' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('The laptop’s other accounts');
    await expect(dialog.textContent()).resolves.toContain('3 accounts go under review.');
    await dialog.getByRole('button', { name: 'Open the case' }).click();
    await page.waitForURL(/\/console\/cases\/[0-9a-f-]{36}$/);
    await page.getByTestId('case-accounts').waitFor();
    const links = await page.getByTestId('case-accounts').locator('tbody a').allTextContents();
    expect(links).toEqual(['promo-a', 'promo-b', 'promo-c']);
    const caseUrl = page.url();
    harness.expectNothingAmiss();

    const viewer = await context.newPage();
    await context.clearCookies();
    await harness.signIn(viewer, VIEWER);
    await viewer.goto(caseUrl);
    await viewer.getByTestId('case-accounts').waitFor();
    await expect(viewer.getByTestId('case-work').count()).resolves.toBe(0);
    await expect(viewer.getByRole('button', { name: 'Add note' }).count()).resolves.toBe(0);
  } finally {
    await context.close();
  }
  const [group] = await activeCases('promo-b');
  expect((group as Case).account_ids).toEqual(['promo-a', 'promo-b', 'promo-c']);
});

describe.each(SIZES)('the cases pages on a %s', (size, options) => {
  test('when shown, then screenshots, no sideways scrolling and no WCAG 2 A/AA violation found by axe', async () => {
    const [some] = (
      (await request(ctx.app).get('/cases?status=all').set('x-api-key', ctx.project.api_key)).body as CasePage
    ).cases;
    // axe is injected as an inline script, which the console's CSP refuses: this context alone bypasses it.
    const context = await harness.newContext({ ...options, bypassCSP: true });
    try {
      const page = await context.newPage();
      await harness.signIn(page, ANALYST);
      await page.goto(`${harness.origin}/console/cases?status=all`);
      await page.getByRole('table', { name: 'Cases' }).waitFor();
      await checkPage(page, `${size}-cases`);
      await page.goto(`${harness.origin}/console/cases/${some!.case_id}`);
      await page.getByTestId('case-accounts').waitFor();
      await checkPage(page, `${size}-case`);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  });
});
