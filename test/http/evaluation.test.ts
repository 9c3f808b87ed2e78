/**
 * The risk engine through HTTP: POST /session/authenticate and /session/unauthenticated with
 * sessions posted as the SDK posts them, the real IP data and a real database. Responses are
 * validated against the spec by the app itself.
 */
import request from 'supertest';
import { makeTestContext, type TestContext } from '../helpers/app';
import { AWS_IP, personSession, scenario, US_IP } from '../helpers/evaluation';

let ctx: TestContext;
let s: ReturnType<typeof scenario>;
beforeAll(async () => {
  ctx = await makeTestContext({ trustProxy: 'loopback' });
  s = scenario(ctx);
});
afterAll(() => ctx.close());

describe('POST /session/authenticate', () => {
  test('when a person signs up from a home connection, then Real with low scores and every field of the interface', async () => {
    const r = await s.signIn({
      id: 'person-1',
      email: 'Ada.Lovelace@gmail.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      expected_countries: ['GB'],
    });
    expect(r.decision).toBe('Real');
    expect(r.account_score).toBeLessThan(0.3);
    expect(r.bot).toBeLessThan(0.2);
    expect(r.accounts_linked).toBe(0);
    expect(r.lists).toEqual([]);
    expect(r.account_id).toBe('person-1');
    expect(r.account.num_sessions).toBe(1);
    expect(r.account.countries).toEqual(['GB']);
    expect(r.account.country).toBe('GB');
    expect(r.account.unique_devices).toEqual({ '1_day': 1, '7_day': 1 });
    expect(r.account.email).toMatchObject({
      email: 'adalovelace@gmail.com',
      personal: true,
      valid: true,
      domain_type: 'personal',
    });
    expect(r.account.email?.risk_signals).toContain('email_alias');
    // The published shape's members, empty where there is nothing: no group (groups off), and
    // no postal code in the shipped geolocation data.
    expect(r.account.account.group).toBe('');
    expect(r.session.location.zip_code).toBe('');
    expect(r.session.risk_signals).toMatchObject({
      tor: false,
      vpn: false,
      datacenter: false,
      device_risk: false,
      ip_reputation: false,
    });
    expect(r.linked_accounts).toBeUndefined();
  });

  test('when a headless browser submits without any interaction, then Fake', async () => {
    const r = await s.signIn(
      { id: 'bot-1' },
      {
        automation: { webdriver: true, signals: ['headless_chrome:user_agent'] },
        events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
      },
    );
    expect(r.decision).toBe('Fake');
    expect(r.bot).toBeGreaterThanOrEqual(0.8);
    expect(r.session.risk_signals.device_risk).toBe(true);
    expect(r.session.risk_signal_details.device).toEqual(
      expect.arrayContaining(['webdriver', 'headless_chrome:user_agent']),
    );
  });

  test('when the session is older than 24 hours, then 400 and nothing is written', async () => {
    const id = await s.ingest(personSession());
    ctx.clock.advance(24 * 3_600_000 + 1000);
    try {
      const res = await s.authenticate(id, { id: 'late-1' });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^Session expired/);
      expect((await request(ctx.app).get('/account/late-1').set('x-api-key', ctx.project.api_key)).body).toEqual({
        statusCode: 400,
        message: 'Account not found',
      });
    } finally {
      ctx.clock.advance(-(24 * 3_600_000 + 1000));
    }
  });

  test('when the address is a cloud provider and a person-like browser uses it, then datacenter and vpn evidence', async () => {
    const r = await s.signIn({ id: 'cloud-1' }, {}, AWS_IP);
    expect(r.session.risk_signals.datacenter).toBe(true);
    expect(r.session.risk_signal_details.network).toEqual(
      expect.arrayContaining(['hosting_asn', 'hosting_network_residential_device']),
    );
    expect(r.session.risk_signals.vpn).toBe(true);
    const home = await s.signIn({ id: 'home-1' }, {}, US_IP);
    expect(home.session.risk_signals.datacenter).toBe(false);
    expect(home.session.risk_signals.vpn).toBe(false);
  });
});

describe('the account details', () => {
  const MANY_DEVICES_IP = '81.2.69.77';

  test('when an account signs in from more devices in a week than the 200 sessions an evaluation reads, then unique_devices counts every one, as GET /account does', async () => {
    let r: Awaited<ReturnType<typeof s.signIn>> | undefined;
    // Each sign-in a browser of its own (personSession: a new stored id and fingerprint).
    for (let i = 0; i < 205; i++) r = await s.signIn({ id: 'many-devices' }, {}, MANY_DEVICES_IP);
    expect(r!.account.num_sessions).toBe(205);
    expect(r!.account.unique_devices).toEqual({ '1_day': 205, '7_day': 205 });
    // The same address every time: one network. (Its own, last in the file: no other test's crowd.)
    expect(r!.account.unique_networks).toEqual({ '1_day': 1, '7_day': 1 });
    const page = await request(ctx.app).get('/account/many-devices').set('x-api-key', ctx.project.api_key).expect(200);
    expect(page.body.unique_devices).toEqual({ '1_day': 205, '7_day': 205 });
  });
});
