/**
 * The analyst's console end to end in Debian's Chromium (headless), served by the app from
 * dist/console (built by jest's globalSetup when stale): signing in (a wrong password, the
 * throttled message, the keyboard alone), search, an account, adding it to the block list (its
 * next evaluation through the API is Fake), labelling it, signing out; a viewer sees no action
 * buttons and the API refuses the action (403). The review queue (approve: allow, reject: block,
 * either leaves the queue), the audit log (readable changes, the operator named) and the
 * overview (the API's counts); a viewer reads them without buttons. No request leaves Trustgate's origin and no
 * page logs an error (a CSP violation is one). At a desktop (1280×800) and a phone (390×844)
 * size it writes screenshots of each page to test-artifacts/console/; axe-core checks the
 * pages against WCAG 2 A and AA.
 *
 * The cookie is the plain-http one (CONSOLE_INSECURE_COOKIE): the server listens on
 * http://127.0.0.1, where a __Host- cookie (Secure) is not kept. The clock is the real one: the
 * cookie's expiry is the browser's to check.
 */
import type { BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import type { AuditEvent, EvaluationStats, OperatorRole } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { checkPage, consoleBrowser, PASSWORD, shot, SIZES, type ConsoleBrowser } from '../helpers/console-e2e';
import { scenario } from '../helpers/evaluation';

let ctx: TestContext;
let harness: ConsoleBrowser;
const operators: Partial<Record<OperatorRole, { id: string; email: string }>> = {};

beforeAll(async () => {
  ctx = await makeTestContext({ consoleInsecureCookie: true, trustProxy: 'loopback' });
  ctx.clock.set(new Date());
  for (const role of ['analyst', 'viewer'] as const) {
    const email = `${role}@example.com`;
    const op = await ctx.services.operators.add({ projectId: ctx.project.project_id, email, role, password: PASSWORD });
    operators[role] = { id: op.id, email };
  }
  const run = scenario(ctx);
  for (let i = 0; i < 3; i++)
    await run.signIn({
      id: `shopper-${i}`,
      email: `shopper${i}@example.org`,
      first_name: 'Ada',
      last_name: 'Lovelace',
    });
  // The review queue: three accounts a rule would have put on `review` (here through the List API).
  for (let i = 0; i < 3; i++) {
    await run.signIn({ id: `reviewee-${i}`, email: `reviewee${i}@example.net` });
    const added = await request(ctx.app)
      .post(`/list/review/account/reviewee-${i}`)
      .set('x-api-key', ctx.project.api_key);
    expect(added.status).toBe(200);
  }
  harness = await consoleBrowser(ctx.app);
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await ctx?.close();
});

const newContext: ConsoleBrowser['newContext'] = (options) => harness.newContext(options);
const signIn = (page: Page, role: OperatorRole) => harness.signIn(page, operators[role]!.email);

/** The account's decision from a new evaluation through the API (a machine's call, with the key). */
async function evaluate(accountId: string) {
  const res = await scenario(ctx).signIn({ id: accountId, email: 'shopper0@example.org' });
  return res.decision;
}

describe('an analyst', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(SIZES[0]![1]);
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  test('when the password is wrong, then one message for it, and nothing else shows', async () => {
    await page.goto(`${harness.origin}/console`);
    await page.getByLabel('Email').fill(operators.analyst!.email);
    await page.getByRole('textbox', { name: 'Password' }).fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Wrong email or password/);
    await expect(page.getByRole('navigation', { name: 'Main' }).count()).resolves.toBe(0);
    await shot(page, 'desktop-sign-in-wrong-password');
  });

  test('when the server throttles signing in (429), then the message says how long to wait', async () => {
    await page.route('**/console/login', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '42', 'content-type': 'application/json' },
        body: JSON.stringify({ statusCode: 429, message: 'Too many requests' }),
      }),
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(
      /Too many sign-in attempts\. Try again in 42 seconds/,
    );
    await page.unroute('**/console/login');
  });

  test('when the sign-in form is used with the keyboard alone, then Tab reaches email, password and the button, and Enter signs in', async () => {
    await page.goto(`${harness.origin}/console`);
    await page.getByLabel('Email').waitFor();
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('type'))).resolves.toBe('email');
    await page.keyboard.type(operators.analyst!.email);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('type'))).resolves.toBe('password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Sign in');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/console/search');
    await expect(page.getByTestId('signed-in-as').textContent()).resolves.toBe(`${operators.analyst!.email} (analyst)`);
    // The main navigation by keyboard: its link is reachable and current.
    const search = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' });
    await search.focus();
    await expect(search.getAttribute('aria-current')).resolves.toBe('page');
  });

  test('when searching accounts by email domain and sessions by account, then the server’s pages show, filters in the address', async () => {
    await page.getByLabel('Email domain').fill('example.org');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/console/search?tab=accounts&email_domain=example.org');
    const accounts = page.getByRole('table', { name: 'Accounts' });
    await accounts.getByRole('link', { name: 'shopper-2' }).waitFor();
    await expect(accounts.locator('tbody tr a[href^="/console/accounts/"]').allTextContents()).resolves.toEqual([
      'shopper-0',
      'shopper-1',
      'shopper-2',
    ]);
    // Each email's domain links to the domain's page.
    await expect(accounts.getByRole('link', { name: 'example.org' }).first().getAttribute('href')).resolves.toBe(
      '/console/email-domains/example.org',
    );
    await shot(page, 'desktop-search-accounts');

    await page.getByRole('tab', { name: 'Sessions' }).click();
    await page.getByLabel('Account id').fill('shopper-1');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/console/search?tab=sessions&account_id=shopper-1');
    const sessions = page.getByRole('table', { name: 'Sessions' });
    // An answer shows only with the query it answers: the unfiltered page (three sessions) goes at once,
    // and the rows read are the filtered page's.
    await page.getByText('1 on this page.').waitFor();
    await expect(sessions.locator('tbody tr').allTextContents()).resolves.toEqual([
      expect.stringContaining('shopper-1'),
    ]);
    await shot(page, 'desktop-search-sessions');

    // A malformed filter is the API's 400, shown naming the field.
    await page.getByRole('button', { name: 'More filters' }).click();
    await page.getByLabel('Network').fill('not-a-network');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/network/);
  });

  test('when the analyst opens an account, adds it to the block list and labels it fraud, then its next evaluation is Fake and the audit names the operator', async () => {
    await page.goto(`${harness.origin}/console/search?tab=accounts`);
    await page.getByRole('table', { name: 'Accounts' }).getByRole('link', { name: 'shopper-0' }).click();
    await page.waitForURL('**/console/accounts/shopper-0');
    await page.getByRole('heading', { name: 'Account shopper-0' }).waitFor();
    for (const key of ['account_score', 'bot', 'multiple_accounts', 'risk_signals'])
      await expect(page.getByTestId(`score-${key}`).textContent()).resolves.toMatch(/^0\.\d{3}$/);
    await expect(page.getByRole('table', { name: 'Sessions' }).locator('tbody tr').count()).resolves.toBe(1);
    await expect(evaluate('shopper-0')).resolves.toBe('Real');
    await page.reload();
    await shot(page, 'desktop-account');

    await page.getByPlaceholder('Choose a list').click();
    await page.getByRole('option', { name: 'block' }).click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add account shopper-0 to block?' });
    await dialog.waitFor();
    await shot(page, 'desktop-account-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Added to block.' }).waitFor();
    await page.getByRole('button', { name: 'Remove from block' }).waitFor();
    await expect(evaluate('shopper-0')).resolves.toBe('Fake');

    await page.getByRole('button', { name: 'Label fraud' }).click();
    const labelling = page.getByRole('dialog', { name: 'Label account shopper-0 fraud?' });
    await labelling.getByLabel('Note (optional)').fill('Chargeback on order 1042');
    await labelling.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Labelled fraud.').waitFor();
    // The notice shows once the account is read again: the label is the new one, by the
    // operator's email (GET /operators, read beside the account).
    await page.getByTestId('current-label').filter({ hasText: operators.analyst!.email }).waitFor();
    await expect(page.getByTestId('current-label').textContent()).resolves.toMatch(
      new RegExp(`^fraud \\(Chargeback on order 1042\\), by ${operators.analyst!.email} on `),
    );

    const audit = await request(ctx.app).get('/audit').set('x-api-key', ctx.project.api_key);
    expect(audit.status).toBe(200);
    const mine = (audit.body.events as AuditEvent[]).filter((e) => e.actor === `operator:${operators.analyst!.id}`);
    // Newest first: the label, then the block list (joined; the account was on no standard list).
    expect(mine.map((e) => [e.action, e.account_id])).toEqual([
      ['account.labelled', 'shopper-0'],
      ['account.lists_changed', 'shopper-0'],
    ]);
    expect(mine[1]!.changes).toContainEqual({ field: 'list', before: null, after: 'block' });
  });

  test('when the analyst signs out, then the sign-in page, and the session no longer answers', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const me = await page.request.get(`${harness.origin}/console/me`);
    expect(me.status()).toBe(401);
    harness.expectNothingAmiss();
  });
});

