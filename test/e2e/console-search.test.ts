/**
 * The search page as an analyst works from it, end to end in Debian's Chromium, served by the
 * app from dist/console: accounts sorted by score (the riskiest first, `sort=score` in the
 * address), the label column, typed filters (a list chosen from the project's lists, a country
 * checked before it is sent), two accounts selected and put on `block` after a confirmation that
 * says how many (checked through the API), and two opened as one case (the case page, and the
 * case through the API). A viewer sees neither the checkboxes nor the actions. No request leaves
 * Trustgate's origin and no page logs an error; screenshots at desktop and phone sizes,
 * axe-core clean.
 */
import type { Page } from 'playwright-core';
import request from 'supertest';
import type { AccountResponse, Case } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { checkPage, consoleBrowser, PASSWORD, shot, SIZES, type ConsoleBrowser } from '../helpers/console-e2e';

let ctx: TestContext;
let harness: ConsoleBrowser;
const ANALYST = 'analyst@example.com';
const VIEWER = 'viewer@example.com';

/** The accounts, each with the score of its latest evaluation; never-evaluated ones have none. */
const ACCOUNTS: [string, number | undefined][] = [
  ['ana', 0.2],
  ['bruno', 0.93],
  ['carla', 0.05],
  ['dmitri', 0.61],
  ['eve', undefined],
];
const RISKIEST_FIRST = ['bruno', 'dmitri', 'ana', 'carla'];

beforeAll(async () => {
  ctx = await makeTestContext({ consoleInsecureCookie: true, trustProxy: 'loopback' });
  ctx.clock.set(new Date());
  for (const [email, role] of [
    [ANALYST, 'analyst'],
    [VIEWER, 'viewer'],
  ] as const)
    await ctx.services.operators.add({ projectId: ctx.project.project_id, email, role, password: PASSWORD });
  const { repos, evaluation } = ctx.services;
  const project = (await repos.projects.findById(ctx.project.project_id))!;
  for (const [id, accountScore] of ACCOUNTS) {
    const record = evaluation.applyInput(project, undefined, { email: `${id}@shop.example` }, id);
    if (accountScore !== undefined) {
      record.decision = accountScore >= 0.5 ? 'Fake' : 'Real';
      record.scores = { account_score: accountScore, bot: 0, multiple_accounts: 0, risk_signals: 0 };
    }
    await repos.accounts.upsert(record);
  }
  const labelled = await api().post('/account/bruno/label').send({ label: 'fraud' });
  expect(labelled.status).toBe(201);
  harness = await consoleBrowser(ctx.app);
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await ctx?.close();
});

function api() {
  const agent = request(ctx.app);
  const withKey = (t: request.Test) => t.set('x-api-key', ctx.project.api_key);
  return { get: (path: string) => withKey(agent.get(path)), post: (path: string) => withKey(agent.post(path)) };
}

const accountIds = (page: Page) =>
  page.getByRole('table', { name: 'Accounts' }).locator('tbody tr td a[href^="/console/accounts/"]').allTextContents();

async function listsOf(id: string): Promise<string[]> {
  const res = await api().get(`/account/${id}`);
  expect(res.status).toBe(200);
  return (res.body as AccountResponse).lists ?? [];
}

