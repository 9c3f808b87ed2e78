/** The landing page at / and the site icon, through the real app. */
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';
import { PACKAGE_ROOT } from '../../src/spec';
import fs from 'node:fs';
import path from 'node:path';

const { version } = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
const links = (html: string) => [...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!); // a required group
const ICON = /<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,%3Csvg[^"]+">/;

describe('GET /', () => {
  let ctx: TestContext;
  afterEach(() => ctx?.close());

  it('when the demo is on, then an HTML page with the name, the version and links to the demo, the console, the reference and the health check, each of which answers', async () => {
    ctx = await makeTestContext({ demo: true });
    const res = await request(ctx.app).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<h1>Trustgate</h1>');
    expect(res.text).toContain(`Version ${version}.`);
    expect(res.text).toMatch(ICON);
    expect(links(res.text)).toEqual(['/demo', '/console', '/docs', '/openapi.json', '/healthz']);
    expect(res.text).toContain('npx trustgate user add --project PROJECT_ID');
    for (const link of links(res.text)) expect([link, (await request(ctx.app).get(link)).status]).toEqual([link, 200]);
  });

  it('when the demo is off, then the page does not link to it', async () => {
    ctx = await makeTestContext({ demo: false });
    const res = await request(ctx.app).get('/');
    expect(res.status).toBe(200);
    expect(links(res.text)).toEqual(['/console', '/docs', '/openapi.json', '/healthz']);
    expect((await request(ctx.app).get('/demo')).status).toBe(404);
  });
});

describe('the icon', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext({ demo: true });
  });
  afterAll(() => ctx.close());

  it('when /favicon.ico is asked for, then an SVG image, not a 404', async () => {
    const res = await request(ctx.app).get('/favicon.ico').buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(res.body)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/);
  });

  it('when the landing page, the reference or the demo is opened, then it carries the icon inline, so the browser asks for no /favicon.ico', async () => {
    for (const page of ['/', '/docs', '/demo']) {
      const res = await request(ctx.app).get(page);
      expect([page, res.status, ICON.test(res.text)]).toEqual([page, 200, true]);
    }
  });
});

describe('GET /docs', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await makeTestContext();
  });
  afterAll(() => ctx.close());

  it('when the reference is opened, then each script and style sheet it names is served from this server', async () => {
    const page = await request(ctx.app).get('/docs');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/docs\/[^"]+)"/g)].map((m) => m[1]!); // a required group
    expect(assets).toEqual(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/init.js']);
    for (const asset of assets) {
      const res = await request(ctx.app).get(asset);
      expect([asset, res.status, res.headers['content-type']]).toEqual([
        asset,
        200,
        asset.endsWith('.css')
          ? expect.stringMatching(/^text\/css/)
          : expect.stringMatching(/^(text|application)\/javascript/),
      ]);
    }
    expect((await request(ctx.app).get('/docs/assets/swagger-ui-bundle.js')).text).toContain('SwaggerUIBundle');
  });
});
