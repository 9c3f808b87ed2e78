/** num_account_from_domain is a kept count: it follows creations, address changes and erasures. */
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';
import { scenario } from '../helpers/evaluation';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(() => ctx.close());

test('when accounts at a domain come, change address and are erased, then num_account_from_domain follows', async () => {
  const s = scenario(ctx);
  const put = (id: string, email: string) =>
    request(ctx.app).put(`/account/${id}`).set('x-api-key', ctx.project.api_key).send({ id, email });
  for (const id of ['d-1', 'd-2', 'd-3']) await s.signIn({ id, email: `${id}@acme-widgets.co.uk` });
  const count = async () =>
    (await s.signIn({ id: 'd-me', email: 'me@acme-widgets.co.uk' })).account.email!.num_account_from_domain;
  expect(await count()).toBe(3);
  expect((await put('d-1', 'd-1@elsewhere-widgets.co.uk')).status).toBe(200);
  expect(await count()).toBe(2);
  expect((await request(ctx.app).delete('/account/d-2').set('x-api-key', ctx.project.api_key)).status).toBe(200);
  expect(await count()).toBe(1);
  expect((await put('d-1', 'D-1@ACME-WIDGETS.CO.UK')).status).toBe(200);
  expect(await count()).toBe(2);
});
