/**
 * Drop-in compatibility with the PHP client (diego-ninja/verisoul-api) of the production
 * service: the members its verify-face and verify-id answers read, each with the type it reads
 * it as, checked on real Face Match and ID Check results, both as verify-face / verify-id answer
 * them and as the webhook's `data` carries them (one object).
 *
 * READS lists what the client's answer objects take without a default (read from its source,
 * not copied): a member it reads must be present, and of its type (`?`: null is allowed). The
 * result's device leaves out the screen size: the published examples and interface-spec.md:213
 * give `session_data.device` without it, and the client's own fixtures do so too.
 *
 * Where interface-spec.md mandates a different ID Check result, MANDATED names the member and the
 * line; each must still differ (a mandated difference that stops differing fails this file).
 * The replay test (replay.test.ts) checks the published examples' members; this one checks the
 * types the client reads, and the members the published examples carry only when known. Last,
 * verify-face / verify-id errors: what is sent is what openapi.yaml declares, member for member.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { IngestSession } from '../../src/api-types';
import type { TestContext } from '../helpers/app';
import { US_IP } from '../helpers/evaluation';
import { loadSpec, validatorAt, type Json as SpecJson } from '../helpers/spec';
import { verificationCaptures, verificationContext, verificationFlow } from '../helpers/verification';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** How the client reads a member; `?` admits null. */
type Read =
  'string' | 'string?' | 'number' | 'number?' | 'integer' | 'integer?' | 'date' | 'date?' | 'array' | 'object';

const METADATA: Record<string, Read> = {
  'metadata.project_id': 'string',
  'metadata.session_id': 'string',
  'metadata.account_id': 'string?',
  'metadata.referring_session_id': 'string?',
  'metadata.request_id': 'string',
  'metadata.timestamp': 'date',
};
const SESSION_DATA: Record<string, Read> = {
  'session_data.true_country_code': 'string?',
  ...prefixed('session_data.network', {
    ip_address: 'string?',
    service_provider: 'string?',
    connection_type: 'string?',
  }),
  ...prefixed('session_data.location', {
    continent: 'string?',
    country_code: 'string?',
    state: 'string?',
    city: 'string?',
    zip_code: 'string?',
    timezone: 'string?',
    latitude: 'number?',
    longitude: 'number?',
  }),
  ...prefixed('session_data.browser', {
    type: 'string?',
    version: 'string?',
    language: 'string?',
    user_agent: 'string?',
    timezone: 'string?',
  }),
  ...prefixed('session_data.device', {
    category: 'string?',
    type: 'string?',
    os: 'string?',
    cpu_cores: 'integer?',
    memory: 'integer?',
    gpu: 'string?',
  }),
};
const SIGNALS: Record<string, Read> = {
  ...prefixed('device_network_signals', {
    device_risk: 'number',
    proxy: 'number',
    vpn: 'number',
    datacenter: 'number',
    tor: 'number',
    spoofed_ip: 'number',
    recent_fraud_ip: 'number',
    device_network_mismatch: 'number',
    location_spoofing: 'number',
  }),
  ...prefixed('referring_session_signals', {
    impossible_travel: 'number',
    ip_mismatch: 'number',
    user_agent_mismatch: 'number',
    device_timezone_mismatch: 'number',
    ip_timezone_mismatch: 'number',
  }),
};
/** What both answers read; `matches.accounts_linked[]` is read in every element. */
const COMMON: Record<string, Read> = {
  ...METADATA,
  decision: 'string',
  risk_score: 'number',
  risk_flags: 'array',
  ...SIGNALS,
  photo_urls: 'object',
  ...SESSION_DATA,
  'matches.num_accounts_linked': 'integer',
  'matches.accounts_linked': 'array',
  'matches.accounts_linked[].account_id': 'string',
  'matches.accounts_linked[].match_types': 'array',
};
const READS: Record<'face-match' | 'id-check', Record<string, Read>> = {
  'face-match': COMMON,
  'id-check': {
    ...COMMON,
    'document_signals.id_age': 'integer',
    'document_signals.id_face_match_score': 'number',
    'document_data.template_info.document_country_code': 'string',
    'document_data.template_info.document_state': 'string?',
    'document_data.template_info.template_type': 'string',
    ...prefixed('document_data.user_data', {
      first_name: 'string?',
      last_name: 'string?',
      date_of_birth: 'date?',
      date_of_expiration: 'date?',
      date_of_issue: 'date?',
      id_number: 'string?',
      id_number2: 'string?',
      address: 'object',
    }),
    ...prefixed('document_data.user_data.address', {
      city: 'string?',
      country: 'string?',
      postal_code: 'string?',
      state: 'string?',
      street: 'string?',
    }),
  },
};

