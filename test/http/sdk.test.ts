/** POST /ingest/session through real HTTP, the real IP data and a real database. */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { IngestSession, Session } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
});
afterAll(() => ctx.close());

const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

function body(overrides: Partial<IngestSession> = {}): IngestSession {
  return {
    session_id: randomUUID(),
    source: 'web',
    source_version: null,
    device_id: 'device-' + randomUUID(),
    browser_fingerprint: 'fp-1234',
    user_agent: CHROME,
    languages: ['en-GB', 'en'],
    timezone: 'Europe/London',
    screen: { width: 1728, height: 1117 },
    cpu_cores: 8,
    memory: 8,
    gpu: 'Apple M1',
    automation: { webdriver: false, signals: [] },
    tampering: [],
    webrtc_ips: [],
    events: { mouse: 20, click: 2, keyboard: 10, touch: 0, clipboard: 0 },
    ...overrides,
  };
}

const post = (b: unknown, ip = '81.2.69.142') =>
  request(ctx.app)
    .post('/ingest/session')
    .set('x-project-id', ctx.project.project_id)
    .set('x-forwarded-for', ip)
    .send(b as object);

const get = (id: string) => request(ctx.app).get(`/session/${id}`).set('x-api-key', ctx.project.api_key);

async function sessionCount(): Promise<number> {
  const row = await ctx.testDb.db('sessions').count<{ n: number | string }[]>({ n: '*' }).first();
  return Number(row?.n);
}