describe('an analyst on the search page', () => {
  let page: Page;
  beforeAll(async () => {
    const context = await harness.newContext(SIZES[0]![1]);
    page = await context.newPage();
    await harness.signIn(page, ANALYST);
  });
  afterAll(() => page?.context().close());

  test('when the accounts are sorted by score, then the riskiest come first, with their labels, the order in the address', async () => {
    await page.goto(`${harness.origin}/console/search?tab=accounts`);
    await page.getByRole('table', { name: 'Accounts' }).getByRole('link', { name: 'eve' }).waitFor();
    await expect(accountIds(page)).resolves.toEqual(['ana', 'bruno', 'carla', 'dmitri', 'eve']);

    await page.getByRole('combobox', { name: 'Sort' }).click();
    await page.getByRole('option', { name: 'Highest score first' }).click();
    await page.waitForURL('**/console/search?tab=accounts&sort=score');
    await page.getByText('4 on this page.').waitFor();
    await expect(accountIds(page)).resolves.toEqual(RISKIEST_FIRST);
    const bruno = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'bruno' }) });
    await expect(bruno.getByRole('cell').allTextContents()).resolves.toEqual([
      '',
      'bruno',
      'bruno@shop.example',
      'Fake',
      '0.930',
      'fraud',
      '0',
      '—',
      '—',
      '—',
    ]);
    const dmitri = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'dmitri' }) });
    await expect(dmitri.getByRole('cell').nth(5).textContent()).resolves.toBe('—');
    await shot(page, 'desktop-search-by-score');
  });

  test('when two accounts are selected and added to block, then the dialog says two, and both are on block', async () => {
    await page.getByRole('checkbox', { name: 'Select dmitri' }).check();
    await page.getByRole('checkbox', { name: 'Select carla' }).check();
    await page.getByText('2 accounts selected.').waitFor();
    await page.getByTestId('bulk-actions').getByRole('combobox', { name: 'List' }).click();
    await page.getByRole('option', { name: 'block', exact: true }).click();
    await page.getByRole('button', { name: 'Add to list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add 2 accounts to block?' });
    await dialog.getByText('This changes 2 accounts: each joins block and leaves the other standard lists.').waitFor();
    await shot(page, 'desktop-search-bulk-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Added 2 accounts to block.' }).waitFor();
    await expect(listsOf('dmitri')).resolves.toEqual(['block']);
    await expect(listsOf('carla')).resolves.toEqual(['block']);
    await expect(listsOf('ana')).resolves.toEqual([]);
    // The page is read again: the rows show the list, and nothing is selected any more.
    await page.getByRole('row').filter({ hasText: 'carla' }).getByText('block').waitFor();
    await page.getByText('Select accounts to act on them.').waitFor();
  });

  test('when the list filter is chosen from the lists and the country is not two letters, then the list filters and the country is refused before sending', async () => {
    await page.getByRole('button', { name: 'More filters' }).click();
    await page.getByRole('textbox', { name: 'Country' }).fill('g1');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Two letters, as GB or US').waitFor();
    await expect(page.url()).toMatch(/\/console\/search\?tab=accounts&sort=score$/);
    await page.getByRole('textbox', { name: 'Country' }).fill('');
    await page.locator('#search-filters').getByRole('combobox', { name: 'List' }).click();
    await page.getByRole('option', { name: 'block', exact: true }).click();
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('list') === 'block');
    expect(new URL(page.url()).searchParams.get('sort')).toBe('score');
    await page.getByText('2 on this page.').waitFor();
    await expect(accountIds(page)).resolves.toEqual(['dmitri', 'carla']);
  });

  test('when two accounts are selected and a case opened for them, then the case page, and the case holds both', async () => {
    await page.goto(`${harness.origin}/console/search?tab=accounts&sort=score`);
    await page.getByText('4 on this page.').waitFor();
    await page.getByRole('checkbox', { name: 'Select bruno' }).check();
    await page.getByRole('checkbox', { name: 'Select ana' }).check();
    await page.getByRole('button', { name: 'Open a case' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a case for 2 accounts?' });
    await dialog.getByText('This puts 2 accounts under review in one case, about bruno.').waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    // Without a reason the case is not opened.
    await dialog.getByRole('alert').filter({ hasText: 'Say why the case is opened.' }).waitFor();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Same card on both');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/console\/cases\/[0-9a-f-]{36}$/);
    const caseId = page.url().split('/').pop()!;
    const res = await api().get(`/cases/${caseId}`);
    expect(res.status).toBe(200);
    expect(res.body as Case).toMatchObject({ account_ids: ['bruno', 'ana'], reason: 'Same card on both' });
    harness.expectNothingAmiss();
  });
});

describe('a viewer on the search page', () => {
  test('when the viewer searches accounts, then no checkbox and no action show', async () => {
    const context = await harness.newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await harness.signIn(page, VIEWER);
      await page.goto(`${harness.origin}/console/search?tab=accounts&sort=score`);
      await page.getByText('4 on this page.').waitFor();
      await expect(accountIds(page)).resolves.toEqual(RISKIEST_FIRST);
      await expect(page.getByRole('checkbox').count()).resolves.toBe(0);
      await expect(page.getByTestId('bulk-actions').count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Open a case' }).count()).resolves.toBe(0);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)('the search page on a %s', (size, options) => {
  test('when accounts are selected in score order, then a screenshot, no sideways scrolling and no WCAG 2 A/AA violation found by axe', async () => {
    // axe is injected as an inline script, which the console's CSP refuses: this context alone bypasses it.
    const context = await harness.newContext({ ...options, bypassCSP: true });
    try {
      const page = await context.newPage();
      await harness.signIn(page, ANALYST);
      await page.goto(`${harness.origin}/console/search?tab=accounts&sort=score`);
      await page.getByText('4 on this page.').waitFor();
      await page.getByRole('checkbox', { name: 'Select dmitri' }).check();
      await page.getByText('1 account selected.').waitFor();
      await checkPage(page, `${size}-search-selected`);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  }, 60_000);
});