describe('the review queue and the audit log', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(SIZES[0]![1]);
    page = await context.newPage();
    await signIn(page, 'analyst');
  });
  afterAll(() => context?.close());
  const lists = async (id: string) =>
    (await request(ctx.app).get(`/account/${id}`).set('x-api-key', ctx.project.api_key)).body.lists as string[];
  const queue = () => page.getByRole('table', { name: 'Accounts to review' });

  test('when the analyst approves one account and rejects another, then they join allow and block, leave review, and evaluate Real and Fake', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lists' }).click();
    await page.waitForURL('**/console/review');
    await queue().getByRole('link', { name: 'reviewee-2' }).waitFor();
    await expect(queue().getByRole('link').allTextContents()).resolves.toEqual([
      'reviewee-0',
      'reviewee-1',
      'reviewee-2',
    ]);
    await expect(page.getByTestId('queue-size').textContent()).resolves.toBe('3 accounts on review');
    await shot(page, 'desktop-review');

    await page.getByRole('button', { name: 'Approve reviewee-0' }).click();
    const approving = page.getByRole('dialog', { name: 'Approve account reviewee-0?' });
    await approving.waitFor();
    await shot(page, 'desktop-review-confirm');
    await approving.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Account reviewee-0 approved (allow).' }).waitFor();
    await expect(queue().getByRole('link').allTextContents()).resolves.toEqual(['reviewee-1', 'reviewee-2']);

    await page.getByRole('button', { name: 'Reject reviewee-1' }).click();
    await page
      .getByRole('dialog', { name: 'Reject account reviewee-1?' })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await page.getByRole('status').filter({ hasText: 'Account reviewee-1 rejected (block).' }).waitFor();
    await expect(queue().getByRole('link').allTextContents()).resolves.toEqual(['reviewee-2']);

    await expect(lists('reviewee-0')).resolves.toEqual(['allow']);
    await expect(lists('reviewee-1')).resolves.toEqual(['block']);
    await expect(evaluate('reviewee-0')).resolves.toBe('Real');
    await expect(evaluate('reviewee-1')).resolves.toBe('Fake');
  });

  test('when another list is chosen as the queue, then its accounts show and the address names it', async () => {
    await page.getByRole('combobox', { name: 'Queue (list)' }).click();
    await page.getByRole('option', { name: 'block' }).click();
    await page.waitForURL('**/console/review?list=block');
    await queue().getByRole('link', { name: 'reviewee-1' }).waitFor();
    await expect(page.getByTestId('queue-size').textContent()).resolves.toMatch(/accounts on block$/);
    // A list that does not exist is the API's 400, shown.
    await page.goto(`${harness.origin}/console/review?list=nothing-here`);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/List not found/);
  });

  test('when the analyst opens the audit log, then the decisions read as list changes by this operator, newest first', async () => {
    await page.goto(`${harness.origin}/console/audit`);
    const events = page.getByRole('table', { name: 'Audit events' });
    await events.getByRole('link', { name: 'reviewee-1' }).first().waitFor();
    // The operator by email (GET /operators, read beside the events), not by the id the audit keeps.
    const actor = operators.analyst!.email;
    await events.getByText(actor).first().waitFor();
    const rows = await events.locator('tbody tr').allTextContents();
    // Newest first: reject (joined block, then left review), approve (joined allow, then left review).
    expect(rows.slice(0, 4)).toEqual([
      expect.stringMatching(new RegExp(`Account’s lists changed reviewee-1left review${actor}$`)),
      expect.stringMatching(new RegExp(`Account’s lists changed reviewee-1joined block${actor}$`)),
      expect.stringMatching(new RegExp(`Account’s lists changed reviewee-0left review${actor}$`)),
      expect.stringMatching(new RegExp(`Account’s lists changed reviewee-0joined allow${actor}$`)),
    ]);
    await shot(page, 'desktop-audit');
    harness.expectNothingAmiss();
  });
});

