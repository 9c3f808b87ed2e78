/** The /demo page's routes (its browser behaviour is tested in test/e2e/web-sdk.test.ts). */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';

describe('GET /demo', () => {
  let ctx: TestContext;
  afterEach(() => ctx.close());

  test('when the demo is on, then the page carries the SDK for the demo project, not a customer project', async () => {
    ctx = await makeTestContext({ demo: true });
    const response = await request(ctx.app).get('/demo');
    expect(response.status).toBe(200);
    const demo = await ctx.services.projects.ensureDemo();
    expect(demo.demo).toBe(true);
    expect(response.text).toContain(`<script src="/sdk.js" data-project-id="${demo.id}"></script>`);
    expect(response.text).not.toContain(ctx.project.project_id);
    // The demo project is not a customer project: a fresh install still gets its default project.
    expect((await ctx.services.projects.list()).find((p) => p.project_id === demo.id)?.demo).toBe(true);
  });

  test("when the demo's form holds U+0000 or a lone surrogate, then 400 naming the field (the same on both engines)", async () => {
    ctx = await makeTestContext({ demo: true });
    for (const [field, value] of [
      ['email', 'ada\u0000@example.com'],
      ['name', 'Ada \ud800'],
    ] as const) {
      const res = await request(ctx.app)
        .post('/demo/session')
        .send({ session_id: randomUUID(), [field]: value });
      expect(res.body).toEqual({
        statusCode: 400,
        message: `${field} must not contain U+0000 (NUL) or an unpaired surrogate`,
      });
    }
  });

  test('when the demo is off (production default), then /demo does not exist', async () => {
    ctx = await makeTestContext({ demo: false });
    const page = await request(ctx.app).get('/demo');
    expect(page.status).toBe(404);
    expect(page.body).toEqual({ statusCode: 404, message: expect.any(String) });
    expect((await request(ctx.app).post('/demo/session').send({ session_id: ctx.project.project_id })).status).toBe(
      404,
    );
  });
});
