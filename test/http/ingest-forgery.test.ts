/**
 * A re-signed forgery of an SDK post, through real HTTP and a real database: a script that asks
 * for a challenge and signs a captured browser's post the way the open SDK does passes the
 * binding, so what the server saw of the post itself must give it away: its events against the
 * time since its challenge (`events_outpace_challenge`).
 */
import request from 'supertest';
import type { IngestSession } from '../../src/api-types';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { bind, browserHeaders, issueChallenge, personSession, scenario } from '../helpers/evaluation';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.set(TEST_NOW));

/** A post as the SDK makes it, with no interaction counted yet unless `over` says otherwise. */
function sdkPost(over: Partial<IngestSession> = {}): IngestSession {
  return personSession({ events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 }, ...over });
}

const post = (body: unknown, headers: Record<string, string>) =>
  request(ctx.app)
    .post('/ingest/session')
    .set('x-project-id', ctx.project.project_id)
    .set('x-forwarded-for', '81.2.69.142')
    .set(headers)
    .send(body as object);

/** Asks for a challenge, waits `afterMs` on the test clock, then posts the body bound to it with the browser's headers. */
async function signedPost(body: IngestSession, afterMs: number): Promise<void> {
  const challenge = await issueChallenge(ctx);
  ctx.clock.set(new Date(Date.parse(TEST_NOW) + afterMs));
  const res = await post(bind(body, challenge), browserHeaders(body));
  expect(res.status).toBe(200);
}

describe('POST /ingest/session: the first post against the time since its challenge', () => {
  test('when a post signed like the SDK’s carries 200 mouse events 50 ms after its challenge, then events_outpace_challenge, and the bot score is no longer the floor', async () => {
    const body = sdkPost({ events: { mouse: 200, click: 0, keyboard: 0, touch: 0, clipboard: 0 } });
    await signedPost(body, 50);
    const r = await scenario(ctx).unauthenticated(body.session_id);
    expect(r.session.risk_signal_details.device).toEqual(['events_outpace_challenge']);
    expect(r.session.risk_signals.device_risk).toBe(true);
    // 1 - 0.98 · (1 - 0.7 · 0.8) · (1 - 0.15 · 0.4): the tampering term, and no typing on a page
    // view; without the condition these counts would score 1 - 0.98 · 0.94 = 0.079.
    expect(r.bot).toBe(0.595);
  });

  test("when the benchmark forger's counts (208 mouse, 4 clicks, 45 keys) come 100 ms after the challenge, then events_outpace_challenge", async () => {
    const body = sdkPost({ events: { mouse: 208, click: 4, keyboard: 45, touch: 0, clipboard: 0 } });
    await signedPost(body, 100);
    const r = await scenario(ctx).unauthenticated(body.session_id);
    expect(r.session.risk_signal_details.device).toEqual(['events_outpace_challenge']);
  });

  test('when the first post carries no events and later posts bring many, then none: only the first post is timed', async () => {
    const body = sdkPost();
    await signedPost(body, 1300);
    const { integrity: _i, ...later } = {
      ...body,
      events: { mouse: 400, click: 6, keyboard: 60, touch: 0, clipboard: 0 },
    };
    ctx.clock.set(new Date(Date.parse(TEST_NOW) + 1400));
    expect((await post(later, browserHeaders(body))).status).toBe(200);
    const r = await scenario(ctx).unauthenticated(body.session_id);
    expect(r.session.risk_signal_details.device).toEqual([]);
    expect(r.session.bot.mouse_num_events).toBe(400);
  });
});
