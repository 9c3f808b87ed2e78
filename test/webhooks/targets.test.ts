/**
 * Where a webhook may be sent: every spelling of a loopback, private, link-local or metadata
 * target is refused without a request, through the real dispatcher, transport, database and a
 * real receiver on loopback, which must receive nothing. Names are resolved by an injected
 * resolver (a name's answer is the test's to choose, including one that changes between calls,
 * as a rebinding DNS server's does); the test setup refuses any connection outside loopback.
 */
import { randomUUID } from 'node:crypto';
import { fixedClock } from '../../src/clock';
import { makeLogger } from '../../src/logger';
import type { RetryPolicy } from '../../src/webhooks/backoff';
import { makeDispatcher } from '../../src/webhooks/dispatcher';
import { makeOutbox } from '../../src/webhooks/outbox';
import { makeWebhookTransport, type Resolve } from '../../src/webhooks/transport';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { at } from '../helpers/defined';
import { webhookReceiver, type Receiver } from '../helpers/receiver';

const POLICY: RetryPolicy = {
  delaysMs: [1000],
  repeatMs: 1000,
  maxRetries: 5,
  maxAgeMs: 60_000,
  jitter: 0,
  retryAfterCapMs: 10_000,
};
const PUBLIC = '93.184.216.34';

let ctx: TestContext;
let rx: Receiver;
let port: number;
beforeAll(async () => {
  ctx = await makeTestContext();
  rx = await webhookReceiver();
  port = Number(new URL(rx.url).port);
});
afterAll(async () => {
  await rx.close();
  await ctx.close();
});

/** A resolver with fixed answers per name, counting its calls; unknown names are not found. */
function resolver(answers: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const resolve: Resolve = async (host) => {
    calls.push(host);
    const answer = answers[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return (typeof answer === 'function' ? answer() : answer).map((address) => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
  };
  return { resolve, calls };
}

/** Queues one webhook for `url` and runs a dispatcher over it; the row and its attempts. */
async function attempt(url: string, options: { allowPrivate?: boolean; resolve?: Resolve; attempts?: number } = {}) {
  const clock = fixedClock(TEST_NOW);
  const outbox = makeOutbox(ctx.testDb.db, ctx.deps.secretBox);
  const requestId = randomUUID();
  await outbox.enqueue({
    requestId,
    projectId: ctx.project.project_id,
    sessionId: randomUUID(),
    eventType: 'verification.face-match.completed',
    body: '{}',
    now: clock.now(),
  });
  const transport = makeWebhookTransport({
    allowPrivate: options.allowPrivate ?? false,
    resolve: options.resolve ?? resolver({}).resolve,
  });
  const dispatcher = makeDispatcher({
    outbox,
    clock,
    random: () => 0.5,
    logger: makeLogger('silent'),
    post: transport.post,
    target: async () => ({ url, secret: 'whsec_x' }),
    policy: POLICY,
    timeoutMs: 2000,
  });
  try {
    for (let i = 0; i < (options.attempts ?? 1); i++) {
      await dispatcher.runOnce();
      clock.advance(1000);
    }
  } finally {
    transport.close();
  }
  // Only this test's request ids reach the receiver's log; none may.
  const received = rx.received.filter((r) => r.headers['x-event-id'] === requestId);
  const result = { row: (await outbox.find(requestId))!, attempts: await outbox.attempts(requestId), received };
  // A webhook left pending would be claimed by the next test's dispatcher.
  await ctx.testDb.db('webhooks').where({ request_id: requestId }).del();
  return result;
}

describe('refused targets', () => {
  const refusedSpellings: [string, (port: number) => string][] = [
    ['loopback', (p) => `http://127.0.0.1:${p}/hooks`],
    ['loopback in decimal', (p) => `http://2130706433:${p}/hooks`],
    ['loopback in octal', (p) => `http://0177.0.0.1:${p}/hooks`],
    ['loopback in hex', (p) => `http://0x7f.0.0.1:${p}/hooks`],
    ['loopback shortened', (p) => `http://127.1:${p}/hooks`],
    ['localhost', (p) => `http://localhost:${p}/hooks`],
    ['localhost with a trailing dot', (p) => `http://localhost.:${p}/hooks`],
    ['a name under .localhost', (p) => `http://hooks.localhost:${p}/hooks`],
    ['IPv6 loopback', (p) => `http://[::1]:${p}/hooks`],
    ['IPv4-compatible loopback (::/96)', (p) => `http://[::127.0.0.1]:${p}/hooks`],
    ['IPv4-mapped loopback', (p) => `http://[::ffff:127.0.0.1]:${p}/hooks`],
    ['6to4 of 127.0.0.1', (p) => `http://[2002:7f00:1::1]:${p}/hooks`],
    ['6to4 of 169.254.169.254', () => 'http://[2002:a9fe:a9fe::1]/latest/meta-data/'],
    ['Teredo, client 127.0.0.1', (p) => `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${p}/hooks`],
    ['NAT64 of 127.0.0.1', (p) => `http://[64:ff9b::7f00:1]:${p}/hooks`],
    ['NAT64 of 10.0.0.1', () => 'http://[64:ff9b::a00:1]/hooks'],
    ['local-use NAT64', () => 'http://[64:ff9b:1::a00:1]/hooks'],
    ['private', () => 'http://10.0.0.8/hooks'],
    ['unspecified', (p) => `http://0.0.0.0:${p}/hooks`],
    ['AWS, GCP and Azure metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['EC2 metadata over IPv6', () => 'http://[fd00:ec2::254]/latest/meta-data/'],
    ['GCP metadata name', () => 'http://metadata.google.internal/computeMetadata/v1/'],
    ['GCP metadata name with a trailing dot', () => 'http://metadata.google.internal./computeMetadata/v1/'],
  ];

  test.each(refusedSpellings)(
    'when the URL is %s, then the webhook fails at once, without a request or a look-up, and is not retried',
    async (_what, url) => {
      const dns = resolver({});
      const { row, attempts, received } = await attempt(url(port), { resolve: dns.resolve, attempts: 2 });
      expect(row.status).toBe('failed');
      expect(row.lastError).toMatch(/^refused: /);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]!.statusCode).toBeUndefined();
      expect(received).toEqual([]);
      expect(dns.calls).toEqual([]);
    },
  );

  test.each([
    ['a private address', ['10.0.0.8'], /resolves to 10\.0\.0\.8, which is a private/],
    ['loopback among public addresses', [PUBLIC, '127.0.0.1'], /resolves to 127\.0\.0\.1/],
    ['a 6to4 address of the metadata service', ['2002:a9fe:a9fe::1'], /resolves to 2002:a9fe:a9fe::1/],
    ['the metadata service', ['169.254.169.254'], /resolves to 169\.254\.169\.254, which is a cloud metadata service/],
  ])('when a name resolves to %s, then the webhook fails at once without a request', async (_what, answer, message) => {
    const dns = resolver({ 'hooks.example.com': answer });
    const { row, received } = await attempt(`http://hooks.example.com:${port}/hooks`, { resolve: dns.resolve });
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(message);
    expect(received).toEqual([]);
    expect(dns.calls).toEqual(['hooks.example.com']);
  });

  test('when WEBHOOK_ALLOW_PRIVATE is on, then metadata services are still refused, by address and by name', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
    ]) {
      const { row } = await attempt(url, { allowPrivate: true });
      expect([url, row.status, row.lastError]).toEqual([
        url,
        'failed',
        expect.stringMatching(/cloud metadata service/),
      ]);
    }
  });
});

