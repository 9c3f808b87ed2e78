/**
 * docs/web-sdk.md's two ways onto a page, each run as written in Debian's Chromium on a customer's
 * sign-up page (its own origin) that has what the blocks name: a `form` and a `logoutButton`
 * (elements with those ids, which a page's scripts reach by name). The script tag is the page's
 * markup with Trustgate's address and the project's id filled in; the npm package's block is
 * bundled with esbuild, as a reader's bundler would, with `@trustgate/web` the package's sources.
 * What the blocks do is seen from both sides: submitting the form stays on the page (the handler
 * prevents the submit and asks for the session, whose post Trustgate stores), and the logout
 * button starts a new session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type http from 'node:http';
import type { Browser } from 'playwright-core';
import { PACKAGE_ROOT } from '../../src/spec';
import type { TestContext } from '../helpers/app';
import { sdkStack, type Listening, type SdkStack } from '../helpers/browser';
import { until } from '../helpers/processes';
import { readmeExamples, substitute } from '../readme/examples';

const DOC = 'docs/web-sdk.md';
const examples = readmeExamples(fs.readFileSync(path.join(PACKAGE_ROOT, DOC), 'utf8'), DOC);

function example(name: string, lang: string): string {
  const found = examples.get(name);
  if (!found) throw new Error(`${DOC} has no example marked <!-- example: ${name} -->`);
  expect(found.lang).toBe(lang);
  return found.code;
}

let stack: SdkStack;
let ctx: TestContext;
let trustgate: Listening;
let customer: Listening;
let browser: Browser;
/** The customer's page: its markup around the block, and the bundle the npm package's block makes. */
const page = { body: '', script: '' };

const site = (): http.RequestListener => (req, res) => {
  if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(page.script);
  if (req.url !== '/') return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>Sign up</title></head><body>
<form id="form"><input name="email"><button id="signUp">Sign up</button></form>
<button id="logoutButton">Log out</button>
${page.body}
</body></html>`);
};

beforeAll(async () => {
  stack = await sdkStack(site);
  ({ ctx, trustgate, customer, browser } = stack);
}, 60_000);
afterAll(() => stack?.close());

/** The ids of the project's stored sessions. */
const sessions = async () =>
  (await ctx.testDb.db('sessions').where({ project_id: ctx.project.project_id }).select('id')).map(
    (r: { id: string }) => r.id,
  );

/** Signs up on the page, then logs out: the session the form made and the one after logging out. */
async function signUpThenLogOut() {
  const before = new Set(await sessions());
  const tab = await browser.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  await tab.goto(`${customer.origin}/`);
  await tab.click('input[name=email]');
  await tab.keyboard.type('ana.lima@gmail.com', { delay: 5 });
  await tab.click('#signUp');
  const made = async () => (await sessions()).filter((id) => !before.has(id));
  await until(async () => (await made()).length >= 1, 'the session of the sign-up');
  const [first] = await made();
  await tab.click('#logoutButton');
  await until(async () => (await made()).length >= 2, 'a new session after logging out');
  // The submit handler kept the form from leaving the page (a submitted form would load /?email=…).
  expect(tab.url()).toBe(`${customer.origin}/`);
  expect(errors).toEqual([]);
  await tab.close();
  return { first: first!, all: await made() };
}

test("the script tag: when a person signs up and logs out, then the form's submit made a session and the logout a new one", async () => {
  page.body = substitute(example('script-tag', 'html'), {
    'https://TRUSTGATE_HOST': trustgate.origin,
    PROJECT_ID: ctx.project.project_id,
  });
  const { first, all } = await signUpThenLogOut();
  expect(all).toHaveLength(2);
  expect(all.filter((id) => id !== first)).toHaveLength(1);
});

test('the npm package: when bundled as written and a person signs up and logs out, then the same', async () => {
  const source = substitute(example('npm-package', 'ts'), {
    'https://TRUSTGATE_HOST': trustgate.origin,
    PROJECT_ID: ctx.project.project_id,
  });
  const bundled = await build({
    stdin: { contents: source, loader: 'ts', resolveDir: PACKAGE_ROOT, sourcefile: 'page.ts' },
    bundle: true,
    format: 'esm',
    write: false,
    alias: { '@trustgate/web': path.join(PACKAGE_ROOT, 'packages', 'web', 'src', 'index.ts') },
    logLevel: 'silent',
  });
  page.script = bundled.outputFiles[0]!.text;
  page.body = '<script type="module" src="/app.js"></script>';
  const { first, all } = await signUpThenLogOut();
  expect(all).toHaveLength(2);
  expect(all.filter((id) => id !== first)).toHaveLength(1);
});
