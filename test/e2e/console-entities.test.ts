/**
 * The console's entity pages end to end in Debian's Chromium, served by the app from
 * dist/console: a shared laptop (one device, one address) used by two accounts, one of them a
 * bot decided Fake, a third account on another address of the same /24, all at one email
 * domain. An IP address's page says how many accounts and sessions came from it, how many were
 * decided Fake, where and what network it is, and links to its /24; the network's page finds
 * the third account too; the device's and the email domain's pages list theirs; the ids and
 * addresses in the tables are links there. No request leaves Trustgate's origin and no page
 * logs an error; screenshots at desktop and phone sizes, axe-core clean. A session's page (the
 * bot's) shows its facts, linked on, its account, its conditions and its evaluation's receipt.
 */
import type { Page } from 'playwright-core';
import type { OperatorRole } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { checkPage, consoleBrowser, PASSWORD, SIZES, type ConsoleBrowser } from '../helpers/console-e2e';
import { scenario } from '../helpers/evaluation';

const LAPTOP = '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const HOME = '81.2.69.142';
const NEIGHBOUR = '81.2.69.160';

let ctx: TestContext;
let harness: ConsoleBrowser;
let analyst: { email: string };
let botSession: string;

beforeAll(async () => {
  ctx = await makeTestContext({ consoleInsecureCookie: true, trustProxy: 'loopback' });
  ctx.clock.set(new Date());
  const role: OperatorRole = 'analyst';
  analyst = { email: 'analyst@example.com' };
  await ctx.services.operators.add({
    projectId: ctx.project.project_id,
    email: analyst.email,
    role,
    password: PASSWORD,
  });
  const run = scenario(ctx);
  await run.signIn({ id: 'flat-a', email: 'a@flatmates.example' }, { device_id: LAPTOP }, HOME);
  const bot = await run.signIn(
    { id: 'flat-b', email: 'b@flatmates.example' },
    { device_id: LAPTOP, automation: { webdriver: true, signals: [] } },
    HOME,
  );
  expect(bot.decision).toBe('Fake');
  botSession = bot.session_id;
  await run.signIn({ id: 'flat-c', email: 'c@flatmates.example' }, {}, NEIGHBOUR);
  harness = await consoleBrowser(ctx.app);
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await ctx?.close();
});

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent();
const accountLinks = (page: Page) =>
  page.getByRole('table', { name: 'Accounts' }).locator('tbody tr td:first-child a').allTextContents();

async function open(page: Page, path: string, heading: string) {
  await page.goto(`${harness.origin}/console${path}`);
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.getByTestId('entity-accounts').waitFor();
}

test('when the analyst follows an address from an account, then its page counts its accounts, sessions and Fake ones, says its network, and its /24 finds the neighbour too', async () => {
  const context = await harness.newContext(SIZES[0]![1]);
  try {
    const page = await context.newPage();
    await harness.signIn(page, analyst.email);
    await page.goto(`${harness.origin}/console/accounts/flat-b`);
    await page.getByRole('table', { name: 'Sessions' }).getByRole('link', { name: HOME }).click();
    await page.waitForURL(`**/console/ips/${HOME}`);
    await page.getByRole('heading', { name: `IP address ${HOME}` }).waitFor();
    await page.getByTestId('entity-accounts').waitFor();
    await expect(text(page, 'entity-accounts')).resolves.toBe('2');
    await expect(text(page, 'entity-sessions')).resolves.toBe('2');
    await expect(text(page, 'entity-fake')).resolves.toBe('1 of 2');
    await expect(text(page, 'entity-network')).resolves.toMatch(/^Network: 81\.2\.69\.0\/24 · isp/);
    expect((await accountLinks(page)).sort()).toEqual(['flat-a', 'flat-b']);

    await page.getByTestId('entity-network').getByRole('link', { name: '81.2.69.0/24' }).click();
    await page.getByRole('heading', { name: 'Network 81.2.69.0/24' }).waitFor();
    await page.getByTestId('entity-accounts').waitFor();
    expect((await accountLinks(page)).sort()).toEqual(['flat-a', 'flat-b', 'flat-c']);
    harness.expectNothingAmiss();
  } finally {
    await context.close();
  }
});