describe('DNS rebinding', () => {
  test('when a name answers a public address first and loopback afterwards, then the connection goes where the checked answer said, and the next attempt is refused: the loopback receiver gets nothing', async () => {
    let calls = 0;
    const dns = resolver({ 'rebind.example.com': () => (++calls === 1 ? [PUBLIC] : ['127.0.0.1']) });
    const { row, attempts, received } = await attempt(`http://rebind.example.com:${port}/hooks`, {
      resolve: dns.resolve,
      attempts: 3,
    });
    expect(received).toEqual([]);
    // One look-up per attempt: the socket used the answer that was checked, never a second one.
    expect(dns.calls).toEqual(['rebind.example.com', 'rebind.example.com']);
    // The first attempt connected to the public address (which the test setup refuses to reach).
    expect(at(attempts, 0).error).toMatch(
      new RegExp(`test setup: connection to rebind\\.example\\.com \\(${PUBLIC.replace(/\./g, '\\.')}\\) refused`),
    );
    expect(at(attempts, 1).error).toMatch(/^refused: rebind\.example\.com resolves to 127\.0\.0\.1/);
    expect(row.status).toBe('failed');
  });
});

describe('allowed targets', () => {
  test('when WEBHOOK_ALLOW_PRIVATE is on and a name resolves to loopback, then the webhook is delivered to the address the look-up gave', async () => {
    const dns = resolver({ 'hooks.internal.test': ['127.0.0.1'] });
    const { row, received } = await attempt(`http://hooks.internal.test:${port}/hooks`, {
      allowPrivate: true,
      resolve: dns.resolve,
    });
    expect(row.status).toBe('delivered');
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.host).toBe(`hooks.internal.test:${port}`);
  });

  test('when a name resolves to public addresses only, then a connection is made to them (a network failure, retried: not a refusal)', async () => {
    const dns = resolver({ 'hooks.example.com': [PUBLIC] });
    const { row, attempts } = await attempt(`http://hooks.example.com:${port}/hooks`, { resolve: dns.resolve });
    expect(row.status).toBe('pending');
    expect(at(attempts, 0).error).toMatch(/test setup: connection to hooks\.example\.com/);
  });
});
