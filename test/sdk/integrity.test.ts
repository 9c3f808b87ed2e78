/**
 * The web SDK's challenge binding (transport.ts, WebCrypto) against the server's check
 * (src/domain/session/integrity.ts, node:crypto): two implementations of one canonical form,
 * held together here on awkward bodies (nested members out of order, unicode, numbers,
 * undefined members, an old binding to replace).
 */
import { randomBytes } from 'node:crypto';
import { bindChallenge } from '../../packages/web/src/transport';
import type { IngestSession } from '../../src/api-types';
import { canonicalJson, macMatches, payloadMac } from '../../src/domain/session/integrity';

const key = randomBytes(32);
const challenge = { challenge: 'c'.repeat(32), key: key.toString('hex') };

const BODIES: IngestSession[] = [
  { session_id: 's-1', source: 'web', device_id: 'd' },
  {
    events: { touch: 0, mouse: 12, click: 1 },
    source: 'web',
    session_id: 's-2',
    device_id: 'd',
    languages: ['zh-Hant-TW', 'en'],
    gpu: 'ANGLE (Apple, “M1” \u2028 Metal) \\ "quoted" 😀',
    memory: 0.25,
    geolocation: { longitude: -0.1278, latitude: 51.5074, accuracy_m: 1e21 },
    client_hints: { platform: 'macOS', brands: [{ version: '142', brand: 'Chromium' }], mobile: false },
    automation: { webdriver: false, signals: [] },
    source_version: null,
    timezone: undefined,
    integrity: { challenge: 'old', mac: 'old' },
  },
];

describe('bindChallenge (the SDK) and macMatches (the server)', () => {
  it.each(BODIES.map((b, i) => [i, b] as const))(
    'when body %i is bound by the SDK, then the server accepts its MAC',
    async (_i, body) => {
      const bound = await bindChallenge(body, challenge);
      expect(bound.integrity?.challenge).toBe(challenge.challenge);
      // What the server receives is the JSON the SDK sends, parsed.
      const received = JSON.parse(JSON.stringify(bound)) as IngestSession;
      expect(bound.integrity?.mac).toBe(payloadMac(key, received));
      expect(macMatches(key, received, bound.integrity!.mac)).toBe(true);
    },
  );

  it('when one member of a bound body changes, then the MAC no longer matches', async () => {
    const bound = await bindChallenge(BODIES[1]!, challenge);
    const received = JSON.parse(JSON.stringify(bound)) as IngestSession;
    expect(macMatches(key, { ...received, events: { ...received.events, mouse: 13 } }, bound.integrity!.mac)).toBe(
      false,
    );
    expect(macMatches(randomBytes(32), received, bound.integrity!.mac)).toBe(false);
    expect(macMatches(key, received, 'not hex')).toBe(false);
  });

  it('when there is no challenge, then the SDK sends the body unbound', async () => {
    const body = BODIES[0]!;
    expect(await bindChallenge(body, undefined)).toBe(body);
  });
});

describe('canonicalJson', () => {
  it('when members are out of order at any depth, then they are sorted, undefined members left out, arrays kept in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined, x: 'é' }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"x":"é","z":1}]},"b":1}',
    );
  });
});