describe('the overview', () => {
  test('when the analyst opens the overview, then the evaluations by decision, the signals raised and the lists’ sizes are the API’s', async () => {
    // The evaluations' counts as the server's flusher would have written them by now (STATS_FLUSH_MS).
    await ctx.services.statsFlusher.flush();
    const context = await newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await signIn(page, 'analyst');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click();
      await page.waitForURL('**/console/overview');
      const stats = (await request(ctx.app).get('/stats').set('x-api-key', ctx.project.api_key))
        .body as EvaluationStats;
      const real = stats.days.reduce((n, d) => n + d.Real, 0);
      const fake = stats.days.reduce((n, d) => n + d.Fake, 0);
      // At least the six sign-ins of beforeAll (Real); the tests before may have added Fake ones.
      expect(real).toBeGreaterThanOrEqual(6);
      await expect(page.getByTestId('evaluation-totals').textContent()).resolves.toBe(
        `${real + fake} evaluations from ${stats.from} to ${stats.to} (UTC): ${real} Real, ${fake} Fake`,
      );
      await expect(
        page.getByRole('img', { name: new RegExp(`^Evaluations per day: ${real} Real, ${fake} Fake`) }).count(),
      ).resolves.toBe(1);
      const lists = page.getByRole('table', { name: 'Lists' });
      await expect(lists.getByRole('row', { name: /^review \d+$/ }).textContent()).resolves.toBe('review1');
      const signals = await page.getByRole('table', { name: 'Signals raised most' }).count();
      expect(signals).toBe(stats.signals.length > 0 ? 1 : 0);
      await shot(page, 'desktop-overview');

      await page.getByRole('combobox', { name: 'Period' }).click();
      await page.getByRole('option', { name: 'Last 7 days' }).click();
      await page.waitForURL('**/console/overview?days=7');
      await expect(page.getByTestId('evaluation-totals').textContent()).resolves.toMatch(
        new RegExp(`^${real + fake} evaluations from .* to ${stats.to} \\(UTC\\)`),
      );
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  });
});

