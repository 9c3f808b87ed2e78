/**
 * The console's end-to-end harness (test/e2e/console*.test.ts): Trustgate listening on loopback,
 * Debian's Chromium, browser contexts that record every page error (a CSP violation is one) and
 * every request to another origin, signing in through the sign-in page, screenshots in
 * test-artifacts/console/, the sideways-scrolling check and axe-core's WCAG 2 A/AA violations.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../../src/spec';
import { launchChromium, listen, type Listening } from './browser';

export const ARTEFACTS = path.join(PACKAGE_ROOT, 'test-artifacts', 'console');
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const PASSWORD = 'correct horse battery staple';
export const SIZES: [string, BrowserContextOptions][] = [
  ['desktop', { viewport: { width: 1280, height: 800 } }],
  ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
];

export interface ConsoleBrowser {
  /** Trustgate's origin (`http://127.0.0.1:port`). */
  origin: string;
  /** Uncaught errors and console errors of every page, and 5xx answers. */
  pageErrors: string[];
  /** Every request a page made to another origin than Trustgate's. */
  elsewhere: string[];
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** No page logged an error and none asked another origin for anything. */
  expectNothingAmiss(): void;
  /** Signs in through the sign-in page and waits for the search page. */
  signIn(page: Page, email: string): Promise<void>;
  close(): Promise<void>;
}

/** Serves `app` on loopback and launches Chromium. */
export async function consoleBrowser(app: Express): Promise<ConsoleBrowser> {
  fs.mkdirSync(ARTEFACTS, { recursive: true });
  const trustgate: Listening = await listen(app);
  const browser: Browser = await launchChromium();
  const pageErrors: string[] = [];
  const elsewhere: string[] = [];
  return {
    origin: trustgate.origin,
    pageErrors,
    elsewhere,
    newContext: (options = {}) => watchedContext(browser, trustgate.origin, { pageErrors, elsewhere }, options),
    expectNothingAmiss() {
      expect(pageErrors).toEqual([]);
      expect(elsewhere).toEqual([]);
    },
    signIn: (page, email) => signInAs(page, trustgate.origin, email, PASSWORD),
    async close() {
      await browser.close();
      await trustgate.close();
    },
  };
}

export const shot = (page: Page, name: string) => {
  fs.mkdirSync(ARTEFACTS, { recursive: true });
  return page.screenshot({ path: path.join(ARTEFACTS, `${name}.png`), fullPage: true });
};

/** Whether the page is wider than the window (a phone would scroll sideways). */
export const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** axe-core's WCAG 2 A and AA violations on the page, by rule id and the nodes' targets (the context must bypass the CSP). */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (o: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    return axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A screenshot named `name`, no sideways scrolling and no axe violation (the context must bypass the CSP). */
export async function checkPage(page: Page, name: string): Promise<void> {
  await shot(page, name);
  expect(await overflows(page)).toBe(false);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
}

/** What the pages of a test did wrong: uncaught errors and console errors (a CSP violation is one), requests elsewhere. */
export interface Watch {
  pageErrors: string[];
  elsewhere: string[];
}

/**
 * A browser context whose pages report to `watch`: uncaught errors, console errors but Chromium's
 * line for each 4xx answer (tests cause some: a wrong password, a refused filter), 5xx answers,
 * and every request to another origin than `origin`.
 */
export async function watchedContext(
  browser: Browser,
  origin: string,
  watch: Watch,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(10_000);
  context.on('page', (p) => {
    p.on('pageerror', (e) => watch.pageErrors.push(e.message));
    p.on('console', (m) => {
      if (m.type() === 'error' && !/the server responded with a status of 4\d\d/.test(m.text()))
        watch.pageErrors.push(m.text());
    });
    p.on('response', (r) => {
      if (r.status() >= 500) watch.pageErrors.push(`${r.status()} ${r.url()}`);
    });
  });
  context.on('request', (r) => {
    if (new URL(r.url()).origin !== origin) watch.elsewhere.push(r.url());
  });
  return context;
}

/** Signs in on the console's page and waits for the search page it lands on. */
export async function signInAs(page: Page, origin: string, email: string, password: string): Promise<void> {
  await page.goto(`${origin}/console`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/console/search');
}
