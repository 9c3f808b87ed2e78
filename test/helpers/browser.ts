/**
 * A real browser for end-to-end tests: Debian's Chromium driven by playwright-core, and the
 * servers it talks to (Trustgate itself and a customer's page on another origin), listening
 * on loopback ports.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { chromium, type Browser } from 'playwright-core';
import type { Trustgate } from '../../packages/web/src/trustgate';
import { buildSdk } from '../../scripts/build-sdk';
import { makeTestContext, type TestContext } from './app';

declare global {
  interface Window {
    /** What the SDK's script tag exposes (page.evaluate callbacks run in the page). */
    Trustgate?: Trustgate;
  }
}

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Chromium headless with the suite's flags; `extraArgs` adds some (a fake camera: `--use-fake-device-for-media-stream`). */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}: run \`apt-get install chromium\` (.ci/run does this when it is absent)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** The suite's Chromium flags: no sandbox (containers), no GPU, nothing fetched on its own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface Listening {
  origin: string;
  close(): Promise<void>;
}

export function listen(handler: Express | http.RequestListener): Promise<Listening> {
  return new Promise((resolve) => {
    const server = http.createServer(handler as http.RequestListener);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A customer's sign-up page on its own origin, with the SDK's script tag pointing at Trustgate. */
export function customerPage(trustgateOrigin: string, projectId: string): http.RequestListener {
  return (req, res) => {
    if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html>
<html><head><meta charset="utf-8"><title>Customer sign-up</title>
<script src="${trustgateOrigin}/sdk.js" data-project-id="${projectId}"></script>
</head><body>
<form><input id="email" name="email" type="email"><button id="go" type="button">Sign up</button></form>
<p id="own">the page's own script ran</p>
<script>document.getElementById('go').addEventListener('click', function () { document.getElementById('own').textContent = 'clicked'; });</script>
</body></html>`);
  };
}

export interface SdkStack {
  ctx: TestContext;
  trustgate: Listening;
  customer: Listening;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Trustgate (a test context, the SDK bundle built) on a loopback port, a customer's site (by
 * default `customerPage`, a page with the script tag), and Chromium.
 */
export async function sdkStack(
  site: (trustgateOrigin: string, projectId: string) => http.RequestListener = customerPage,
): Promise<SdkStack> {
  await buildSdk();
  const ctx = await makeTestContext();
  const trustgate = await listen(ctx.app);
  const customer = await listen(site(trustgate.origin, ctx.project.project_id));
  const browser = await launchChromium();
  return {
    ctx,
    trustgate,
    customer,
    browser,
    async close() {
      await browser.close();
      await customer.close();
      await trustgate.close();
      await ctx.close();
    },
  };
}
