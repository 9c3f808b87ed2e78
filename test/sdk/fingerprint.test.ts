/**
 * The web SDK's fingerprint (packages/web/src/fingerprint.ts, TextEncoder and its own canonical
 * JSON) against the server's derivation (src/domain/session/fingerprint.ts): two implementations
 * of one definition, held together here on components with awkward strings and numbers.
 */
import { browserFingerprint } from '../../packages/web/src/fingerprint';
import type { FingerprintComponents } from '../../src/api-types';
import { deriveFingerprint } from '../../src/domain/session/fingerprint';

const SETS: FingerprintComponents[] = [
  {
    canvas: '',
    gpu: '',
    fonts: [],
    math: [],
    screen: [0, 0, 0],
    cores: 0,
    memory: 0,
    platform: '',
    vendor: '',
    touch: 0,
  },
  {
    touch: 5,
    vendor: 'Apple Computer, Inc.',
    platform: 'iPhone',
    memory: 0.25,
    cores: 4,
    screen: [390, 844, 24],
    math: [1.4474840516030247, null, -0, 1e21, 5e-324],
    fonts: ['Helvetica Neue', 'SF Pro Text', 'Ünïcödé “quoted” \\ "x" 😀 \u2028'],
    gpu: 'Apple GPU',
    canvas: 'ffffffffffffffffffffffffffffffff',
  },
];

describe('browserFingerprint (SDK) and deriveFingerprint (server)', () => {
  it.each(SETS.map((c, i) => [i, c] as const))('when set %i is hashed by both, then they agree', (_i, c) => {
    expect(browserFingerprint(c)).toMatch(/^[0-9a-f]{32}$/);
    expect(browserFingerprint(c)).toBe(deriveFingerprint(c));
  });
});
