/**
 * What Node's HTTP server answers itself, before the app: a head larger than it reads (431),
 * a request that is not well-formed HTTP (400), one that does not arrive in time (408). Through
 * the server main.ts runs (createHttpServer) on a real port, with the real app and database:
 * each answer has the error body, and its status is one the spec declares for the operation.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '../../src/http/server';
import { makeTestContext, type TestContext } from '../helpers/app';
import { declaredStatuses } from '../helpers/spec';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext();
});
afterAll(() => ctx.close());

async function listening(
  options: Parameters<typeof createHttpServer>[1] = {},
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createHttpServer(ctx.app, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sends raw bytes (optionally more later) and reads everything the server sends until it closes. */
function raw(port: number, head: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [headers = '', body = ''] = data.split('\r\n\r\n'); // a split has at least one piece
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]), headers, body });
    });
  });
}

function get(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; contentType?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, contentType: res.headers['content-type'], body }));
    });
    req.on('error', reject);
  });
}

describe('answers of the HTTP server itself', () => {
  it('when the request head is over 16 KB, then 431 with the error body, declared for the operation', async () => {
    const server = await listening();
    try {
      for (const path of ['/healthz', `/account/someone`]) {
        const res = await get(server.port, path, { 'x-api-key': ctx.project.api_key, 'x-filler': 'a'.repeat(20_000) });
        expect(res.status).toBe(431);
        expect(res.contentType).toMatch(/^application\/json/);
        expect(JSON.parse(res.body)).toEqual({
          statusCode: 431,
          message: 'The request line and headers are larger than 16384 bytes',
        });
      }
      expect(await declaredStatuses('get', '/healthz')).toContain(431);
      expect(await declaredStatuses('get', '/account/{account_id}')).toContain(431);
      // A head under the limit on the same server is served.
      expect((await get(server.port, '/healthz', { 'x-filler': 'a'.repeat(10_000) })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('when the request is not well-formed HTTP, then 400 with the error body', async () => {
    const server = await listening();
    try {
      for (const head of [
        'GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n',
        'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      ]) {
        const res = await raw(server.port, head);
        expect(res.status).toBe(400);
        expect(res.headers).toMatch(/content-type: application\/json/i);
        expect(res.headers).toMatch(/^x-request-id: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/im);
        expect(JSON.parse(res.body)).toEqual({ statusCode: 400, message: 'The request is not well-formed HTTP' });
      }
    } finally {
      await server.close();
    }
  });

  it('when the request head does not arrive in time, then 408 with the error body, declared for the operation', async () => {
    const server = await listening({
      server: { headersTimeout: 300, requestTimeout: 300, connectionsCheckingInterval: 50 },
    });
    try {
      const res = await raw(server.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n');
      expect(res.status).toBe(408);
      expect(JSON.parse(res.body)).toEqual({ statusCode: 408, message: 'The request did not arrive in time' });
      expect(await declaredStatuses('get', '/healthz')).toContain(408);
    } finally {
      await server.close();
    }
  });
});

describe("requests and responses made with the app's prototypes", () => {
  it("when a request arrives, then Node makes it and its response with the app's own prototypes, which Express then leaves as they are", async () => {
    const server = createHttpServer(ctx.app);
    type Seen = { request: object | null; response: object | null; node: boolean };
    const made: Seen[] = [];
    const answered: Seen[] = [];
    const seen = (req: http.IncomingMessage, res: http.ServerResponse): Seen => ({
      request: Object.getPrototypeOf(req) as object | null,
      response: Object.getPrototypeOf(res) as object | null,
      node: req instanceof http.IncomingMessage && res instanceof http.ServerResponse,
    });
    // Before the app (what Node made, as Express receives it) and once the app has answered.
    server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      made.push(seen(req, res));
      res.on('finish', () => answered.push(seen(req, res)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const answers = [
        await get(port, '/healthz', {}),
        await get(port, `/session/${randomUUID()}`, { 'x-api-key': ctx.project.api_key }),
      ];
      // An unknown session is a 400, as the bench's bare route.
      expect(answers.map((a) => a.status)).toEqual([200, 400]);
      const expected = { request: ctx.app.request, response: ctx.app.response, node: true };
      expect(made).toEqual([expected, expected]);
      expect(answered).toEqual([expected, expected]);
      for (const m of [...made, ...answered]) {
        expect(m.request).toBe(ctx.app.request);
        expect(m.response).toBe(ctx.app.response);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
