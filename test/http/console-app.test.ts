/**
 * The console's single-page app as the server serves it (src/http/console-app.ts), from
 * dist/console (built by jest's globalSetup when stale): index.html for every client route under
 * a strict Content-Security-Policy and never cached, hashed assets cached for a year, the
 * contract's /console operations untouched, a 503 page when the build is missing, and a bundle
 * that names no other host to load anything from.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { CONSOLE_CSP, CONSOLE_DIST, makeConsoleAppRouter } from '../../src/http/console-app';
import { makeTestContext, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(() => ctx.close());

const assets = () => fs.readdirSync(path.join(CONSOLE_DIST, 'assets'));

describe('the console’s pages', () => {
  test.each(['/console', '/console/', '/console/search?tab=sessions', '/console/accounts/user-1', '/console/login'])(
    'when %s is requested, then index.html under the strict CSP, not cached',
    async (url) => {
      const res = await request(ctx.app).get(url);
      expect(res.status).toBe(200);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('<div id="root"></div>');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self';/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  test('when GET /console/me is requested without a session, then the contract’s 401, not the page', async () => {
    const res = await request(ctx.app).get('/console/me');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ statusCode: 401 });
  });

  test('when POST /console/login is sent, then the contract’s operation answers (a wrong password is 401)', async () => {
    const res = await request(ctx.app)
      .post('/console/login')
      .send({ email: 'nobody@example.com', password: 'x'.repeat(12) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ statusCode: 401, message: 'Wrong email or password' });
  });
});

describe('the console’s assets', () => {
  test('when a hashed asset is requested, then it is cached for a year (immutable), under the CSP', async () => {
    const html = (await request(ctx.app).get('/console')).text;
    const referenced = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(referenced.length).toBeGreaterThanOrEqual(2);
    for (const url of referenced) {
      const res = await request(ctx.app).get(url);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
    }
  });

  test('when an asset does not exist, then 404 (not index.html)', async () => {
    const res = await request(ctx.app).get('/console/assets/nothing-here.js');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<div id="root">');
  });

  test('when the bundle is read, then it loads nothing from another host: no absolute URL in index.html, none in CSS url(), no font file', () => {
    const html = fs.readFileSync(path.join(CONSOLE_DIST, 'index.html'), 'utf8');
    expect(html.match(/(?:src|href)="[^"]+"/g)?.filter((a) => !/="\/(console\/assets\/|favicon\.ico)/.test(a))).toEqual(
      [],
    );
    for (const file of assets().filter((f) => f.endsWith('.css'))) {
      const css = fs.readFileSync(path.join(CONSOLE_DIST, 'assets', file), 'utf8');
      expect(css.match(/url\(\s*['"]?(https?:)?\/\//g)).toBeNull();
      expect(css).not.toMatch(/@import/);
    }
    expect(assets().filter((f) => /\.(woff2?|ttf|otf|eot)$/.test(f))).toEqual([]);
  });
});

test('when the bundle is read, then it holds React’s production build (minified errors), even when built under jest', () => {
  const js = assets().filter((f) => f.endsWith('.js'));
  expect(js.length).toBeGreaterThan(0);
  expect(
    js.some((f) => fs.readFileSync(path.join(CONSOLE_DIST, 'assets', f), 'utf8').includes('react.dev/errors/')),
  ).toBe(true);
});

describe('without a build', () => {
  test('when dist/console is missing, then the console is a 503 page saying to run the build, and the rest of the app is unaffected', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-console-'));
    try {
      const app = express().use(makeConsoleAppRouter(path.join(empty, 'console')));
      app.get('/healthz', (_req, res) => res.json({ ok: true }));
      const res = await request(app).get('/console/search');
      expect(res.status).toBe(503);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('npm run build');
      expect(res.headers['content-security-policy']).toBe(CONSOLE_CSP);
      expect((await request(app).get('/console/assets/index.js')).status).toBe(404);
      expect((await request(app).get('/healthz')).status).toBe(200);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
