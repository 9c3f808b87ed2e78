/**
 * A re-signed forgery of an SDK post, through real HTTP and a real database: a script that asks
 * for a challenge and signs a captured browser's post the way the open SDK does passes the
 * binding, so what the server saw of the post itself must give it away: its events against the
 * time since its challenge (`events_outpace_challenge`), and the fingerprint the server derives
 * from the posted components against the posted one and the post's other facts
 * (`fingerprint_mismatch`, `fingerprint_inconsistent:<component>`).
 */
import request from 'supertest';
import { browserFingerprint } from '../../packages/web/src/fingerprint';
import type { IngestSession } from '../../src/api-types';
import { V8_MATH } from '../../src/domain/signals/fingerprint';
import { MAC_GPU, macComponents } from '../helpers/fingerprint';
import { makeTestContext, TEST_NOW, type TestContext } from '../helpers/app';
import { bind, browserHeaders, issueChallenge, personSession, scenario } from '../helpers/evaluation';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.set(TEST_NOW));

const NEW = /^(events_outpace_challenge|fingerprint_mismatch|fingerprint_inconsistent:)/;

const components = macComponents;

/** A post as the SDK makes it: its facts, the components and the fingerprint the SDK computes from them. */
function sdkPost(over: Partial<IngestSession> = {}, c = components()): IngestSession {
  return personSession({
    gpu: c.gpu,
    browser_fingerprint: browserFingerprint(c),
    fingerprint_components: c,
    events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
    ...over,
  });
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

async function rows(table: string): Promise<number> {
  const row = await ctx.testDb.db(table).count<{ n: number | string }[]>({ n: '*' }).first();
  return Number(row?.n);
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

describe('POST /ingest/session: the fingerprint derived from its components', () => {
  test('when an honest post carries its components and the fingerprint they give, then none of the new conditions, and that fingerprint is stored', async () => {
    const body = sdkPost();
    await signedPost(body, 1300);
    const r = await scenario(ctx).unauthenticated(body.session_id);
    expect(r.session.risk_signal_details.device).toEqual([]);
    expect(r.session.risk_signals.device_risk).toBe(false);
    const row = await ctx.testDb.db('sessions').where({ id: body.session_id }).first();
    expect(row.browser_fingerprint).toBe(body.browser_fingerprint);
  });

  test('when a signed post carries a made-up browser_fingerprint beside its components, then fingerprint_mismatch, and the server’s own fingerprint is stored', async () => {
    const c = components();
    const body = sdkPost({ browser_fingerprint: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' }, c);
    await signedPost(body, 1300);
    const r = await scenario(ctx).unauthenticated(body.session_id);
    expect(r.session.risk_signal_details.device).toEqual(['fingerprint_mismatch']);
    expect(r.bot).toBeGreaterThan(0.5);
    const row = await ctx.testDb.db('sessions').where({ id: body.session_id }).first();
    expect(row.browser_fingerprint).toBe(browserFingerprint(c));
  });

  test('when the components contradict the post’s facts (another GPU, screen and system), then fingerprint_inconsistent names each', async () => {
    const c = components({ gpu: 'Mali-G78 MP20', screen: [412, 915, 24], platform: 'Win32' });
    const body = sdkPost({ gpu: MAC_GPU }, c);
    await signedPost(body, 1300);
    const r = await scenario(ctx).unauthenticated(body.session_id);
    expect([...r.session.risk_signal_details.device].sort()).toEqual([
      'fingerprint_inconsistent:gpu',
      'fingerprint_inconsistent:platform',
      'fingerprint_inconsistent:screen',
    ]);
  });

  test('when a web post carries no components (an older SDK bundle), then its fingerprint is stored as posted and none of the new conditions', async () => {
    const body = personSession({ events: {} });
    await signedPost(body, 1300);
    const r = await scenario(ctx).unauthenticated(body.session_id);
    expect(r.session.risk_signal_details.device.filter((d) => NEW.test(d))).toEqual([]);
    const row = await ctx.testDb.db('sessions').where({ id: body.session_id }).first();
    expect(row.browser_fingerprint).toBe(body.browser_fingerprint);
  });

  test.each([
    ['canvas', { canvas: 'data:image/png;base64,AAAA' }],
    ['screen', { screen: [1728, 1117] }],
    ['fonts', { fonts: Array.from({ length: 65 }, (_, i) => `Font ${i}`) }],
    ['math', { math: [...V8_MATH, 1] }],
    ['gpu', { gpu: 'x'.repeat(513) }],
    ['cores', { cores: -1 }],
  ] as const)(
    'when fingerprint_components.%s is out of its limits, then 400 naming it, and nothing is stored',
    async (field, over) => {
      const before = await rows('sessions');
      const body = { ...sdkPost(), fingerprint_components: { ...components(), ...over } };
      const res = await post(body, browserHeaders(body as IngestSession));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`fingerprint_components.${field}`);
      expect(await rows('sessions')).toBe(before);
    },
  );

  test('when fingerprint_components lacks a member or has one more, then 400 naming it', async () => {
    const { touch: _t, ...missing } = components();
    const res = await post({ ...sdkPost(), fingerprint_components: missing }, {});
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/fingerprint_components.*touch|touch.*fingerprint_components/);
    const extra = await post({ ...sdkPost(), fingerprint_components: { ...components(), audio: 1 } }, {});
    expect(extra.status).toBe(400);
    expect(extra.body.message).toMatch(/fingerprint_components/);
  });
});
