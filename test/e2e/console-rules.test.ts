/**
 * The console's rules page and its search box end to end in Debian's Chromium (headless),
 * served by the app from dist/console: an admin edits a draft in the JSON tab, sees a refused
 * draft's message naming the path and the rule, backtests the draft over seeded labelled traffic
 * and reads the precision/recall table, submits it for approval after a confirmation (a pending
 * draft, nothing published, the audit names the operator), and is told clearly when someone
 * published meanwhile (409); the shell's search box goes to the right page for each kind of
 * text; a viewer sees no Submit button and the API refuses PUT /rules (403). The builder and
 * four-eyes publishing: console-rule-builder.test.ts. Screenshots at a desktop and a phone size
 * in test-artifacts/console/, axe-core on the rules page at both.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import request from 'supertest';
import type { AuditEvent, OperatorRole } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { launchChromium, listen, type Listening } from '../helpers/browser';
import {
  accessibilityViolations,
  overflows,
  shot,
  signInAs,
  SIZES,
  watchedContext,
  type Watch,
} from '../helpers/console-e2e';
import { LONDON_IP, scenario } from '../helpers/evaluation';

const PASSWORD = 'correct horse battery staple';
const FINGERPRINT = 'f00dfeedf00dfeedf00dfeedf00dfeed';

let ctx: TestContext;
let trustgate: Listening;
let browser: Browser;
const operators: Partial<Record<OperatorRole, { id: string; email: string }>> = {};
/** The session id of good-1's sign-in. */
let goodSession: string;

const DRAFT = {
  rules: [
    {
      id: 'known-bad',
      description: 'Accounts support has seen before.',
      when: { field: 'account.account.id', op: 'in', value: ['bad-1', 'bad-2'] },
      then: { decision: 'Fake', tags: ['known_bad'] },
    },
  ],
};
const REFUSED = {
  rules: [{ id: 'block-tor', when: { field: 'session.tor', op: 'eq', value: true }, then: { decision: 'Fake' } }],
};

beforeAll(async () => {
  ctx = await makeTestContext({ consoleInsecureCookie: true, trustProxy: 'loopback' });
  ctx.clock.set(new Date());
  for (const role of ['admin', 'analyst', 'viewer'] as const) {
    const email = `${role}@example.com`;
    const op = await ctx.services.operators.add({ projectId: ctx.project.project_id, email, role, password: PASSWORD });
    operators[role] = { id: op.id, email };
  }
  // Four people signed in from their own devices: two support knows as legit, two as fraud.
  const run = scenario(ctx);
  for (const [id, label] of [
    ['good-1', 'legit'],
    ['good-2', 'legit'],
    ['bad-1', 'fraud'],
    ['bad-2', 'fraud'],
  ] as const) {
    const answer = await run.signIn(
      { id, email: `${id.replace('-', '')}@example.org` },
      // good-2's device id is its account id: the search box offers both.
      {
        device_id: id === 'good-2' ? id : `device-${id}`,
        ...(id === 'good-1' ? { browser_fingerprint: FINGERPRINT } : {}),
      },
    );
    if (id === 'good-1') goodSession = answer.session_id;
    const labelled = await request(ctx.app)
      .post(`/account/${id}/label`)
      .set('x-api-key', ctx.project.api_key)
      .send({ label });
    expect(labelled.status).toBe(201);
  }
  trustgate = await listen(ctx.app);
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await trustgate?.close();
  await ctx?.close();
});

const watch: Watch = { pageErrors: [], elsewhere: [] };
const { pageErrors, elsewhere } = watch;
const newContext = (options: BrowserContextOptions = {}) => watchedContext(browser, trustgate.origin, watch, options);
const signIn = (page: Page, role: OperatorRole) => signInAs(page, trustgate.origin, operators[role]!.email, PASSWORD);

const rulesOfApi = async () =>
  (await request(ctx.app).get('/rules').set('x-api-key', ctx.project.api_key)).body as { version: number };