describe('a viewer', () => {
  test('when a viewer opens an account, then no action button, and the API refuses the action (403)', async () => {
    const context = await newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await signIn(page, 'viewer');
      await page.goto(`${harness.origin}/console/accounts/shopper-1`);
      await page.getByRole('heading', { name: 'Account shopper-1' }).waitFor();
      await page.getByRole('heading', { name: /Linked accounts/ }).waitFor();
      for (const name of ['Label fraud', 'Label legit', 'Add', 'Confirm'])
        await expect(page.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
      await expect(page.getByPlaceholder('Choose a list').count()).resolves.toBe(0);
      await shot(page, 'desktop-account-viewer');

      const status = await page.evaluate(async () => {
        const me = (await (await fetch('/console/me')).json()) as { csrf_token: string };
        const res = await fetch('/list/block/account/shopper-1', {
          method: 'POST',
          headers: { 'x-csrf-token': me.csrf_token },
        });
        return res.status;
      });
      expect(status).toBe(403);
      const account = await request(ctx.app).get('/account/shopper-1').set('x-api-key', ctx.project.api_key);
      expect(account.body.lists).toEqual([]);
      // The review queue and the audit log read, without a button.
      await page.goto(`${harness.origin}/console/review`);
      await page.getByRole('table', { name: 'Accounts to review' }).getByRole('link', { name: 'reviewee-2' }).waitFor();
      for (const name of ['Approve reviewee-2', 'Reject reviewee-2'])
        await expect(page.getByRole('button', { name }).count()).resolves.toBe(0);
      await shot(page, 'desktop-review-viewer');
      await page.goto(`${harness.origin}/console/audit`);
      await page.getByRole('table', { name: 'Audit events' }).waitFor();
      await page.goto(`${harness.origin}/console/overview`);
      await page.getByTestId('evaluation-totals').waitFor();
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)('every page on a %s', (size, options) => {
  test('when each page is shown, then a screenshot, no sideways scrolling and no WCAG 2 A/AA violation found by axe', async () => {
    // axe is injected as an inline script, which the console's CSP refuses: this context alone bypasses it.
    const context = await newContext({ ...options, bypassCSP: true });
    try {
      const page = await context.newPage();
      await page.goto(`${harness.origin}/console`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await checkPage(page, `${size}-sign-in`);

      await signIn(page, 'analyst');
      await page.getByRole('table', { name: 'Accounts' }).getByRole('link', { name: 'shopper-2' }).waitFor();
      await checkPage(page, `${size}-search`);

      if (size === 'phone') {
        await page.getByRole('button', { name: 'Navigation' }).click();
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).waitFor();
        await shot(page, `${size}-navigation`);
        await page.getByRole('button', { name: 'Navigation' }).click();
      }

      await page.goto(`${harness.origin}/console/accounts/shopper-2`);
      await page.getByRole('heading', { name: 'Account shopper-2' }).waitFor();
      await page.getByRole('heading', { name: /Linked accounts/ }).waitFor();
      await checkPage(page, `${size}-account`);

      await page.goto(`${harness.origin}/console/overview`);
      await page.getByTestId('evaluation-totals').waitFor();
      await checkPage(page, `${size}-overview`);

      await page.goto(`${harness.origin}/console/review`);
      await page.getByRole('table', { name: 'Accounts to review' }).waitFor();
      await checkPage(page, `${size}-review`);

      await page.goto(`${harness.origin}/console/audit`);
      await page.getByRole('table', { name: 'Audit events' }).waitFor();
      await checkPage(page, `${size}-audit`);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  }, 60_000);
});
