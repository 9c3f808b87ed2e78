/**
 * Collection that cannot be forged cheaply, end to end with Debian's Chromium: the real SDK
 * bundle asks Trustgate for a challenge and binds its post to it (the server finds it valid,
 * and the browser's own headers agree with what the SDK says); a page driven over the DevTools
 * Protocol (playwright-core, which enables the Runtime domain) is flagged `cdp:runtime_enabled`;
 * a stealth-style patch of the page's navigator is caught by the Web Worker's view; and a plain
 * page load, Chromium started with a URL and no debugging client, raises none of these.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import type { Session } from '../../src/api-types';
import type { TestContext } from '../helpers/app';
import { CHROMIUM_ARGS, CHROMIUM_PATH, sdkStack, type SdkStack } from '../helpers/browser';

let stack: SdkStack;
let ctx: TestContext;
let browser: Browser;
let customer: SdkStack['customer'];

beforeAll(async () => {
  stack = await sdkStack();
  ({ ctx, browser, customer } = stack);
}, 60_000);

afterAll(() => stack?.close());

const getSession = async (id: string): Promise<Session> => {
  const response = await request(ctx.app).get(`/session/${id}`).set('x-api-key', ctx.project.api_key);
  expect(response.status).toBe(200);
  return response.body as Session;
};

const sessionOf = (page: Page) => page.evaluate(() => window.Trustgate!.session().then((s) => s.session_id));

/** The conditions this work adds: none of them may come from a plain page load. */
const NEW_CONDITIONS =
  /^(cdp:|worker_mismatch:|iframe_mismatch:|fingerprint_inconsistent:|forged_payload$|replayed_payload$|user_agent_header_mismatch$|client_hints_header_mismatch$|accept_language_mismatch$|events_outpace_challenge$|fingerprint_mismatch$)/;

describe('a page driven over the DevTools Protocol', () => {
  let context: BrowserContext;
  afterEach(() => context?.close());

  test('when playwright drives the page (Runtime domain enabled), then the session is flagged cdp:runtime_enabled, and its post is validly bound with consistent headers', async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(customer.origin + '/');
    const session = await getSession(await sessionOf(page));
    const details = session.risk_signal_details.device;
    expect(details).toContain('cdp:runtime_enabled');
    expect(session.risk_signals.device_risk).toBe(true);
    // The real SDK's binding verifies on the server, and the browser's headers match its claims.
    expect(details).not.toContain('forged_payload');
    expect(details).not.toContain('replayed_payload');
    expect(details).not.toContain('user_agent_header_mismatch');
    expect(details).not.toContain('client_hints_header_mismatch');
    expect(details).not.toContain('accept_language_mismatch');
  });

  test('when a driver reaches the page through a protocol binding once the page is in use (as rebrowser does), then cdp:binding, named when the page asks for the session', async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(customer.origin + '/');
    const sessionId = await sessionOf(page);
    expect((await getSession(sessionId)).risk_signal_details.device).not.toContain('cdp:binding');
    // What such a driver does on its first action: a binding under a random name, in the page's main world only.
    const cdp = await context.newCDPSession(page);
    const contexts: { id: number; auxData?: { isDefault?: boolean } }[] = [];
    cdp.on('Runtime.executionContextCreated', (e) => contexts.push(e.context));
    await cdp.send('Runtime.enable');
    const main = contexts.find((c) => c.auxData?.isDefault);
    await cdp.send('Runtime.addBinding', { name: 'k3j9x2m8q1w7', executionContextId: main!.id });
    expect(await sessionOf(page)).toBe(sessionId);
    expect((await getSession(sessionId)).risk_signal_details.device).toContain('cdp:binding');
  });

  test("when a stealth script patches the page's navigator before the page runs, then the Web Worker's view gives it away", async () => {
    context = await browser.newContext();
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 64, configurable: true });
    });
    const page = await context.newPage();
    await page.goto(customer.origin + '/');
    expect(await page.evaluate(() => navigator.hardwareConcurrency)).toBe(64);
    const details = (await getSession(await sessionOf(page))).risk_signal_details.device;
    expect(details).toContain('worker_mismatch:hardware_concurrency');
    expect(details).toContain('browser_tampering_detected');
  });
});

describe('a plain page load', () => {
  let chromium: ChildProcess | undefined;
  let profile: string;
  afterAll(async () => {
    if (chromium && chromium.exitCode === null) {
      const exited = new Promise((resolve) => chromium!.once('exit', resolve));
      // The whole process group: Chromium's own children (renderer, GPU, utility) write into the
      // profile too, and outlive the browser process when only it is killed.
      process.kill(-chromium.pid!, 'SIGKILL');
      await exited;
    }
    // (A child may still be closing its files for a moment after the group is killed.)
    if (profile) fs.rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  });

  test('when Chromium opens the page by itself, with no DevTools client, then none of the new conditions is raised', async () => {
    const before = new Set(
      (await ctx.testDb.db('sessions').where({ project_id: ctx.project.project_id }).select('id')).map((r) => r.id),
    );
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'trustgate-plain-'));
    chromium = spawn(
      CHROMIUM_PATH,
      ['--headless=new', ...CHROMIUM_ARGS, `--user-data-dir=${profile}`, customer.origin + '/plain'],
      // A process group of its own, so that afterAll stops all of it.
      { stdio: 'ignore', detached: true },
    );
    let sessionId: string | undefined;
    const until = Date.now() + 20_000;
    while (!sessionId && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      const rows = await ctx.testDb.db('sessions').where({ project_id: ctx.project.project_id }).select('id');
      sessionId = rows.map((r) => r.id as string).find((id) => !before.has(id));
    }
    expect(sessionId).toBeDefined();
    const session = await getSession(sessionId!);
    const raised = session.risk_signal_details.device.filter((d) => NEW_CONDITIONS.test(d));
    expect(raised).toEqual([]);
    // It is the same browser: headless, so botd's detectors still see it; only the CDP side effects are absent.
    expect(session.browser.type).toMatch(/Chrom/);
  }, 30_000);
});