/** ID Check members interface-spec.md gives another shape than the client reads, with the line. */
const MANDATED: { members: RegExp; cites: string }[] = [
  { members: /^device_network_signals\./, cites: 'interface-spec.md:210 (booleans, without location_spoofing)' },
  { members: /^referring_session_signals\./, cites: 'interface-spec.md:211 (three booleans)' },
  { members: /^photo_urls$/, cites: 'interface-spec.md:212 (in document_data)' },
  { members: /^session_data\.true_country_code$/, cites: 'interface-spec.md:213 (no true_country_code)' },
];

function prefixed(prefix: string, reads: Record<string, Read>): Record<string, Read> {
  return Object.fromEntries(Object.entries(reads).map(([k, v]) => [`${prefix}.${k}`, v]));
}

/** The values at a member path (`a.b[].c`), one per element through arrays; undefined where absent. */
function valuesAt(body: Json, member: string): (Json | undefined)[] {
  let nodes: (Json | undefined)[] = [body];
  for (const step of member.split('.')) {
    const each = step.endsWith('[]');
    const key = each ? step.slice(0, -2) : step;
    nodes = nodes.flatMap((n) => {
      const v = n !== null && typeof n === 'object' && !Array.isArray(n) && key in n ? n[key] : undefined;
      return each ? (Array.isArray(v) ? v : [undefined]) : [v];
    });
  }
  return nodes;
}

function isRead(value: Json | undefined, read: Read): boolean {
  if (value === undefined) return false;
  if (value === null) return read.endsWith('?');
  switch (read.replace('?', '')) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'date':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value));
    case 'array':
      return Array.isArray(value);
    default:
      return typeof value === 'object' && !Array.isArray(value);
  }
}

/** The members of `body` the client cannot read: absent, or not of the type it reads them as. */
function unreadable(body: Json, reads: Record<string, Read>): string[] {
  return Object.entries(reads)
    .filter(([member, read]) => !valuesAt(body, member).every((v) => isRead(v, read)))
    .map(([member, read]) => `${member} (${read}): ${JSON.stringify(valuesAt(body, member))}`);
}

let ctx: TestContext;
let flow: ReturnType<typeof verificationFlow>;
let close: () => Promise<void>;
beforeAll(async () => ({ ctx, flow, close } = await verificationContext()));
afterAll(() => close());

/**
 * A verification of `person` completed from `device` (a US address) after another account's
 * verification of the same person (so that `matches` holds that account), read both ways: the
 * verify answer and the webhook's data.
 */
async function result(type: 'face-match' | 'id-check', device: Partial<IngestSession>, person: string) {
  const first = await flow.create(type, { account_id: `${person}-first` });
  expect(
    (await flow.complete(first, verificationCaptures(type, person, `R-${person}`), { session: device, ip: US_IP }))
      .status,
  ).toBe(200);
  await flow.delivered(first.id);
  const s = await flow.create(type, { account_id: `${person}-second` });
  expect(
    (await flow.complete(s, verificationCaptures(type, person, `R-${person}`), { session: device, ip: US_IP })).status,
  ).toBe(200);
  const [hook] = await flow.delivered(s.id);
  const answer = await request(ctx.app)
    .post(type === 'face-match' ? '/liveness/verify-face' : '/liveness/verify-id')
    .set('x-api-key', ctx.project.api_key)
    .send({ session_id: s.id });
  expect(answer.status).toBe(200);
  return { answer: answer.body as Json, data: (JSON.parse(hook!.body) as { data: Json }).data };
}

