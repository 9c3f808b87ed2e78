/** The verification verdicts as pure functions over findings (src/domain/verification/). */
import {
  ageOn,
  dateProblems,
  documentDate,
  documentSignals,
  idValidity,
  isExpired,
} from '../../src/domain/verification/document';
import { faceAgeBand, faceSimilarity } from '../../src/domain/verification/faces';
import { compareWithReferring, referringBooleans } from '../../src/domain/verification/referring';
import { FLAG_WEIGHTS, verdict } from '../../src/domain/verification/verdict';
import type { Session } from '../../src/api-types';
import type { DocumentFields, DocumentFindings } from '../../src/domain/verification/analysis';

const NOW = new Date('2026-11-20T12:00:00Z');
const fields = (over: Partial<DocumentFields> = {}): DocumentFields => ({
  firstName: 'A',
  lastName: 'B',
  dateOfBirth: '1990-11-21',
  dateOfExpiration: '2030-01-01',
  dateOfIssue: '2020-01-01',
  idNumber: 'X1',
  idNumber2: null,
  address: { street: '', city: '', state: '', postalCode: '', country: '' },
  countryCode: 'US',
  state: 'CA',
  templateType: 'driver_license',
  ...over,
});
const doc = (over: Partial<DocumentFindings> = {}): DocumentFindings => ({
  barcode: 'read',
  source: 'pdf417',
  fields: fields(),
  checks: [{ name: 'aamva_header', passed: true }],
  face: null,
  edges: 'full',
  ...over,
});
const face = { embedding: [1, 0], liveness: 1, age: 30, confidence: 1 };

describe('document dates', () => {
  test('when the birthday is tomorrow, then the age has not turned yet; on the day, it has', () => {
    expect(ageOn('1990-11-21', NOW)).toBe(35);
    expect(ageOn('1990-11-20', NOW)).toBe(36);
    expect(ageOn('2000-02-29', new Date('2026-02-28T00:00:00Z'))).toBe(25);
  });
  test('when a date is not a calendar date, then it is not shown and is a failed check', () => {
    expect(documentDate('2026-02-30')).toBe('');
    expect(documentDate('2026-02-03')).toBe('02/03/2026');
    expect(dateProblems(fields({ dateOfBirth: '1990-13-01' }), NOW)).toEqual(['date_of_birth_invalid']);
  });
  test('when the document expires today it is still valid; yesterday, expired', () => {
    expect(isExpired(fields({ dateOfExpiration: '2026-11-20' }), NOW)).toBe(false);
    expect(isExpired(fields({ dateOfExpiration: '2026-11-19' }), NOW)).toBe(true);
  });
  test('when the dates contradict each other, then each contradiction is named', () => {
    expect(dateProblems(fields({ dateOfIssue: '1980-01-01' }), NOW)).toEqual(['issued_before_birth']);
    expect(dateProblems(fields({ dateOfExpiration: '2019-01-01' }), NOW)).toEqual(['expires_before_issue']);
    expect(dateProblems(fields({ dateOfIssue: '2027-01-01', dateOfExpiration: '2035-01-01' }), NOW)).toEqual([
      'date_of_issue_in_future',
    ]);
  });
});

describe('document signals', () => {
  test('when every check passes, then likely authentic; one failed, possible fake; two, likely fake; none made, undetermined', () => {
    expect(idValidity(doc(), NOW)).toBe('likely_authentic_id');
    expect(
      idValidity(
        doc({
          checks: [
            { name: 'a', passed: true },
            { name: 'b', passed: false },
          ],
        }),
        NOW,
      ),
    ).toBe('possible_fake_id');
    expect(
      idValidity(
        doc({
          checks: [
            { name: 'a', passed: false },
            { name: 'b', passed: false },
          ],
        }),
        NOW,
      ),
    ).toBe('likely_fake_id');
    expect(idValidity(doc({ checks: [] }), NOW)).toBe('undetermined');
    expect(idValidity(doc({ fields: null }), NOW)).toBe('undetermined');
  });
  test('when the portrait is found, then its similarity to the selfie; its status is undetermined (no tampering model runs)', () => {
    const s = documentSignals(face, doc({ face: { ...face, embedding: [0.6, 0.8] } }), NOW);
    expect(s).toMatchObject({
      id_face_match_score: 0.6,
      id_face_status: 'undetermined',
      is_id_digital_spoof: 'undetermined',
    });
  });
});

describe('faces', () => {
  test('when embeddings are compared, then their cosine clamped to 0..1; different sizes are refused', () => {
    expect(faceSimilarity([1, 0], [0, 1])).toBe(0);
    expect(faceSimilarity([1, 0], [-1, 0])).toBe(0);
    expect(() => faceSimilarity([1], [1, 0])).toThrow(/different sizes/);
  });
  test.each([
    [null, 'undetermined'],
    [12, 'under16'],
    [16, 'over16'],
    [18.5, 'over18'],
    [21, 'over21'],
    [40, 'over25'],
  ] as const)('when the estimated age is %s, then %s', (age, band) => {
    expect(faceAgeBand({ age })).toBe(band);
  });
});