test("when the analyst opens the shared laptop's and the email domain's pages, then each lists its accounts, and a session's device links to the laptop", async () => {
  const context = await harness.newContext(SIZES[0]![1]);
  try {
    const page = await context.newPage();
    await harness.signIn(page, analyst.email);
    await open(page, `/email-domains/flatmates.example`, 'Email domain flatmates.example');
    expect((await accountLinks(page)).sort()).toEqual(['flat-a', 'flat-b', 'flat-c']);
    await page
      .getByRole('table', { name: 'Sessions' })
      .getByRole('link', { name: LAPTOP.slice(0, 8) })
      .first()
      .click();
    await page.waitForURL(`**/console/devices/${LAPTOP}`);
    await page.getByTestId('entity-accounts').waitFor();
    expect((await accountLinks(page)).sort()).toEqual(['flat-a', 'flat-b']);
    await expect(text(page, 'entity-fake')).resolves.toBe('1 of 2');
    harness.expectNothingAmiss();
  } finally {
    await context.close();
  }
});

test("when the analyst opens the bot's session from the device's page, then its facts link on, its account and conditions show, and its evaluation's receipt", async () => {
  const context = await harness.newContext(SIZES[0]![1]);
  try {
    const page = await context.newPage();
    await harness.signIn(page, analyst.email);
    await open(page, `/devices/${LAPTOP}`, `Device ${LAPTOP}`);
    await page.getByRole('link', { name: botSession }).click();
    await page.waitForURL(`**/console/sessions/${botSession}`);
    await page.getByRole('heading', { name: `Session ${botSession}` }).waitFor();
    const facts = page.getByRole('table', { name: 'Session facts' });
    await expect(facts.getByRole('link', { name: HOME }).getAttribute('href')).resolves.toBe(`/console/ips/${HOME}`);
    await expect(facts.getByRole('link', { name: '81.2.69.0/24' }).count()).resolves.toBe(1);
    await expect(text(page, 'session-accounts')).resolves.toBe('Accounts: flat-b');
    await expect(text(page, 'session-conditions')).resolves.toContain('webdriver');
    await expect(text(page, 'session-evaluation')).resolves.toMatch(/^Latest evaluationFakescore 0\.\d{3}$/);
    const receipt = page.getByRole('region', { name: /^Receipt of the evaluation of / });
    await expect(receipt.textContent()).resolves.toContain(`of session ${botSession}`);
    const verifications = page.getByRole('region', { name: 'Verifications' });
    await expect(verifications.textContent()).resolves.toBe('VerificationsNo verifications.');
    harness.expectNothingAmiss();
  } finally {
    await context.close();
  }
});

describe.each(SIZES)('the entity pages on a %s', (size, options) => {
  test('when shown, then screenshots, no sideways scrolling and no WCAG 2 A/AA violation found by axe', async () => {
    // axe is injected as an inline script, which the console's CSP refuses: this context alone bypasses it.
    const context = await harness.newContext({ ...options, bypassCSP: true });
    try {
      const page = await context.newPage();
      await harness.signIn(page, analyst.email);
      await open(page, `/ips/${HOME}`, `IP address ${HOME}`);
      await checkPage(page, `${size}-entity-ip`);
      await open(page, `/devices/${LAPTOP}`, `Device ${LAPTOP}`);
      await checkPage(page, `${size}-entity-device`);
      await page.goto(`${harness.origin}/console/sessions/${botSession}`);
      await page.getByRole('region', { name: /^Receipt of the evaluation of / }).waitFor();
      await checkPage(page, `${size}-session`);
      harness.expectNothingAmiss();
    } finally {
      await context.close();
    }
  });
});