describe('POST /ingest/session', () => {
  it('when an SDK posts, then GET /session returns the enriched session', async () => {
    const b = body();
    const res = await post(b);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ session_id: b.session_id });
    const s = (await get(b.session_id)).body as Session;
    expect(s).toMatchObject({
      session_id: b.session_id,
      source: 'web',
      source_version: null,
      device_id: b.device_id,
      true_country_code: 'GB',
      network: { ip_address: '81.2.69.142', connection_type: 'isp' },
      location: { country_code: 'GB', continent: 'EU', timezone: 'Europe/London' },
      browser: {
        type: 'Chrome',
        version: '142.0.0.0',
        language: 'en-GB',
        user_agent: CHROME,
        timezone: 'Europe/London',
      },
      device: {
        category: 'desktop',
        type: 'Macintosh',
        os: 'Mac OS 10.15.7',
        cpu_cores: 8,
        memory: 8,
        gpu: 'Apple M1',
        screen_width: 1728,
        screen_height: 1117,
      },
      bot: {
        mouse_num_events: 20,
        click_num_events: 2,
        keyboard_num_events: 10,
        touch_num_events: 0,
        clipboard_num_events: 0,
      },
      mobile: {},
      account_ids: [],
    });
    expect(s.start_time).toBe(ctx.clock.now().toISOString());
  });

  it('when the same session posts again, then counts never go down and identity facts stay', async () => {
    const b = body();
    await post(b);
    ctx.clock.advance(60_000);
    const res = await post(
      {
        ...b,
        device_id: 'someone-else',
        user_agent: 'curl/8',
        events: { mouse: 5, click: 9, keyboard: 10, touch: 1, clipboard: 0 },
      },
      '8.8.8.8',
    );
    expect(res.status).toBe(200);
    const s = (await get(b.session_id)).body as Session;
    expect(s.device_id).toBe(b.device_id);
    expect(s.browser.user_agent).toBe(CHROME);
    expect(s.network.ip_address).toBe('81.2.69.142');
    expect(s.bot).toEqual({
      mouse_num_events: 20,
      click_num_events: 9,
      keyboard_num_events: 10,
      touch_num_events: 1,
      clipboard_num_events: 0,
    });
  });

  it('when a session is older than 24 hours, then a further post gets 400 and changes nothing', async () => {
    const b = body();
    await post(b);
    ctx.clock.advance(24 * 3600_000 + 1000);
    const res = await post({ ...b, events: { mouse: 999 } });
    expect(res.body).toEqual({
      statusCode: 400,
      message: 'Session expired; sessions accept updates for 24 hours after they start',
    });
    expect(((await get(b.session_id)).body as Session).bot.mouse_num_events).toBe(20);
  });

  it("when the session id belongs to another project, then 400 and the other project's session is untouched", async () => {
    const other = await ctx.services.projects.create({ name: 'Other' });
    const b = body();
    await request(ctx.app).post('/ingest/session').set('x-project-id', other.project_id).send(b);
    const res = await post({ ...b, events: { mouse: 999 } });
    expect(res.body).toEqual({ statusCode: 400, message: 'session_id belongs to another project' });
    const theirs = await request(ctx.app).get(`/session/${b.session_id}`).set('x-api-key', other.api_key);
    expect(theirs.body.bot.mouse_num_events).toBe(20);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['session_id not a lowercase UUID', { session_id: 'ABC' }, /^session_id must match/],
    ['an unknown source', { source: 'windows' }, /^source must be equal to one of the allowed values/],
    ['no device_id', { device_id: undefined }, /^body must have required property 'device_id'$/],
    ['a negative event count', { events: { mouse: -1 } }, /^events\.mouse must be >= 0$/],
    ['a fractional cpu_cores', { cpu_cores: 2.5 }, /^cpu_cores must be integer$/],
    ['a WebRTC address that is not an IP', { webrtc_ips: ['nope'] }, /^webrtc_ips\.0 /],
    [
      'a latitude out of range',
      { geolocation: { latitude: 91, longitude: 0 } },
      /^geolocation\.latitude must be <= 90$/,
    ],
    ['an unknown member', { colour: 'blue' }, /^colour is not a property of the body \(it takes .*\bsession_id\b.*\)$/],
    // Text PostgreSQL cannot store, or that is not Unicode: the same 400 on both engines.
    [
      'a device_id with U+0000',
      { device_id: 'a\u0000b' },
      /^device_id must not contain U\+0000 \(NUL\) or an unpaired surrogate$/,
    ],
    [
      'a user_agent with a lone surrogate',
      { user_agent: `${CHROME}\ud800` },
      /^user_agent must not contain U\+0000 \(NUL\) or an unpaired surrogate$/,
    ],
    [
      'a language with U+0000',
      { languages: ['en', 'fr\u0000'] },
      /^languages\.1 must not contain U\+0000 \(NUL\) or an unpaired surrogate$/,
    ],
    ['a native mobile_id with U+0000', { source: 'ios', mobile: { mobile_id: 'id\u0000' } }, /^mobile\.mobile_id /],
  ])('when the body has %s, then 400 naming the field and nothing is stored', async (_t, change, message) => {
    const before = await sessionCount();
    const res = await post({ ...body(), ...change });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await sessionCount()).toBe(before);
  });

  it('when no project is named, or an unknown one, then 400 and nothing is stored', async () => {
    const before = await sessionCount();
    const none = await request(ctx.app).post('/ingest/session').send(body());
    expect(none.body).toEqual({
      statusCode: 400,
      message: 'header x-project-id (or query parameter project_id) is required',
    });
    const unknown = await request(ctx.app).post('/ingest/session').set('x-project-id', randomUUID()).send(body());
    expect(unknown.body).toEqual({ statusCode: 400, message: 'x-project-id names no project' });
    expect(await sessionCount()).toBe(before);
  });

  it('when sendBeacon posts text/plain with project_id in the query, then it is stored like JSON', async () => {
    const b = body();
    const res = await request(ctx.app)
      .post(`/ingest/session?project_id=${ctx.project.project_id}`)
      .set('content-type', 'text/plain;charset=UTF-8')
      .send(JSON.stringify(b));
    expect(res.status).toBe(200);
    expect((await get(b.session_id)).status).toBe(200);
  });

  it('when a browser on another origin asks, then CORS allows it on this route only', async () => {
    const preflight = await request(ctx.app)
      .options('/ingest/session')
      .set('origin', 'https://shop.example')
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'content-type,x-project-id');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/x-project-id/);
    const api = await request(ctx.app)
      .get(`/session/${randomUUID()}`)
      .set('origin', 'https://shop.example')
      .set('x-api-key', ctx.project.api_key);
    expect(api.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('when the API key is sent instead of a project id, then it is not needed and not accepted as one', async () => {
    const res = await request(ctx.app).post('/ingest/session').set('x-api-key', ctx.project.api_key).send(body());
    expect(res.status).toBe(400);
  });
});

describe('rate limits of the SDK route', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await makeTestContext({ ingestRateLimitPerIp: 2 });
  });
  afterAll(() => limited.close());

  it('when one address posts past its limit, then 429 with Retry-After', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (
          await request(limited.app)
            .post('/ingest/session')
            .set('x-project-id', limited.project.project_id)
            .send(body())
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