/** The table's rows as arrays of cell texts. */
const cells = (page: Page, table: string) =>
  page
    .getByRole('table', { name: table })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent)));

describe('an admin on the rules page', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(SIZES[0]![1]);
    page = await context.newPage();
    await signIn(page, 'admin');
  });
  afterAll(() => context?.close());

  test('when a draft is refused by the API, then its message names the path and the rule', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rules' }).click();
    await page.waitForURL('**/console/rules');
    await expect(page.getByTestId('rules-version').textContent()).resolves.toBe('Version 0 (no rules published yet)');
    await page.getByRole('tab', { name: 'JSON' }).click();
    await page.getByLabel('Rules document (JSON)').fill(JSON.stringify(REFUSED, null, 2));
    await page.getByRole('button', { name: 'Backtest' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The backtest was refused' });
    await expect(alert.textContent()).resolves.toMatch(
      /rules.*0.*when.*field.*block-tor.*unknown field "session\.tor"/,
    );

    await page.getByLabel('Rules document (JSON)').fill('{"rules": [');
    await page.getByRole('button', { name: 'Backtest' }).click();
    await expect(alert.textContent()).resolves.toMatch(/The draft is not JSON/);
  });

  test('when the draft is backtested over labelled traffic, then the changes, their accounts and the precision/recall table show', async () => {
    await page.getByLabel('Rules document (JSON)').fill(JSON.stringify(DRAFT, null, 2));
    await page.getByRole('button', { name: 'Backtest' }).click();
    await expect(page.getByTestId('backtest-summary').textContent()).resolves.toBe(
      '4 evaluations replayed; 2 decisions would change: 2 to Fake, 0 to Real.',
    );
    // The result is brought into view and its heading takes the focus: no scrolling to find it.
    const heading = page.getByRole('heading', { name: 'Backtest', exact: true });
    await page.waitForFunction(() => document.activeElement?.textContent === 'Backtest');
    const top = await heading.evaluate((h) => h.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(page.viewportSize()!.height / 2);
    await expect(cells(page, 'Rule matches')).resolves.toEqual([['known-bad', '2', '2']]);
    // Fraud is the positive class: the threshold flagged nothing; the draft flags both fraudsters and no customer.
    await expect(cells(page, 'Precision and recall')).resolves.toEqual([
      ['Current decisions', '0', '0', '2', '2', '—', '0'],
      ['Draft decisions', '2', '0', '0', '2', '1', '1'],
      ['known-bad', '2', '0', '0', '2', '1', '1'],
    ]);
    const examples = page.getByRole('table', { name: 'Changed decisions' });
    // Oldest session first: the two signed in within the same millisecond or not, in either order.
    await expect(
      examples
        .getByRole('link')
        .allTextContents()
        .then((l) => l.sort()),
    ).resolves.toEqual(['bad-1', 'bad-2']);
    await expect(
      cells(page, 'Changed decisions').then((rows) => rows.sort((a, b) => a[1]!.localeCompare(b[1]!))),
    ).resolves.toEqual([
      [expect.stringMatching(/UTC$/), 'bad-1', 'Real', 'Fake', 'rule known-bad'],
      [expect.stringMatching(/UTC$/), 'bad-2', 'Real', 'Fake', 'rule known-bad'],
    ]);
    await shot(page, 'desktop-rules-backtest');
    // Nothing was stored by the backtests.
    await expect(rulesOfApi()).resolves.toMatchObject({ version: 0 });
  });

  test('when the admin submits the draft after confirming, then a pending draft, nothing published, and the audit names the operator', async () => {
    await page.getByRole('button', { name: 'Submit for approval…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit the draft over version 0 for approval?' });
    await dialog.waitFor();
    await shot(page, 'desktop-rules-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Submitted for approval' }).waitFor();
    await expect(rulesOfApi()).resolves.toMatchObject({ version: 0 });
    const drafts = await request(ctx.app).get('/rules/drafts').set('x-api-key', ctx.project.api_key);
    expect(drafts.body.drafts).toEqual([
      expect.objectContaining({ author: `operator:${operators.admin!.id}`, status: 'pending', rules_count: 1 }),
    ]);
    const audit = await request(ctx.app).get('/audit').set('x-api-key', ctx.project.api_key);
    const submitted = (audit.body.events as AuditEvent[]).filter((e) => e.action.startsWith('rules.'));
    expect(submitted).toEqual([
      expect.objectContaining({ actor: `operator:${operators.admin!.id}`, action: 'rules.draft_created' }),
    ]);
  });

  test('when someone else published meanwhile, then Submit says so and stores nothing', async () => {
    const other = await request(ctx.app).put('/rules').set('x-api-key', ctx.project.api_key).send({ rules: [] });
    expect(other.body.version).toBe(1);
    const draft = { rules: [{ ...DRAFT.rules[0]!, then: { decision: 'Fake', tags: ['known_bad', 'second'] } }] };
    await page.getByLabel('Rules document (JSON)').fill(JSON.stringify(draft, null, 2));
    await page.getByRole('button', { name: 'Submit for approval…' }).click();
    await page
      .getByRole('dialog', { name: 'Submit the draft over version 0 for approval?' })
      .getByRole('button', { name: 'Confirm' })
      .click();
    const alert = page.getByRole('alert').filter({ hasText: 'Changed meanwhile' });
    await expect(alert.textContent()).resolves.toMatch(/Someone published another version since you loaded version 0/);
    const drafts = await request(ctx.app).get('/rules/drafts').set('x-api-key', ctx.project.api_key);
    expect(drafts.body.drafts).toHaveLength(1);
    await alert.getByRole('button', { name: /Load the current version/ }).click();
    await page
      .getByTestId('rules-version')
      .filter({ hasText: /^Version 1, published / })
      .waitFor();
    // The draft is kept, to submit over the version now shown.
    await expect(page.getByLabel('Rules document (JSON)').inputValue()).resolves.toContain('"second"');
    expect(pageErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});

describe('the search box', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(SIZES[0]![1]);
    page = await context.newPage();
    await signIn(page, 'analyst');
  });
  afterAll(() => context?.close());

  const box = () => page.getByRole('textbox', { name: 'Search accounts, sessions, emails, devices and addresses' });
  /** Types the text, presses Enter and waits for the console path it goes to. */
  async function search(text: string, path: string) {
    await box().fill(text);
    await box().press('Enter');
    await page.waitForURL((url) => url.pathname + url.search === `/console${path}`);
  }
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

  test.each([
    ['an account id', 'bad-2', '/accounts/bad-2', 'Account bad-2'],
    ['an email', 'Good1@Example.org', `/search?${q({ tab: 'accounts', email: 'Good1@Example.org' })}`, 'good-1'],
    ['an @domain', '@example.org', `/search?${q({ tab: 'accounts', email_domain: 'example.org' })}`, 'bad-2'],
    ['a device id', 'device-bad-1', `/search?${q({ tab: 'sessions', device_id: 'device-bad-1' })}`, 'bad-1'],
    ['a bare domain', 'example.org', `/search?${q({ tab: 'accounts', email_domain: 'example.org' })}`, 'bad-2'],
    ['a fingerprint', FINGERPRINT, `/search?${q({ tab: 'accounts', fingerprint: FINGERPRINT })}`, 'good-1'],
    ['an IP address', LONDON_IP, `/search?${q({ tab: 'sessions', ip_address: LONDON_IP })}`, 'good-2'],
    ['a network', '81.2.69.0/24', `/search?${q({ tab: 'sessions', network: '81.2.69.0/24' })}`, 'good-2'],
  ])('when %s is searched, then its page', async (_kind, text, path, shows) => {
    await search(text, path);
    if (path.startsWith('/accounts/')) await page.getByRole('heading', { name: shows }).waitFor();
    else await page.getByRole('table').getByRole('link', { name: shows, exact: true }).first().waitFor();
  });

  test('when a session id is searched, then the sessions search shows that session alone', async () => {
    const session = await request(ctx.app).get(`/session/${goodSession}`).set('x-api-key', ctx.project.api_key);
    const start = new Date(session.body.start_time as string);
    await search(
      goodSession,
      `/search?${q({ tab: 'sessions', device_id: 'device-good-1', from: start.toISOString(), to: new Date(start.getTime() + 1).toISOString() })}`,
    );
    const rows = page.getByRole('table', { name: 'Sessions' }).locator('tbody tr');
    await page.getByText('1 on this page.').waitFor();
    await expect(rows.allTextContents()).resolves.toEqual([expect.stringContaining(goodSession)]);
  });

  test('when an identifier is two things, then the box offers both, and the one chosen opens', async () => {
    await box().fill('good-2');
    await box().press('Enter');
    const matches = page.getByLabel('Matches');
    await matches.getByRole('link', { name: 'a device' }).waitFor();
    await expect(matches.getByRole('link').allTextContents()).resolves.toEqual(['an account', 'a device']);
    await shot(page, 'desktop-search-box-choice');
    await matches.getByRole('link', { name: 'a device' }).click();
    await page.waitForURL(
      (url) => url.pathname + url.search === `/console/search?${q({ tab: 'sessions', device_id: 'good-2' })}`,
    );
    await expect(matches.count()).resolves.toBe(0);
  });

  test('when nothing has the text, then the box says so and stays', async () => {
    await box().fill('no-such-thing');
    await box().press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Nothing found' }).textContent()).resolves.toMatch(
      /Nothing found for “no-such-thing”/,
    );
    expect(pageErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});

describe('a viewer on the rules page', () => {
  test('when a viewer opens the rules, then no Submit button, and the API refuses PUT /rules (403)', async () => {
    const context = await newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await signIn(page, 'viewer');
      await page.goto(`${trustgate.origin}/console/rules`);
      await page.getByTestId('rules-version').waitFor();
      await expect(page.getByRole('button', { name: 'Submit for approval…' }).count()).resolves.toBe(0);
      await expect(page.getByText('submitting needs the analyst role').count()).resolves.toBe(1);
      await shot(page, 'desktop-rules-viewer');
      const before = await rulesOfApi();
      const status = await page.evaluate(async () => {
        const me = (await (await fetch('/console/me')).json()) as { csrf_token: string };
        const res = await fetch('/rules', {
          method: 'PUT',
          headers: { 'x-csrf-token': me.csrf_token, 'content-type': 'application/json' },
          body: JSON.stringify({ rules: [] }),
        });
        return res.status;
      });
      expect(status).toBe(403);
      await expect(rulesOfApi()).resolves.toMatchObject({ version: before.version });
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)('the rules page on a %s', (size, options) => {
  test('when shown with a backtest, then a screenshot, no sideways scrolling and no WCAG 2 A/AA violation found by axe', async () => {
    // axe is injected as an inline script, which the console's CSP refuses: this context alone bypasses it.
    const context = await newContext({ ...options, bypassCSP: true });
    try {
      const page = await context.newPage();
      await signIn(page, 'admin');
      if (size === 'phone') {
        // The search box is in the navigation on a phone.
        await page.getByRole('button', { name: 'Navigation' }).click();
        const box = page.getByRole('textbox', { name: 'Search accounts, sessions, emails, devices and addresses' });
        await box.fill('good-1');
        await box.press('Enter');
        await page.waitForURL('**/console/accounts/good-1');
      }
      await page.goto(`${trustgate.origin}/console/rules`);
      await page.getByTestId('rules-version').waitFor();
      await page.getByRole('tab', { name: 'JSON' }).click();
      await page.getByLabel('Rules document (JSON)').fill(JSON.stringify(DRAFT, null, 2));
      await page.getByRole('button', { name: 'Backtest' }).click();
      await page.getByTestId('backtest-summary').waitFor();
      await shot(page, `${size}-rules`);
      expect(await overflows(page)).toBe(false);
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
