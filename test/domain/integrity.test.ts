/** The pure parts of ingestion's integrity checks: the challenge verdict and the header readers. */
import { randomBytes } from 'node:crypto';
import type { IngestSession } from '../../src/api-types';
import { integrityVerdict, payloadMac, worseVerdict, type ChallengeRecord } from '../../src/domain/session/integrity';
import { headerBrands, preferredLanguage } from '../../src/domain/signals/received';

const NOW = new Date('2026-11-20T12:00:00Z');
const key = randomBytes(32);
const base: IngestSession = { session_id: 's-1', source: 'web', device_id: 'd-1', languages: ['en-GB'] };
const challenge = (over: Partial<ChallengeRecord> = {}): ChallengeRecord => ({
  id: 'c'.repeat(32),
  projectId: 'p-1',
  key,
  expiresAt: new Date(NOW.getTime() + 60_000),
  sessionId: null,
  ...over,
});
const bound = (body: IngestSession): IngestSession => ({
  ...body,
  integrity: { challenge: 'c'.repeat(32), mac: payloadMac(key, body) },
});
const verdict = (body: IngestSession, record: ChallengeRecord | undefined) =>
  integrityVerdict({ body, projectId: 'p-1', challenge: record, now: NOW });

describe('integrityVerdict', () => {
  it('when the post is bound to a fresh challenge of the project, or to the one its own session consumed, then valid', () => {
    expect(verdict(bound(base), challenge())).toBe('valid');
    expect(verdict(bound(base), challenge({ sessionId: 's-1' }))).toBe('valid');
  });

  it('when the challenge made another session, then replayed, whatever the MAC', () => {
    expect(verdict(bound(base), challenge({ sessionId: 's-2' }))).toBe('replayed');
    expect(
      verdict(
        { ...bound(base), integrity: { challenge: 'c'.repeat(32), mac: '0'.repeat(64) } },
        challenge({ sessionId: 's-2' }),
      ),
    ).toBe('replayed');
  });

  it('when there is no binding, then forged on the web and unsigned_native for an app', () => {
    expect(verdict(base, undefined)).toBe('forged');
    expect(verdict({ ...base, source: 'ios' }, undefined)).toBe('unsigned_native');
    expect(verdict({ ...base, source: 'android' }, undefined)).toBe('unsigned_native');
  });

  it('when the challenge is unknown, expired, another project’s, or the MAC is not the post’s, then forged', () => {
    expect(verdict(bound(base), undefined)).toBe('forged');
    expect(verdict(bound(base), challenge({ expiresAt: NOW }))).toBe('forged');
    expect(verdict(bound(base), challenge({ projectId: 'p-2' }))).toBe('forged');
    expect(verdict({ ...bound(base), languages: ['de-DE'] }, challenge())).toBe('forged');
    expect(verdict(bound(base), challenge({ key: randomBytes(32) }))).toBe('forged');
  });

  it('when verdicts join, then the worse stays', () => {
    expect(worseVerdict('valid', 'forged')).toBe('forged');
    expect(worseVerdict('replayed', 'valid')).toBe('replayed');
    expect(worseVerdict('forged', 'replayed')).toBe('replayed');
    expect(worseVerdict('unsigned_native', 'valid')).toBe('unsigned_native');
  });
});

describe('headerBrands', () => {
  it('when Sec-CH-UA lists brands (escaped quotes, odd spacing), then brand/version pairs, sorted', () => {
    expect(headerBrands('"Chromium";v="142", "Not\\"A;Brand";v="99" ,"Google Chrome" ; v = "142"')).toEqual([
      'Chromium/142',
      'Google Chrome/142',
      'Not"A;Brand/99',
    ]);
    expect(headerBrands('garbage')).toEqual([]);
  });
});

describe('preferredLanguage', () => {
  it.each([
    ['en-US,en;q=0.9', 'en-us'],
    ['de;q=0.5, fr-CH', 'fr-ch'],
    ['*', undefined],
    ['', undefined],
    ['en;q=0.8,ja;q=0.8', 'en'],
  ])('when Accept-Language is %j, then the preferred tag is %j', (header, tag) => {
    expect(preferredLanguage(header)).toBe(tag);
  });
});
