import fc from 'fast-check';
import {
  LINK_BASE_WEIGHTS,
  LINK_HALVING_ACCOUNTS,
  CORROBORATING,
  LEAST_EVIDENCE,
  crowdLimit,
  evidenceWeight,
  linkScore,
  nameKey,
  phoneKey,
  usernameKey,
  type LinkEvidence,
} from '../../src/domain/linking';
import type { MatchType } from '../../src/api-types';
import { noisyOr } from '../../src/domain/numbers';

const EPS = 1e-12;
const MATCH_TYPES = Object.keys(LINK_BASE_WEIGHTS) as MatchType[];
const matchType = fc.constantFrom(...MATCH_TYPES);
const sharedBy = fc.oneof(fc.integer({ min: 2, max: 30 }), fc.integer({ min: 2, max: 100_000 }));
const evidence: fc.Arbitrary<LinkEvidence> = fc.record({ type: matchType, sharedBy });
const inUnit = (x: number) => Number.isFinite(x) && x >= 0 && x <= 1;

describe('phoneKey', () => {
  it('when the number is valid E.164, then it comes back unchanged', () => {
    expect(phoneKey('+14155550123')).toBe('+14155550123');
    expect(phoneKey('+442079460958')).toBe('+442079460958');
    expect(phoneKey('+4915112345678')).toBe('+4915112345678');
  });

  it('when the number carries spaces, brackets or dashes, then its E.164 form', () => {
    expect(phoneKey(' +1 (415) 555-0123 ')).toBe('+14155550123');
    expect(phoneKey('+33 6 12 34 56 78')).toBe('+33612345678');
  });

  it('when the number is too short, too long, has no country code or is not a number, then undefined', () => {
    expect(phoneKey('+1415555012')).toBeUndefined();
    expect(phoneKey('+14155550123999')).toBeUndefined();
    expect(phoneKey('+999123456')).toBeUndefined();
    expect(phoneKey('4155550123')).toBeUndefined();
    expect(phoneKey('call me')).toBeUndefined();
    expect(phoneKey('')).toBeUndefined();
    expect(phoneKey(undefined)).toBeUndefined();
  });

  it('when any string, then undefined or a canonical E.164 number that maps to itself', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\+[1-9][0-9]{1,14}$/)), (raw) => {
        const key = phoneKey(raw);
        if (key === undefined) return;
        expect(key).toMatch(/^\+[1-9][0-9]{1,14}$/);
        expect(phoneKey(key)).toBe(key);
      }),
    );
  });
});

describe('nameKey', () => {
  it('when names carry accents, capitals and extra spaces, then the folded "first last"', () => {
    expect(nameKey('  José  María ', 'Núñez')).toBe('jose maria nunez');
    expect(nameKey('JANE', 'DOE')).toBe('jane doe');
    expect(nameKey('Zoë', 'Brontë')).toBe(nameKey('Zoe', 'Bronte'));
  });

  it('when names use compatibility characters, then they are decomposed (NFKD)', () => {
    expect(nameKey('ﬁona', 'Ｓｍｉｔｈ')).toBe('fiona smith');
    expect(nameKey('İlknur', 'Öztürk')).toBe('ilknur ozturk');
  });

  it('when either name is missing or blank, then undefined', () => {
    expect(nameKey('Jane', undefined)).toBeUndefined();
    expect(nameKey(undefined, 'Doe')).toBeUndefined();
    expect(nameKey('Jane', '   ')).toBeUndefined();
    expect(nameKey('\u0301', 'Doe')).toBeUndefined();
    expect(nameKey()).toBeUndefined();
  });

  it('when letters change case or spacing, then the key does not', () => {
    const word = fc.stringMatching(/^[A-Za-z]{1,12}$/);
    const name = fc.array(word, { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(name, name, fc.constantFrom(' ', '  ', '\t', '\u00a0'), (first, last, space) => {
        const key = nameKey(first.join(' '), last.join(' '));
        expect(nameKey(` ${first.join(space).toUpperCase()}`, `${last.join(space).toLowerCase()} `)).toBe(key);
        expect(key).toBe(key?.toLowerCase());
      }),
    );
  });
});

describe('usernameKey', () => {
  it('when the username has capitals and surrounding spaces, then trimmed and in lower case', () => {
    expect(usernameKey('  JaneDoe ')).toBe('janedoe');
  });

  it('when the username has a capital I, then a plain i whatever the locale (no Turkish dotless ı)', () => {
    expect(usernameKey('IRMAK')).toBe('irmak');
  });

  it('when the username is missing or blank, then undefined', () => {
    expect(usernameKey(undefined)).toBeUndefined();
    expect(usernameKey('   ')).toBeUndefined();
  });

  it('when usernames differ only in ASCII case, then the keys are equal', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_.]{1,20}$/), (u) => {
        expect(usernameKey(u.toUpperCase())).toBe(usernameKey(u.toLowerCase()));
      }),
    );
  });
});

