/** Contract tests of verify-face and verify-id (the verification sessions themselves come with their own issue). */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';
import { storeSession } from '../helpers/sessions';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(() => ctx.close());

describe.each(['/liveness/verify-face', '/liveness/verify-id'])('POST %s', (route) => {
  it('when the verification session is unknown, then 400 "Session ID not found"', async () => {
    const res = await request(ctx.app)
      .post(route)
      .set('x-api-key', ctx.project.api_key)
      .send({ session_id: randomUUID() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      message: 'Session ID not found',
      success: false,
      error: 'session_not_found',
    });
  });

  it('when the id is an SDK session, not a verification session, then it is not found either', async () => {
    const { id } = await storeSession(ctx.services, ctx.project.project_id);
    const res = await request(ctx.app).post(route).set('x-api-key', ctx.project.api_key).send({ session_id: id });
    expect(res.body).toMatchObject({
      statusCode: 400,
      message: 'Session ID not found',
      success: false,
      error: 'session_not_found',
    });
  });

  it('when session_id is not a UUID, then 400 naming it', async () => {
    const res = await request(ctx.app).post(route).set('x-api-key', ctx.project.api_key).send({ session_id: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^session_id must match/);
  });

  it('when the key is missing, then 401', async () => {
    const res = await request(ctx.app).post(route).send({ session_id: randomUUID() });
    expect(res.status).toBe(401);
    expect(res.body.statusCode).toBe(401);
  });
});
