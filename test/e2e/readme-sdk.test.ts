/**
 * The README's script tag (`<!-- example: sdk-tag -->`) as a customer puts it on a sign-up page:
 * Debian's Chromium loads the page from the customer's origin with the SDK from Trustgate's, a
 * person types an email and presses the button, the form posts the session's id to the
 * customer's backend with the rest, and that backend authenticates it through the Session API.
 */
import type http from 'node:http';
import request from 'supertest';
import type { AuthenticateResponse } from '../../src/api-types';
import { sdkStack, type SdkStack } from '../helpers/browser';
import { readmeExamples, substitute } from '../readme/examples';

let stack: SdkStack;
/** What the customer's backend received from the form. */
const posted: URLSearchParams[] = [];

/** The customer's site: the README's block on its page, and the backend the form posts to. */
const site = (trustgateOrigin: string, projectId: string): http.RequestListener => {
  const tag = substitute(readmeExamples().get('sdk-tag')!.code, {
    'http://127.0.0.1:3000': trustgateOrigin,
    PROJECT_ID: projectId,
  });
  return (req, res) => {
    if (req.method === 'POST' && req.url === '/sign-up') {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        posted.push(new URLSearchParams(body));
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="welcome">Welcome</p>');
      });
      return;
    }
    if (req.url !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>Sign up</title></head><body>\n${tag}\n</body></html>`,
    );
  };
};

beforeAll(async () => {
  stack = await sdkStack(site);
}, 60_000);
afterAll(() => stack?.close());

test("when a person signs up on the README's page, then the backend gets a session id it can authenticate", async () => {
  const page = await stack.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${stack.customer.origin}/`);
  for (let i = 0; i < 10; i++) await page.mouse.move(30 + i * 20, 40 + (i % 3) * 15, { steps: 3 });
  await page.click('input[name=email]');
  await page.keyboard.type('ana.lima@gmail.com', { delay: 5 });
  await page.click('button');
  await page.locator('#welcome').waitFor({ timeout: 10_000 });
  expect(errors).toEqual([]);

  expect(posted).toHaveLength(1);
  const sessionId = posted[0]!.get('session_id');
  expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(posted[0]!.get('email')).toBe('ana.lima@gmail.com');

  const res = await request(stack.ctx.app)
    .post('/session/authenticate')
    .set('x-api-key', stack.ctx.project.api_key)
    .send({ session_id: sessionId, account: { id: 'user-42', email: posted[0]!.get('email') } });
  expect(res.status).toBe(200);
  const body = res.body as AuthenticateResponse;
  expect(body.session_id).toBe(sessionId);
  expect(body.session.source).toBe('web');
  expect(['Real', 'Fake']).toContain(body.decision);
  await page.close();
});
