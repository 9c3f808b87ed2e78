/**
 * The console's webhooks page end to end in Debian's Chromium (headless), served by the app
 * from dist/console: list events queued through the List API are delivered by the dispatcher
 * to a real HTTP receiver on loopback (one refused with 400 and the receiver's reason, and failed), then an analyst lists the
 * deliveries, filters them by status (in the address), opens the failed one (its attempt's
 * HTTP status and answer), sends it again after a confirmation (the receiver gets the same
 * x-event-id), sees its second attempt and the replay in the audit log. A viewer reads the page
 * without the button and the API refuses the replay (403). With 52 deliveries, the list shows 50,
 * then the other 2 after Older (the cursor in the address), then the first 50 after Newest. No
 * request leaves Trustgate's origin and no page logs an error; screenshots at a desktop
 * (1280×800) and a phone (390×844) size in test-artifacts/console/, and axe-core checks both
 * pages against WCAG 2 A and AA.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import request from 'supertest';
import type { OperatorRole, WebhookDeliveries } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { checkPage, consoleBrowser, PASSWORD, shot, SIZES, type ConsoleBrowser } from '../helpers/console-e2e';
import { scenario } from '../helpers/evaluation';
import { deliverDue } from '../helpers/verification';

let ctx: TestContext;
let harness: ConsoleBrowser;
const operators: Partial<Record<OperatorRole, string>> = {};

/**
 * The receiver: records each request's x-event-id; refuses the events in `failing` as a receiver
 * with the wrong secret does (400 `{"reason":"bad_signature"}`), else answers 200 "ok".
 */
const received: string[] = [];
const failing = new Set<string>();
const REFUSAL = '{"reason":"bad_signature"}';
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const id = String(req.headers['x-event-id']);
    received.push(id);
    const fail = failing.has(id);
    if (fail) res.writeHead(400, { 'content-type': 'application/json' }).end(REFUSAL);
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});

/** The dispatcher over what is due, a failed attempt failing the webhook (no retry). */
const deliver = () => deliverDue(ctx, { maxRetries: 0 });

let failedId: string;

beforeAll(async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  ctx = await makeTestContext({ consoleInsecureCookie: true, trustProxy: 'loopback' });
  ctx.clock.set(new Date());
  const projectId = ctx.project.project_id;
  const key = ctx.project.api_key;
  for (const role of ['analyst', 'viewer'] as const) {
    const email = `${role}@example.com`;
    await ctx.services.operators.add({ projectId, email, role, password: PASSWORD });
    operators[role] = email;
  }
  const patched = await request(ctx.app)
    .patch('/project')
    .set('x-api-key', key)
    .send({
      webhook_url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      webhook_events: ['list.account_added', 'list.account_removed'],
    });
  expect(patched.status).toBe(200);
  // Two list events (customer-0 and customer-1 blocked); the newer one is refused (400) and fails.
  const run = scenario(ctx);
  for (const id of ['customer-0', 'customer-1']) {
    await run.signIn({ id });
    expect((await request(ctx.app).post(`/list/block/account/${id}`).set('x-api-key', key)).status).toBe(200);
  }
  const page = (await request(ctx.app).get('/webhooks/deliveries').set('x-api-key', key)).body as WebhookDeliveries;
  expect(page.deliveries).toHaveLength(2);
  failedId = page.deliveries[0]!.request_id;
  failing.add(failedId);
  await deliver();
  failing.delete(failedId);
  harness = await consoleBrowser(ctx.app);
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await new Promise<void>((r) => (receiver.closeAllConnections(), receiver.close(() => r())));
  await ctx?.close();
});

const newContext: ConsoleBrowser['newContext'] = (options) => harness.newContext(options);
const signIn = (page: Page, role: OperatorRole) => harness.signIn(page, operators[role]!);

