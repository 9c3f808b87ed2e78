/**
 * The request validator's route lookup compiles each route's matcher once, not on every request
 * (patches/express-openapi-validator+5.6.2.patch, applied by `npm install`'s postinstall; upstream:
 * cdimascio/express-openapi-validator#1217). Unpatched, every request compiled the matcher of each
 * route it scanned (about 20 before the Session API's, which sort last): a fifth of what an
 * authenticate allocated on the request thread. And the pages' routers (home, docs, SDK file,
 * console bundle) answer GET and HEAD only: the API's other requests do not walk them.
 */
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';

// The path-to-regexp the validator requires (the same module object its compiled code reads
// `pathToRegexp` from at each call).
const pathToRegexpModule: { pathToRegexp: (...args: unknown[]) => unknown } = require(
  require.resolve('path-to-regexp', { paths: [require.resolve('express-openapi-validator')] }),
);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(() => ctx.close());

test('when the same routes are requested again, then no route matcher is compiled again', async () => {
  const unknownSession = () =>
    request(ctx.app)
      .post('/session/unauthenticated')
      .set('x-api-key', ctx.project.api_key)
      .send({ session_id: '7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d' });
  // A route with a path parameter, matched and handled (the handler's answer for an unknown account).
  const account = async () => {
    const res = await request(ctx.app).get('/account/nobody').set('x-api-key', ctx.project.api_key);
    expect(res.body).toEqual({ statusCode: 400, message: 'Account not found' });
    return res;
  };
  // The first requests compile the matchers of the routes the lookup scans.
  expect((await unknownSession()).status).toBe(400);
  expect((await account()).status).toBe(400);

  const compile = jest.spyOn(pathToRegexpModule, 'pathToRegexp');
  try {
    for (let i = 0; i < 3; i++) {
      expect((await unknownSession()).status).toBe(400);
      expect((await account()).status).toBe(400);
    }
    expect(compile).not.toHaveBeenCalled();
  } finally {
    compile.mockRestore();
  }
});

test('when a page is asked for with GET or HEAD, then it answers; with another method, the API answers its 404 without entering the pages', async () => {
  for (const page of ['/', '/docs', '/openapi.json', '/sdk.js', '/console']) {
    expect([page, (await request(ctx.app).get(page)).status]).toEqual([page, 200]);
    expect([page, (await request(ctx.app).head(page)).status]).toEqual([page, 200]);
  }
  // The console's bundle used to answer a POST under its assets with its own text 404.
  for (const path of ['/docs', '/console/assets/index.js', '/sdk.js']) {
    const res = await request(ctx.app).post(path).set('content-type', 'application/json').send('{}');
    expect([path, res.status, res.body]).toEqual([
      path,
      404,
      { statusCode: 404, message: expect.stringContaining(path) },
    ]);
  }
});