describe('referring session', () => {
  const session = (
    over: {
      ip?: string;
      provider?: string;
      ua?: string;
      tz?: string;
      ipTz?: string;
      lat?: number;
      lon?: number;
      at?: string;
    } = {},
  ) =>
    ({
      session_id: 's',
      start_time: over.at ?? '2026-11-20T12:00:00Z',
      network: { ip_address: over.ip ?? '81.2.69.142', service_provider: over.provider ?? 'ISP A' },
      location: {
        timezone: over.ipTz ?? 'Europe/London',
        latitude: over.lat ?? 51.5,
        longitude: over.lon ?? -0.12,
        city: 'London',
      },
      browser: { user_agent: over.ua ?? 'UA', timezone: over.tz ?? 'Europe/London', type: 'Chrome' },
      device: { os: 'macOS', category: 'desktop', type: 'Mac' },
      risk_signals: { tor: false, vpn: false, proxy: false },
    }) as unknown as Session;

  test('when the address changes within its /24, then 0.3; on the same provider, 0.6; elsewhere, 1', () => {
    expect(compareWithReferring(session({ ip: '81.2.69.10' }), session()).ip_mismatch).toBe(0.3);
    expect(compareWithReferring(session({ ip: '81.9.9.9' }), session()).ip_mismatch).toBe(0.6);
    expect(compareWithReferring(session({ ip: '81.9.9.9', provider: 'Other' }), session()).ip_mismatch).toBe(1);
  });
  test('when the zones are aliases of one offset, then no time-zone mismatch', () => {
    expect(compareWithReferring(session({ tz: 'Europe/Belfast' }), session()).device_timezone_mismatch).toBe(0);
    expect(compareWithReferring(session({ tz: 'Asia/Tokyo' }), session()).device_timezone_mismatch).toBe(1);
  });
  test('when London to New York takes 8 hours, then possible; in 1 hour, impossible; ID Check sees booleans', () => {
    const ny = { lat: 40.7, lon: -74 };
    expect(compareWithReferring(session({ ...ny, at: '2026-11-20T20:00:00Z' }), session()).impossible_travel).toBe(0);
    const fast = compareWithReferring(session({ ...ny, at: '2026-11-20T13:00:00Z' }), session());
    expect(fast.impossible_travel).toBe(1);
    expect(referringBooleans(fast)).toEqual({
      impossible_travel: true,
      ip_mismatch: false,
      user_agent_mismatch: false,
    });
  });
});

describe('verdict', () => {
  const base = {
    flags: [],
    liveness: 0.9,
    repeat: { face: false, document: false, device: false },
    deviceRisk: false,
    ipDocumentCountryMismatch: false,
    lists: [],
    threshold: 0.8,
  };
  test('when flags combine, then the risk is their noisy-OR and the decision follows the threshold', () => {
    const below = verdict({ ...base, repeat: { face: true, document: false, device: true } });
    expect(below.risk_flags).toEqual(['repeat_face', 'repeat_device']);
    expect(below.risk_score).toBeCloseTo(1 - (1 - FLAG_WEIGHTS.repeat_face) * (1 - FLAG_WEIGHTS.repeat_device), 3);
    expect(below).toMatchObject({ risk_score: 0.79, decision: 'Real', rules: [] });
    const above = verdict({ ...base, repeat: { face: true, document: true, device: false } });
    expect(above).toMatchObject({
      risk_score: 0.91,
      decision: 'Fake',
      rules: [{ name: 'risk_threshold', description: expect.stringContaining('0.91') }],
    });
    expect(verdict(base)).toEqual({ risk_flags: [], risk_score: 0, decision: 'Real', rules: [] });
  });
  test('when the account is allow-listed, then Real whatever the risk', () => {
    expect(verdict({ ...base, liveness: 0, lists: ['allow'] })).toMatchObject({
      decision: 'Real',
      rules: [{ name: 'allow_list' }],
      risk_flags: ['liveness_failed'],
    });
  });
});

describe('docs/verification.md', () => {
  const doc = require('node:fs').readFileSync(
    require('node:path').join(__dirname, '../../docs/verification.md'),
    'utf8',
  ) as string;
  test('when the flag table is read, then every flag of the spec is there with the weight the code uses', () => {
    const rows = [...doc.matchAll(/^\| `([a-z_0-9]+)` \| ([0-9.]+) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(FLAG_WEIGHTS);
  });
  test('when the thresholds are read, then they are the code’s', () => {
    const { FACE_THRESHOLDS } = require('../../src/domain/verification/faces');
    expect(doc).toContain(`below ${FACE_THRESHOLDS.liveness} (a print`);
    expect(doc).toContain(`score below ${FACE_THRESHOLDS.low}`);
    expect(doc).toContain(`from ${FACE_THRESHOLDS.low} to below ${FACE_THRESHOLDS.moderate}`);
    expect(doc).toContain(`cosine similarity ≥ ${FACE_THRESHOLDS.samePerson} to this selfie`);
    const { IP_MISMATCH, USER_AGENT_MISMATCH } = require('../../src/domain/verification/referring');
    expect(doc).toContain(
      `0 same address; ${IP_MISMATCH.sameBlock} same /24 (IPv6 /64); ${IP_MISMATCH.sameProvider} same provider; ${IP_MISMATCH.other} otherwise`,
    );
    expect(doc).toContain(
      `${USER_AGENT_MISMATCH.version} another version of the same browser and OS; ${USER_AGENT_MISMATCH.browser} another browser`,
    );
  });
});
