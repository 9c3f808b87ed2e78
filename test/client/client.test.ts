/** The typed client against a real server listening on loopback. */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import http, { type Server } from 'node:http';
import { createTrustgateClient } from '../../packages/client/src';
import { makeTestContext, type TestContext } from '../helpers/app';
import { scenario } from '../helpers/evaluation';
import { storeSession } from '../helpers/sessions';

let ctx: TestContext;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  ctx = await makeTestContext();
  server = await new Promise<Server>((resolve) => {
    const s = ctx.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await ctx.close();
});

describe('createTrustgateClient', () => {
  it('when a stored session is fetched, then data is the typed top-level session', async () => {
    const { id, facts } = await storeSession(ctx.services, ctx.project.project_id);
    const client = createTrustgateClient({ baseUrl, apiKey: ctx.project.api_key });
    const { data, error, response } = await client.GET('/session/{session_id}', {
      params: { path: { session_id: id } },
    });
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expect(data?.session_id).toBe(id);
    expect(data?.device_id).toBe(facts.device_id);
  });

  it('when the session is unknown, then error is the typed error body', async () => {
    const client = createTrustgateClient({ baseUrl, apiKey: ctx.project.api_key });
    const { data, error } = await client.POST('/session/unauthenticated', { body: { session_id: randomUUID() } });
    expect(data).toBeUndefined();
    expect(error).toEqual({ statusCode: 400, message: 'Session ID not found' });
  });

  it('when a team drives a case from its own tools, then opening, noting and closing it are typed calls', async () => {
    const client = createTrustgateClient({ baseUrl, apiKey: ctx.project.api_key });
    await scenario(ctx).signIn({ id: 'client-case' });
    const opened = await client.POST('/cases', { body: { account_ids: ['client-case'], reason: 'Chargeback' } });
    expect(opened.response.status).toBe(201);
    const case_id = opened.data!.case_id;
    const note = await client.POST('/cases/{case_id}/notes', {
      params: { path: { case_id } },
      body: { text: 'Order 1042' },
    });
    expect(note.data?.text).toBe('Order 1042');
    const closed = await client.POST('/cases/{case_id}/close', {
      params: { path: { case_id } },
      body: { outcome: 'fraud', list: 'block' },
    });
    expect(closed.data).toMatchObject({ status: 'closed', outcome: 'fraud', list: 'block' });
    const queue = await client.GET('/cases', { params: { query: { status: 'closed', account_id: 'client-case' } } });
    expect(queue.data?.cases.map((c) => c.case_id)).toEqual([case_id]);
  });

  it('when the API key is wrong, then error is the 401 body', async () => {
    const client = createTrustgateClient({ baseUrl: baseUrl + '/', apiKey: 'tg_wrong' });
    const { error, response } = await client.GET('/session/{session_id}', {
      params: { path: { session_id: randomUUID() } },
    });
    expect(response.status).toBe(401);
    expect(error).toEqual({ statusCode: 401, message: 'Invalid x-api-key' });
  });

  it('when no API key is given, then the client refuses to be made', () => {
    expect(() => createTrustgateClient({ baseUrl, apiKey: '' })).toThrow(/apiKey/);
  });

  it('when timeoutMs is not a number above 0, then the client refuses to be made', () => {
    for (const timeoutMs of [0, -1, Number.NaN]) {
      expect(() => createTrustgateClient({ baseUrl, apiKey: 'tg_key', timeoutMs })).toThrow(/timeoutMs/);
    }
  });
});

describe('createTrustgateClient when Trustgate is slow or down', () => {
  /** A server that accepts requests and never answers them. */
  async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      close: () =>
        new Promise((resolve) => {
          silent.closeAllConnections();
          silent.close(() => resolve());
        }),
    };
  }

  it('when no answer comes within timeoutMs, then the call rejects with a TimeoutError', async () => {
    const silent = await silentServer();
    try {
      const client = createTrustgateClient({ baseUrl: silent.url, apiKey: 'tg_key', timeoutMs: 200 });
      const call = client.GET('/session/{session_id}', { params: { path: { session_id: randomUUID() } } });
      await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    } finally {
      await silent.close();
    }
  });

  it("when the call's own signal aborts before the timeout, then the call rejects with that abort", async () => {
    const silent = await silentServer();
    try {
      const client = createTrustgateClient({ baseUrl: silent.url, apiKey: 'tg_key', timeoutMs: 60_000 });
      const controller = new AbortController();
      const call = client.GET('/session/{session_id}', {
        params: { path: { session_id: randomUUID() } },
        signal: controller.signal,
      });
      controller.abort(new Error('the user left'));
      await expect(call).rejects.toThrow('the user left');
    } finally {
      await silent.close();
    }
  });

  it('when nothing listens at baseUrl, then the call rejects (fetch failed) instead of answering', async () => {
    const silent = await silentServer();
    const { url } = silent;
    await silent.close();
    const client = createTrustgateClient({ baseUrl: url, apiKey: 'tg_key' });
    // (A TypeError of Node's realm, not Jest's: compared by name.)
    await expect(client.GET('/healthz')).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });
});
