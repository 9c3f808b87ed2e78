/**
 * One compiled contract validator serving several apps (src/http/validator.ts), as it does every
 * test file's app in a Jest worker: each app authenticates with its own security handlers, and
 * validates responses or not by its own configuration, whichever app compiled the validator.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../src/app';
import { makeContractValidator } from '../../src/http/validator';
import { makeTestContext, type TestContext } from '../helpers/app';

let ctx: TestContext;
let other: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
  other = await makeTestContext();
});
afterAll(async () => {
  await ctx?.close();
  await other?.close();
});

describe('makeContractValidator', () => {
  it('when two apps on two databases share one validator, then each accepts its own project’s key and refuses the other’s', async () => {
    expect(other.contract).toBe(ctx.contract);
    for (const [app, own, foreign] of [
      [ctx.app, ctx.project, other.project],
      [other.app, other.project, ctx.project],
    ] as const) {
      const mine = await request(app).get('/project').set('x-api-key', own.api_key);
      expect(mine.status).toBe(200);
      expect(mine.body.project_id).toBe(own.project_id);
      const theirs = await request(app).get('/project').set('x-api-key', foreign.api_key);
      expect(theirs.status).toBe(401);
      expect(theirs.body).toEqual({ statusCode: 401, message: 'Invalid x-api-key' });
    }
  });

  it('when apps with and without response validation share one validator, then only those that validate refuse an answer the spec does not allow', async () => {
    const contract = makeContractValidator();
    // A receipt the spec does not allow: GET /evaluation/{request_id} answers it as it comes.
    const services = {
      ...ctx.services,
      evaluation: { ...ctx.services.evaluation, receipt: async () => ({ not_a_receipt: true }) },
    } as unknown as typeof ctx.services;
    const receipt = (validateResponses: boolean) =>
      request(createApp({ config: { ...ctx.config, validateResponses }, services, contract }))
        .get(`/evaluation/${randomUUID()}`)
        .set('x-api-key', ctx.project.api_key);
    // Validating first, then not, then validating again: each app gets what its own options compile.
    expect((await receipt(true)).status).toBe(500);
    const unchecked = await receipt(false);
    expect(unchecked.status).toBe(200);
    expect(unchecked.body).toEqual({ not_a_receipt: true });
    expect((await receipt(true)).status).toBe(500);
  });
});