const REPORTED = { gpu: 'ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)', memory: 8 };
/** A browser that reported neither its memory nor its GPU (Firefox and Safari give no memory). */
const UNREPORTED: Partial<IngestSession> = { memory: undefined, gpu: undefined };

describe.each(['face-match', 'id-check'] as const)('the PHP client reads a %s result', (type) => {
  const reads = READS[type];
  const mandated = (member: string) => type === 'id-check' && MANDATED.some((m) => m.members.test(member));
  const readable = Object.fromEntries(Object.entries(reads).filter(([m]) => !mandated(m)));

  test.each([
    ['the browser reported its memory and GPU', REPORTED],
    ['the browser reported neither its memory nor its GPU', UNREPORTED],
  ])(
    'when %s, then every member it reads is there with its type, in the answer and the webhook',
    async (_when, device) => {
      const person = `php-reads-${type}-${device === REPORTED ? 'reported' : 'unreported'}`;
      const { answer, data } = await result(type, device, person);
      expect({ answer: unreadable(answer, readable), webhook: unreadable(data, readable) }).toEqual({
        answer: [],
        webhook: [],
      });
      // The results carry the members the published examples always carry, known or not.
      const known = device === REPORTED;
      expect(valuesAt(answer, 'session_data.device.memory')).toEqual([known ? REPORTED.memory : null]);
      expect(valuesAt(answer, 'session_data.device.gpu')).toEqual([known ? REPORTED.gpu : null]);
      expect(valuesAt(answer, 'session_data.location.zip_code')).toEqual(['']);
      expect(valuesAt(answer, 'matches.accounts_linked[].account_id')).toContain(`${person}-first`);
      expect(valuesAt(data, 'session_data')).toEqual(valuesAt(answer, 'session_data'));
    },
  );

  if (type === 'id-check')
    test('when interface-spec.md mandates another shape, then the member still differs (MANDATED is not stale)', async () => {
      const { answer } = await result(type, REPORTED, 'php-reads-mandated');
      const differing = (m: { members: RegExp }) =>
        unreadable(answer, Object.fromEntries(Object.entries(reads).filter(([member]) => m.members.test(member))))
          .length > 0;
      expect(MANDATED.filter((m) => !differing(m)).map((m) => m.cites)).toEqual([]);
    });
});

describe.each(['/liveness/verify-face', '/liveness/verify-id'])('%s errors as the contract declares them', (path) => {
  /** The schema openapi.yaml declares for the operation's `400`, and its coded form's members. */
  async function declared400() {
    const spec = await loadSpec();
    const op = ((spec.paths as Record<string, SpecJson>)[path] as Record<string, Record<string, SpecJson>>).post!;
    const ref = ((op.responses as Record<string, SpecJson>)['400'] as { $ref: string }).$ref.slice(1);
    const coded = (spec.components as Record<string, Record<string, SpecJson>>).schemas!.LivenessError as {
      required: string[];
      additionalProperties: boolean;
    };
    return { validate: await validatorAt(`${ref}/content/application~1json/schema`), coded };
  }
  const send = (sessionId: string) =>
    request(ctx.app).post(path).set('x-api-key', ctx.project.api_key).send({ session_id: sessionId });

  test('when the session is unknown, then the coded 400 carries exactly the members its declared schema names', async () => {
    const res = await send(randomUUID());
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      message: expect.any(String),
      request_id: res.headers['x-request-id'],
      success: false,
      error: 'session_not_found',
    });
    const { validate, coded } = await declared400();
    expect(validate(res.body)).toBe(true);
    expect({ required: [...coded.required].sort(), admitsOthers: coded.additionalProperties }).toEqual({
      required: Object.keys(res.body).sort(),
      admitsOthers: false,
    });
  });

  test('when the request is malformed, then the 400 is {statusCode, message} alone, which the same declaration admits', async () => {
    const res = await send('not-a-uuid');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['message', 'statusCode']);
    expect((await declared400()).validate(res.body)).toBe(true);
  });
});
