/**
 * How input arrived, end to end with Debian's Chromium and the real SDK bundle: a driver's
 * default typing and clicking (playwright's `keyboard.type` and `click`) are named
 * `robotic_typing` and `centred_clicks`; the same form driven with a person's pace and aim,
 * through the same protocol, raises neither, and its counts show the input reached the SDK.
 */
import type { BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import type { IngestInput, Session } from '../../src/api-types';
import type { TestContext } from '../helpers/app';
import { sdkStack, type SdkStack } from '../helpers/browser';
import { makeSessionRepository } from '../../src/storage/repositories/sessions';

let stack: SdkStack;
let ctx: TestContext;
let context: BrowserContext;

beforeAll(async () => {
  stack = await sdkStack();
  ctx = stack.ctx;
}, 60_000);

afterAll(() => stack?.close());
afterEach(() => context?.close());

const ADDRESS = 'someone@example.com';

async function openForm(): Promise<Page> {
  context = await stack.browser.newContext();
  const page = await context.newPage();
  await page.goto(stack.customer.origin + '/');
  return page;
}

async function submitted(page: Page): Promise<{ details: string[]; input: IngestInput | undefined }> {
  const id = await page.evaluate(() => window.Trustgate!.session().then((s) => s.session_id));
  const response = await request(ctx.app).get(`/session/${id}`).set('x-api-key', ctx.project.api_key);
  expect(response.status).toBe(200);
  const stored = await makeSessionRepository(ctx.testDb.db).findInAnyProject(id);
  return { details: (response.body as Session).risk_signal_details.device, input: stored?.sdk?.input };
}

/** A point in the element away from its centre: a fifth to two fifths of the way to an edge. */
async function offCentre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).boundingBox())!;
  const off = (size: number) => (0.2 + Math.random() * 0.2) * (Math.random() < 0.5 ? -1 : 1) * (size / 2);
  return { x: box.x + box.width / 2 + off(box.width), y: box.y + box.height / 2 + off(box.height) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('when a driver types and clicks with its defaults, then robotic_typing and centred_clicks are named', async () => {
  const page = await openForm();
  await page.click('#email');
  await page.keyboard.type(ADDRESS);
  await page.click('#go');
  const { details, input } = await submitted(page);
  expect(details).toEqual(expect.arrayContaining(['robotic_typing', 'centred_clicks']));
  expect(input).toMatchObject({ key_intervals: ADDRESS.length - 1, pointer_clicks: 2, centred_clicks: 2 });
});

test("when the form is driven at a person's pace and aim, then neither is named, though every key and click was counted", async () => {
  const page = await openForm();
  for (const selector of ['#email', '#go']) {
    const target = await offCentre(page, selector);
    await page.mouse.move(target.x, target.y, { steps: 8 });
    await page.mouse.down();
    await pause(60 + Math.random() * 60);
    await page.mouse.up();
    if (selector === '#go') break;
    for (const key of ADDRESS) {
      await page.keyboard.press(key, { delay: 40 + Math.random() * 60 });
      await pause(60 + Math.random() * 200);
    }
  }
  const { details, input } = await submitted(page);
  expect(details).not.toContain('robotic_typing');
  expect(details).not.toContain('centred_clicks');
  expect(input).toMatchObject({ key_intervals: ADDRESS.length - 1, pointer_clicks: 2, centred_clicks: 0 });
});
