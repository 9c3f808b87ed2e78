/**
 * The rule builder and four-eyes publishing end to end in Debian's Chromium (headless), served
 * by the app from dist/console: an analyst builds a rule with the pickers (field, operator,
 * values, decision, tags), previews its matches over the recent evaluations, and submits it for
 * approval; the analyst cannot publish it (the reason shows, the API refuses); an admin who
 * authored a draft cannot publish their own (four-eyes: the reason shows, the API refuses with
 * the rule named); an admin sees the analyst's draft's diff and publishes it, and the next
 * evaluation applies it. Screenshots at a desktop and a phone size in test-artifacts/console/,
 * axe-core on the page at both.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import request from 'supertest';
import type { OperatorRole } from '../../src/api-types';
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
import { scenario } from '../helpers/evaluation';

const PASSWORD = 'correct horse battery staple';

let ctx: TestContext;
let trustgate: Listening;
let browser: Browser;
type Who = 'analyst' | 'admin' | 'approver';
const operators: Partial<Record<Who, { id: string; email: string }>> = {};

beforeAll(async () => {
  ctx = await makeTestContext({ consoleInsecureCookie: true, trustProxy: 'loopback' });
  ctx.clock.set(new Date());
  const roles: [Who, OperatorRole][] = [
    ['analyst', 'analyst'],
    ['admin', 'admin'],
    ['approver', 'admin'],
  ];
  for (const [who, role] of roles) {
    const email = `${who}@example.com`;
    const op = await ctx.services.operators.add({ projectId: ctx.project.project_id, email, role, password: PASSWORD });
    operators[who] = { id: op.id, email };
  }
  // Three people signed in this week: two of them support knows as fraudsters.
  const run = scenario(ctx);
  for (const id of ['good-1', 'bad-1', 'bad-2'])
    await run.signIn({ id, email: `${id.replace('-', '')}@example.org` }, { device_id: `device-${id}` });
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
const signIn = (page: Page, who: Who) => signInAs(page, trustgate.origin, operators[who]!.email, PASSWORD);
const openRules = async (page: Page) => {
  await page.goto(`${trustgate.origin}/console/rules`);
  await page.getByTestId('rules-version').waitFor();
};

/** The table's rows as arrays of cell texts. */
const cells = (page: Page, table: string) =>
  page
    .getByRole('table', { name: table })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent)));

/** What the API answers the page's own session for a POST (status and message), as a script on the page would get. */
const postFromPage = (page: Page, path: string) =>
  page.evaluate(async (p) => {
    const me = (await (await fetch('/console/me')).json()) as { csrf_token: string };
    const res = await fetch(p, { method: 'POST', headers: { 'x-csrf-token': me.csrf_token } });
    return { status: res.status, message: ((await res.json()) as { message?: string }).message };
  }, path);

const drafts = async () =>
  (await request(ctx.app).get('/rules/drafts').set('x-api-key', ctx.project.api_key)).body.drafts as {
    draft_id: string;
    author: string;
    status: string;
  }[];

/** Opens the drafts table's row proposed by `email`. */
const openDraftBy = async (page: Page, email: string) => {
  await page
    .getByRole('button', { name: new RegExp(`^Open the draft of .* by ${email.replace('.', '\\.')}$`) })
    .click();
  await page
    .getByTestId('draft-detail')
    .getByRole('heading', { name: `Draft by ${email}, over version 0` })
    .waitFor();
};