describe('the webhooks page', () => {
  test('when an analyst filters the failed delivery, opens it and sends it again, then the receiver gets the same event id and the page shows the second attempt', async () => {
    const context = await newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await signIn(page, 'analyst');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.waitForURL('**/console/webhooks');
      const table = page.getByRole('table', { name: 'Webhook deliveries' });
      await table.waitFor();
      await expect(table.getByRole('row').count()).resolves.toBe(3); // the header and two deliveries
      await expect(table.textContent()).resolves.toMatch(/failed/);
      await shot(page, 'desktop-webhooks');

      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'failed' }).click();
      await page.waitForURL('**/console/webhooks?status=failed');
      // The filtered page replaces the first (one frame may still show the first page's rows).
      await page.waitForFunction(
        () => document.querySelectorAll('table[aria-label="Webhook deliveries"] tbody tr').length === 1,
      );
      await expect(table.getByRole('row').count()).resolves.toBe(2);
      await table.getByRole('link').first().click();
      await page.waitForURL(`**/console/webhooks/${failedId}`);
      const attempts = page.getByRole('table', { name: 'Attempts' });
      // The receiver's answer, whole, beside its status: why it refused.
      await expect(attempts.getByRole('row').nth(1).textContent()).resolves.toMatch(/^1.*HTTP 400 in \d+ ms/);
      await expect(attempts.getByRole('row').nth(1).textContent()).resolves.toMatch(new RegExp(`${REFUSAL}$`));
      await expect(page.getByLabel('Event body').textContent()).resolves.toContain(failedId);
      await shot(page, 'desktop-webhook-delivery');

      await page.getByRole('button', { name: 'Send again' }).click();
      const dialog = page.getByRole('dialog', { name: 'Send this webhook again?' });
      await expect(dialog.textContent()).resolves.toContain(failedId);
      await shot(page, 'desktop-webhook-replay-confirm');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(page.getByRole('status').textContent()).resolves.toMatch(/Queued again/);
      await expect(page.getByRole('table', { name: 'Delivery' }).textContent()).resolves.toMatch(/pending/);

      await deliver();
      expect(received.filter((id) => id === failedId)).toHaveLength(2);
      await page.reload();
      await attempts.getByRole('row').nth(2).waitFor();
      await expect(attempts.getByRole('row').count()).resolves.toBe(3);
      await expect(attempts.getByRole('row').nth(2).textContent()).resolves.toMatch(/^2.*HTTP 200 in \d+ msok$/);
      await expect(page.getByRole('table', { name: 'Delivery' }).textContent()).resolves.toMatch(/delivered/);

      // The replay in the audit log: what, which delivery and its status before, who (by email).
      await page.goto(`${harness.origin}/console/audit`);
      const events = page.getByRole('table', { name: 'Audit events' });
      await events.waitFor();
      // The operators' emails come from GET /operators, read beside the page's events.
      await events.getByText(operators.analyst!).first().waitFor();
      await expect(events.getByRole('row').nth(1).textContent()).resolves.toMatch(
        new RegExp(`Webhook replayed.*webhook ${failedId}.*webhook_status: failed → pending${operators.analyst}$`),
      );
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  });

  test('when a viewer opens a delivery, then no Send again button, and the API refuses the replay (403)', async () => {
    const context = await newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await signIn(page, 'viewer');
      await page.goto(`${harness.origin}/console/webhooks/${failedId}`);
      await page.getByRole('table', { name: 'Attempts' }).waitFor();
      await expect(page.getByRole('button', { name: 'Send again' }).count()).resolves.toBe(0);
      const before = received.length;
      const status = await page.evaluate(async (id) => {
        const me = (await (await fetch('/console/me')).json()) as { csrf_token: string };
        const res = await fetch(`/webhooks/deliveries/${id}/replay`, {
          method: 'POST',
          headers: { 'x-csrf-token': me.csrf_token },
        });
        return res.status;
      }, failedId);
      expect(status).toBe(403);
      await deliver();
      expect(received.length).toBe(before);
      await shot(page, 'desktop-webhook-delivery-viewer');
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  });
});

describe.each(SIZES)('the webhooks pages on a %s', (size, options) => {
  test('when each is shown, then a screenshot, no sideways scrolling and no WCAG 2 A/AA violation found by axe', async () => {
    // axe is injected as an inline script, which the console's CSP refuses: this context alone bypasses it.
    const context = await newContext({ ...options, bypassCSP: true });
    try {
      const page = await context.newPage();
      await signIn(page, 'analyst');
      await page.goto(`${harness.origin}/console/webhooks`);
      await page.getByRole('table', { name: 'Webhook deliveries' }).waitFor();
      await checkPage(page, `${size}-webhooks-list`);

      await page.goto(`${harness.origin}/console/webhooks/${failedId}`);
      await page.getByRole('table', { name: 'Attempts' }).waitFor();
      await checkPage(page, `${size}-webhooks-delivery`);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('the webhooks list, a page at a time', () => {
  test('when there are more deliveries than a page, then Older shows the rest (the cursor in the address), each once, and Newest the first page again', async () => {
    // 50 more events: 25 accounts blocked, then unblocked (52 deliveries in all, 50 a page).
    const key = ctx.project.api_key;
    const run = scenario(ctx);
    for (let i = 0; i < 25; i++) await run.signIn({ id: `paged-${i}` });
    for (const method of ['post', 'delete'] as const)
      for (let i = 0; i < 25; i++)
        expect((await request(ctx.app)[method](`/list/block/account/paged-${i}`).set('x-api-key', key)).status).toBe(
          200,
        );
    const all = (await request(ctx.app).get('/webhooks/deliveries?limit=100').set('x-api-key', key))
      .body as WebhookDeliveries;
    expect(all.deliveries).toHaveLength(52);

    const context = await newContext(SIZES[0]![1]);
    try {
      const page = await context.newPage();
      await signIn(page, 'analyst');
      await page.goto(`${harness.origin}/console/webhooks`);
      const table = page.getByRole('table', { name: 'Webhook deliveries' });
      await table.waitFor();
      const shown = () =>
        page.$$eval('table[aria-label="Webhook deliveries"] tbody tr a', (links) =>
          links.map((a) => a.getAttribute('href')!.split('/').pop()!),
        );
      await page.waitForFunction(
        () => document.querySelectorAll('table[aria-label="Webhook deliveries"] tbody tr').length === 50,
      );
      const first = await shown();
      expect(first).toEqual(all.deliveries.slice(0, 50).map((d) => d.request_id));

      await page.getByRole('button', { name: 'Older' }).click();
      await page.waitForURL(/\/console\/webhooks\?cursor=/);
      await page.waitForFunction(
        () => document.querySelectorAll('table[aria-label="Webhook deliveries"] tbody tr').length === 2,
      );
      expect(await shown()).toEqual(all.deliveries.slice(50).map((d) => d.request_id));
      await expect(page.getByRole('button', { name: 'Older' }).count()).resolves.toBe(0);

      await page.getByRole('button', { name: 'Newest' }).click();
      await page.waitForURL('**/console/webhooks');
      await page.waitForFunction(
        () => document.querySelectorAll('table[aria-label="Webhook deliveries"] tbody tr').length === 50,
      );
      expect(await shown()).toEqual(first);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  }, 60_000);
});