describe('linkScore', () => {
  it('when nothing is shared, then 0', () => {
    expect(linkScore([])).toBe(0);
  });

  it('when the browser is shared, then 1 however many accounts share it', () => {
    expect(linkScore([{ type: 'browser', sharedBy: 2 }])).toBe(1);
    expect(
      linkScore([
        { type: 'browser', sharedBy: 500 },
        { type: 'name', sharedBy: 9 },
      ]),
    ).toBe(1);
  });

  it('when only the two accounts share an identifier that finds links, then its base weight', () => {
    for (const type of MATCH_TYPES.filter((t) => !CORROBORATING.has(t)))
      expect(linkScore([{ type, sharedBy: 2 }])).toBeCloseTo(LINK_BASE_WEIGHTS[type], 12);
  });

  it('when the two share only a name, a network or both, then 0: namesakes and neighbours are no link', () => {
    expect([...CORROBORATING].sort()).toEqual(['name', 'network']);
    expect(linkScore([{ type: 'name', sharedBy: 2 }])).toBe(0);
    expect(linkScore([{ type: 'network', sharedBy: 2 }])).toBe(0);
    expect(
      linkScore([
        { type: 'name', sharedBy: 2 },
        { type: 'network', sharedBy: 2 },
      ]),
    ).toBe(0);
  });

  it('when a device is shared by 7, 12 and 33 accounts, then 0.4, 0.2 and just over 0.01; by 34, nothing', () => {
    expect(evidenceWeight({ type: 'device', sharedBy: 7 })).toBeCloseTo(0.4, 12);
    expect(evidenceWeight({ type: 'device', sharedBy: 12 })).toBeCloseTo(0.2, 12);
    expect(evidenceWeight({ type: 'device', sharedBy: 33 })).toBeCloseTo(0.8 * 0.5 ** (31 / 5), 12);
    expect(evidenceWeight({ type: 'device', sharedBy: 34 })).toBe(0);
    expect(LINK_HALVING_ACCOUNTS.device).toBe(5);
  });

  it("when more accounts than the type's crowd limit share an identifier, then it weighs 0; at the limit, at least LEAST_EVIDENCE", () => {
    for (const type of MATCH_TYPES.filter((t) => t !== 'browser')) {
      const limit = crowdLimit(type);
      expect(evidenceWeight({ type, sharedBy: limit })).toBeGreaterThanOrEqual(LEAST_EVIDENCE);
      expect(evidenceWeight({ type, sharedBy: limit + 1 })).toBe(0);
    }
    expect(crowdLimit('browser')).toBe(Number.POSITIVE_INFINITY);
    expect(Object.fromEntries(MATCH_TYPES.map((t) => [t, crowdLimit(t)]))).toEqual({
      browser: Number.POSITIVE_INFINITY,
      email: 131,
      phone: 66,
      mobile_id: 34,
      apple_device_check: 34,
      device: 33,
      username: 120,
      network: 16,
      name: 11,
    });
  });

  it('when a name corroborates a device shared by the two alone, then the noisy-OR 1 - 0.2 * 0.7 = 0.86', () => {
    expect(
      linkScore([
        { type: 'device', sharedBy: 2 },
        { type: 'name', sharedBy: 2 },
      ]),
    ).toBeCloseTo(0.86, 12);
  });

  it('when the only identifier that finds links is past its crowd limit, then the name beside it counts nothing', () => {
    expect(
      linkScore([
        { type: 'device', sharedBy: 34 },
        { type: 'name', sharedBy: 2 },
      ]),
    ).toBe(0);
  });

  it('when sharedBy is below 2 or not a number, then it counts as 2', () => {
    expect(evidenceWeight({ type: 'email', sharedBy: 1 })).toBe(LINK_BASE_WEIGHTS.email);
    expect(evidenceWeight({ type: 'email', sharedBy: 0 })).toBe(LINK_BASE_WEIGHTS.email);
    expect(evidenceWeight({ type: 'email', sharedBy: Number.NaN })).toBe(LINK_BASE_WEIGHTS.email);
  });

  it('when any evidence, then the score is in [0, 1] and does not depend on the order', () => {
    fc.assert(
      fc.property(fc.array(evidence, { maxLength: 10 }), (e) => {
        const score = linkScore(e);
        expect(inUnit(score)).toBe(true);
        expect(linkScore([...e].reverse())).toBeCloseTo(score, 12);
        if (e.some((x) => x.type === 'browser')) expect(score).toBe(1);
      }),
    );
  });

  it("when another identifier is shared, then the score never falls, and once found rises by at most that identifier's weight", () => {
    fc.assert(
      fc.property(fc.array(evidence, { maxLength: 10 }), evidence, (e, more) => {
        const before = linkScore(e);
        const after = linkScore([...e, more]);
        expect(after).toBeGreaterThanOrEqual(before - EPS);
        expect(after).toBeLessThanOrEqual(noisyOr([...e, more].map(evidenceWeight)) + EPS);
        if (before > 0) expect(after - before).toBeLessThanOrEqual(evidenceWeight(more) + EPS);
        expect(evidenceWeight(more)).toBeLessThanOrEqual(LINK_BASE_WEIGHTS[more.type]);
      }),
    );
  });

  it('when more accounts share an identifier, then its weight and the link score never rise', () => {
    fc.assert(
      fc.property(
        fc.array(evidence, { maxLength: 6 }),
        matchType,
        sharedBy,
        fc.nat({ max: 1000 }),
        (rest, type, n, extra) => {
          expect(evidenceWeight({ type, sharedBy: n + extra })).toBeLessThanOrEqual(
            evidenceWeight({ type, sharedBy: n }) + EPS,
          );
          expect(linkScore([...rest, { type, sharedBy: n + extra }])).toBeLessThanOrEqual(
            linkScore([...rest, { type, sharedBy: n }]) + EPS,
          );
        },
      ),
    );
  });
});