describe('an analyst builds a rule', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(SIZES[0]![1]);
    page = await context.newPage();
    await signIn(page, 'analyst');
    await openRules(page);
  });
  afterAll(() => context?.close());

  test('when the rule is built with the pickers, then the JSON view holds it and the preview counts its matches', async () => {
    await page.getByRole('button', { name: 'Add a rule' }).click();
    const rule = page.getByRole('group', { name: 'Rule 1' });
    await rule.getByLabel('Rule id').fill('known-bad');
    const condition = rule.getByRole('group', { name: 'Condition 1' });
    await condition.getByLabel('Field').selectOption('account.account.id');
    // The operators offered are the field's (text): no `gt` for an id.
    await expect(
      condition
        .getByLabel('Operator')
        .locator('option')
        .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)),
    ).resolves.toEqual(['eq', 'neq', 'in', 'not_in', 'contains', 'exists', 'not_exists']);
    await condition.getByLabel('Operator').selectOption('in');
    await condition.getByLabel('Values (separated by commas)').fill('bad-1, bad-2');
    await rule.getByLabel('Decision').selectOption('Fake');
    await rule.getByLabel('Tags (separated by commas)').fill('known_bad');

    await page.getByRole('button', { name: 'Preview matches' }).click();
    await expect(page.getByTestId('preview-summary').textContent()).resolves.toMatch(/^3 evaluations since /);
    await expect(cells(page, 'Preview matches')).resolves.toEqual([['known-bad', '2', '2']]);
    await shot(page, 'desktop-rule-builder');

    await page.getByRole('tab', { name: 'JSON' }).click();
    const json = JSON.parse(await page.getByLabel('Rules document (JSON)').inputValue());
    expect(json).toEqual({
      rules: [
        {
          id: 'known-bad',
          enabled: true,
          when: { all: [{ field: 'account.account.id', op: 'in', value: ['bad-1', 'bad-2'] }] },
          then: { decision: 'Fake', tags: ['known_bad'] },
        },
      ],
    });
    await page.getByRole('tab', { name: 'Builder' }).click();
    await expect(
      page.getByRole('group', { name: 'Rule 1' }).getByLabel('Values (separated by commas)').inputValue(),
    ).resolves.toBe('bad-1, bad-2');
  });

  test('when submitted for approval, then a pending draft it cannot publish itself: the reason shows and the API refuses', async () => {
    await page.getByRole('button', { name: 'Submit for approval…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Submit the draft over version 0 for approval?' });
    await dialog.getByLabel('Note for the approver (optional)').fill('Two accounts support caught.');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').filter({ hasText: 'Submitted for approval' }).waitFor();
    const [draft] = await drafts();
    expect(draft).toMatchObject({ author: `operator:${operators.analyst!.id}`, status: 'pending' });
    await page.getByRole('table', { name: 'Drafts' }).locator('tbody tr').first().waitFor();
    await expect(cells(page, 'Drafts')).resolves.toEqual([
      [expect.stringMatching(/UTC$/), 'analyst@example.com', '0', '1', 'pending'],
    ]);
    await openDraftBy(page, 'analyst@example.com');
    await expect(page.getByRole('button', { name: 'Publish', exact: true }).isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('publish-blocked').textContent()).resolves.toBe('Publishing needs the admin role.');
    await expect(postFromPage(page, `/rules/drafts/${draft!.draft_id}/publish`)).resolves.toEqual({
      status: 403,
      message: 'publishRuleDraft needs the admin role; this operator is an analyst',
    });
    expect((await drafts())[0]!.status).toBe('pending');
    expect(pageErrors).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});

