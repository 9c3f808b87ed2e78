/**
 * The console's single sign-on in Debian's Chromium (headless): the sign-in page offers the
 * provider's button beside the password form; the button goes to a real OpenID Connect provider
 * (test/helpers/oidc-provider.mjs, a process of its own, on `localhost`: another site than the
 * console's 127.0.0.1, so the sign-in cookie's SameSite=Lax is what carries it back), whose form
 * takes the email; the browser comes back signed in, or to the sign-in page saying why not.
 * Screenshots at desktop and phone sizes go to test-artifacts/console/; axe-core checks the
 * sign-in page against WCAG 2 A and AA.
 */
import type http from 'node:http';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { makeTestContext, type TestContext } from '../helpers/app';
import { launchChromium, listen, type Listening } from '../helpers/browser';
import { accessibilityViolations, shot, SIZES } from '../helpers/console-e2e';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc';

let ctx: TestContext;
let trustgate: Listening;
let provider: TestOidcProvider;
let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  let app: TestContext['app'] | undefined;
  trustgate = await listen((req: http.IncomingMessage, res: http.ServerResponse) => app!(req, res));
  provider = await startOidcProvider(`${trustgate.origin}/console/oidc/callback`, 'localhost');
  ctx = await makeTestContext({ consoleInsecureCookie: true }, { oidc: provider.signIn });
  ctx.clock.set(new Date());
  app = ctx.app;
  await ctx.services.operators.add({
    projectId: ctx.project.project_id,
    email: 'sso.analyst@example.com',
    role: 'analyst',
    password: null,
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await trustgate?.close();
  await provider?.stop();
  await ctx?.close();
});

async function newPage(options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 500) pageErrors.push(`${r.status()} ${r.url()}`);
  });
  return page;
}

/** Clicks the single sign-on button and answers the provider's form with `email`. */
async function signInThroughProvider(page: Page, email: string) {
  await page.goto(`${trustgate.origin}/console`);
  await page.getByRole('link', { name: 'Sign in with Test SSO' }).click();
  await page.waitForURL(`${provider.issuer}/interaction/**`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe.each(SIZES)('single sign-on at %s size', (size, options) => {
  test('when an operator signs in through the provider, then the console opens signed in as that operator', async () => {
    // (axe is injected as an inline script, which the console's CSP refuses: bypassed for this check.)
    const page = await newPage({ ...options, bypassCSP: true });
    await page.goto(`${trustgate.origin}/console`);
    await page.getByRole('link', { name: 'Sign in with Test SSO' }).waitFor();
    await shot(page, `${size}-sign-in-sso`);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await signInThroughProvider(page, 'sso.analyst@example.com');
    await page.waitForURL(`${trustgate.origin}/console/search`);
    await expect(page.getByTestId('signed-in-as').textContent()).resolves.toBe('sso.analyst@example.com (analyst)');
    // The sign-in's cookie served its one return; the session's is there.
    const cookies = await page.context().cookies(trustgate.origin);
    expect(cookies.map((c) => c.name).sort()).toEqual(['tg_session']);
    await page.context().close();
  });

  test('when the provider vouches for an email no operator has, then the sign-in page says so', async () => {
    const page = await newPage(options);
    await signInThroughProvider(page, 'stranger@example.com');
    await page.waitForURL(`${trustgate.origin}/console/?sign_in_error=unknown_operator`);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/No active console user has the email/);
    await shot(page, `${size}-sign-in-sso-refused`);
    await page.context().close();
  });
});

test('no page failed (no uncaught error, no 5xx)', () => {
  expect(pageErrors).toEqual([]);
});
