/** The verification flow through HTTP, as the customer's backend and the hosted page drive it, with a loopback receiver. */
import request from 'supertest';
import type { IngestSession } from '../../src/api-types';
import { makeLogger } from '../../src/logger';
import { REFERENCE_RETRY_POLICY, type RetryPolicy } from '../../src/webhooks/backoff';
import { makeDispatcher } from '../../src/webhooks/dispatcher';
import { makeWebhookTransport } from '../../src/webhooks/transport';
import { makeTestContext, type TestContext } from './app';
import { LONDON_IP, personSession, scenario } from './evaluation';
import { fakeAnalysisEngine, fakeImage } from './fake-analysis';
import { webhookReceiver, type Receiver } from './receiver';
import { validateWebhookBody } from './spec';

export interface Started {
  id: string;
  token: string;
}

/** Loopback allowed (WEBHOOK_ALLOW_PRIVATE); its idle keep-alive connections do not hold the process. */
const loopbackTransport = makeWebhookTransport({ allowPrivate: true });

/**
 * Runs a dispatcher over the webhooks due now, as the server's worker does (loopback allowed);
 * `policy` changes the retry schedule (`{ maxRetries: 0 }`: a failed attempt fails the webhook).
 */
export function deliverDue(ctx: TestContext, policy: Partial<RetryPolicy> = {}): Promise<number> {
  return makeDispatcher({
    policy: { ...REFERENCE_RETRY_POLICY, ...policy },
    outbox: ctx.services.repos.outbox,
    clock: ctx.clock,
    random: Math.random,
    logger: makeLogger('silent'),
    post: loopbackTransport.post,
    target: ctx.services.jobs.dispatch.target,
    render: ctx.services.jobs.dispatch.render,
    metrics: ctx.services.jobs.dispatch.metrics,
  }).runOnce();
}

export function verificationFlow(ctx: TestContext, rx: Receiver) {
  const sdk = scenario(ctx);
  const flow = {
    async create(
      type: 'face-match' | 'id-check' = 'face-match',
      extra: Record<string, unknown> = {},
    ): Promise<Started> {
      const res = await request(ctx.app)
        .post('/liveness/session')
        .set('x-api-key', ctx.project.api_key)
        .send({ type, redirect_url: 'https://shop.example.com/done', ...extra });
      if (res.status !== 200) throw new Error(`create ${res.status}: ${JSON.stringify(res.body)}`);
      return { id: res.body.session_id, token: new URL(res.body.url).searchParams.get('token')! };
    },
    capture: (s: Started, kind: string, body: Buffer) =>
      request(ctx.app)
        .post(`/liveness/${s.id}/capture`)
        .query({ token: s.token, kind })
        .set('content-type', 'image/jpeg')
        .send(body),
    /** Uploads each capture, posts the hosted page's SDK session, and completes. */
    async complete(
      s: Started,
      captures: Record<string, Buffer>,
      device: { session?: Partial<IngestSession>; ip?: string } = {},
    ) {
      for (const [kind, body] of Object.entries(captures)) {
        const res = await flow.capture(s, kind, body);
        if (res.status !== 200) throw new Error(`capture ${kind} ${res.status}: ${JSON.stringify(res.body)}`);
      }
      const deviceSessionId = await sdk.ingest(personSession(device.session), device.ip ?? LONDON_IP);
      return request(ctx.app)
        .post(`/liveness/${s.id}/complete`)
        .query({ token: s.token, device_session_id: deviceSessionId });
    },
    /** Runs a dispatcher over what is due, and returns the bodies the receiver got for the session, each checked against webhooks.yaml. */
    async delivered(sessionId: string) {
      await deliverDue(ctx);
      const mine = rx.received.filter((d) => JSON.parse(d.body).session_id === sessionId);
      if (mine.length === 0) await explainNothingReceived(sessionId);
      for (const d of mine) {
        const errors = await validateWebhookBody(JSON.parse(d.body));
        if (errors.length) throw new Error(`webhook body does not conform to webhooks.yaml:\n${errors.join('\n')}`);
      }
      return mine;
    },
  };
  /** Nothing reached the receiver for the session: the outbox's own account of it, so that a failure says why. */
  async function explainNothingReceived(sessionId: string) {
    const queued = (await ctx.services.repos.outbox.list({ limit: 1000 })).filter((w) => w.sessionId === sessionId);
    const tries = await Promise.all(queued.map((w) => ctx.services.repos.outbox.attempts(w.requestId)));
    if (queued.length > 0)
      process.stderr.write(`no webhook received for ${sessionId}; outbox: ${JSON.stringify({ queued, tries })}\n`);
  }
  return { ...flow, sdk };
}

/**
 * The setup of the verification tests: an app (by default behind a proxy, TRUST_PROXY on, with
 * the fake analysis engine and media storage), its project's webhooks going to a fresh
 * receiver, and the flow that drives a verification through HTTP. `close` closes both.
 */
export async function verificationContext(
  overrides: Parameters<typeof makeTestContext>[0] = { trustProxy: true, demo: false },
  extra: Parameters<typeof makeTestContext>[1] = { analysis: fakeAnalysisEngine, media: true },
): Promise<{
  ctx: TestContext;
  rx: Receiver;
  flow: ReturnType<typeof verificationFlow>;
  close(): Promise<void>;
}> {
  const ctx = await makeTestContext(overrides, extra);
  const rx = await webhookReceiver();
  await ctx.services.projects.setWebhook(ctx.project.project_id, rx.url);
  return {
    ctx,
    rx,
    flow: verificationFlow(ctx, rx),
    async close() {
      await rx.close();
      await ctx.close();
    },
  };
}

/**
 * The captures of a completed verification of `person`: a selfie, and for an ID Check a full
 * front whose portrait is `person` and a back with a US driver licence numbered `idNumber`.
 */
export function verificationCaptures(
  type: 'face-match' | 'id-check',
  person: string,
  idNumber = 'R7654321',
): Record<string, Buffer> {
  const selfie = fakeImage({ faces: [{ person }] });
  if (type === 'face-match') return { selfie };
  return {
    selfie,
    id_front: fakeImage({ edges: 'full', faces: [{ person, similarity: 0.9 }] }),
    id_back: fakeImage({
      fields: {
        firstName: 'Ada',
        lastName: 'Byron',
        dateOfBirth: '1985-03-02',
        dateOfExpiration: '2031-03-02',
        dateOfIssue: '2021-03-02',
        idNumber,
        countryCode: 'US',
        state: 'TX',
        templateType: 'driver_license',
        address: { street: '1 Main St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      },
    }),
  };
}