describe('admins and four-eyes', () => {
  test('when an admin authors a draft, then its Publish is disabled with the four-eyes reason and the API refuses it', async () => {
    const context = await newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await signIn(page, 'admin');
      await openRules(page);
      await page.getByRole('tab', { name: 'JSON' }).click();
      const own = { rules: [{ id: 'tag-all', when: { field: 'bot', op: 'gte', value: 0 }, then: { tags: ['seen'] } }] };
      await page.getByLabel('Rules document (JSON)').fill(JSON.stringify(own, null, 2));
      await page.getByRole('button', { name: 'Submit for approval…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('status').filter({ hasText: 'Submitted for approval' }).waitFor();
      await openDraftBy(page, 'admin@example.com');
      const publish = page.getByTestId('draft-detail').getByRole('button', { name: 'Publish', exact: true });
      await expect(publish.isDisabled()).resolves.toBe(true);
      await expect(page.getByTestId('publish-blocked').textContent()).resolves.toBe(
        'You proposed this draft: another admin must publish it (four-eyes).',
      );
      await shot(page, 'desktop-rule-draft-own');
      const mine = (await drafts()).find((d) => d.author === `operator:${operators.admin!.id}`)!;
      await expect(postFromPage(page, `/rules/drafts/${mine.draft_id}/publish`)).resolves.toEqual({
        status: 403,
        message: `Four-eyes rule: operator:${operators.admin!.id} proposed this draft and cannot also publish it; another admin must approve it`,
      });
      const rules = await request(ctx.app).get('/rules').set('x-api-key', ctx.project.api_key);
      expect(rules.body.version).toBe(0);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('when another admin opens the analyst’s draft, then the diff shows the rule added, and Publish makes it apply to the next evaluation', async () => {
    const context = await newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await signIn(page, 'approver');
      await openRules(page);
      await openDraftBy(page, 'analyst@example.com');
      const added = page.getByRole('group', { name: 'Added known-bad' });
      await expect(added.getByLabel('known-bad after').textContent()).resolves.toContain('"account.account.id"');
      await expect(added.getByText('none').count()).resolves.toBe(1);
      await shot(page, 'desktop-rule-draft-diff');
      await page.getByTestId('draft-detail').getByRole('button', { name: 'Publish', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Published as version 1.' }).waitFor();
      await page
        .getByTestId('rules-version')
        .filter({ hasText: /^Version 1, published / })
        .waitFor();

      const next = await scenario(ctx).signIn({ id: 'bad-1' }, { device_id: 'device-bad-1' });
      expect(next.decision).toBe('Fake');
      expect(next.rules).toEqual({ version: 1, matched: ['known-bad'], decided_by: 'known-bad', tags: ['known_bad'] });
      const audit = await request(ctx.app).get('/audit').set('x-api-key', ctx.project.api_key);
      expect(audit.body.events[0]).toMatchObject({
        action: 'rules.published',
        actor: `operator:${operators.approver!.id}`,
        changes: expect.arrayContaining([
          {
            field: 'rules_draft_author',
            before: `operator:${operators.analyst!.id}`,
            after: `operator:${operators.analyst!.id}`,
          },
        ]),
      });
      // The audit log names the approver and the author by email.
      await page.goto(`${trustgate.origin}/console/audit`);
      const row = page.getByRole('row').filter({ hasText: 'Rules draft published' });
      // Operators are named by email once GET /operators has answered; until then by id.
      await row.filter({ hasText: 'approver@example.com' }).waitFor();
      await expect(row.textContent()).resolves.toMatch(/proposed by analyst@example\.com.*approver@example\.com/);
      await openRules(page);
      await page.getByRole('table', { name: 'Drafts' }).locator('tbody tr').nth(1).waitFor();
      // The admin's own draft was over version 0: superseded now.
      await expect(
        cells(page, 'Drafts').then((rows) => rows.map((r) => [r[1], r[4]]).sort((a, b) => a[0]!.localeCompare(b[0]!))),
      ).resolves.toEqual([
        ['admin@example.com', 'superseded'],
        ['analyst@example.com', 'published'],
      ]);
      expect(pageErrors).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)('the rule builder on a %s', (size, options) => {
  test('when shown with a preview and a draft’s diff, then a screenshot, no sideways scrolling and no WCAG 2 A/AA violation found by axe', async () => {
    // axe is injected as an inline script, which the console's CSP refuses: this context alone bypasses it.
    const context = await newContext({ ...options, bypassCSP: true });
    try {
      const page = await context.newPage();
      await signIn(page, 'approver');
      await openRules(page);
      await page.getByRole('group', { name: 'Rule 1' }).getByLabel('Rule id').waitFor();
      await page.getByRole('button', { name: 'Preview matches' }).click();
      await page.getByTestId('preview-summary').waitFor();
      await openDraftBy(page, 'admin@example.com');
      await page.getByRole('group', { name: 'Removed known-bad' }).waitFor();
      await shot(page, `${size}-rule-builder`);
      expect(await overflows(page)).toBe(false);
      await expect(accessibilityViolations(page)).resolves.toEqual([]);
      expect(pageErrors).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
