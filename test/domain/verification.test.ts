/** The verification verdicts as pure functions over findings (src/domain/verification/). */
import {
  ageOn,
  dateProblems,
  documentDate,
  documentFlags,
  documentIntegrity,
  documentSignals,
  isExpired,
} from '../../src/domain/verification/document';
import {
  enrolmentErrorCode,
  identityErrorCode,
  resultErrorCode,
  type EnrolmentFacts,
  type ResultFacts,
} from '../../src/domain/verification/availability';
import { faceAgeBand, faceSimilarity, matchesAny } from '../../src/domain/verification/faces';
import { compareWithReferring, referringBooleans } from '../../src/domain/verification/referring';
import { currentResult } from '../../src/domain/verification/stored';
import { FLAG_WEIGHTS, verdict } from '../../src/domain/verification/verdict';
import type { FaceMatchResult, Session } from '../../src/api-types';
import { DAY_MS } from '../../src/domain/numbers';
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
  const checks = (...passed: boolean[]) => doc({ checks: passed.map((p, i) => ({ name: `c${i}`, passed: p })) });
  test('when every check passes, then likely authentic; one failed or none made, cannot confirm; two failed, likely fake', () => {
    expect(documentIntegrity(doc(), NOW)).toBe('passed');
    expect(documentSignals(face, doc(), NOW)).toMatchObject({
      id_validity: 'likely_authentic_id',
      id_text_status: 'likely_original_text',
    });
    expect(documentIntegrity(checks(true, false), NOW)).toBe('one_failed');
    expect(documentSignals(face, checks(true, false), NOW)).toMatchObject({
      id_validity: 'cannot_confirm_id_is_authentic',
      id_text_status: 'cannot_confirm_id_is_authentic',
    });
    expect(documentSignals(face, checks(false, false), NOW).id_validity).toBe('likely_fake_id');
    for (const unchecked of [checks(), doc({ fields: null })]) {
      expect(documentIntegrity(unchecked, NOW)).toBe('unchecked');
      expect(documentSignals(face, unchecked, NOW)).toMatchObject({
        id_validity: 'cannot_confirm_id_is_authentic',
        id_text_status: 'not_available',
      });
    }
  });
  test('when one check failed, then cannot_confirm_id_is_authentic; two, likely_fake_id; none made, neither', () => {
    const flagged = (d: DocumentFindings) =>
      documentFlags(face, d, NOW).filter((f) => f === 'likely_fake_id' || f === 'cannot_confirm_id_is_authentic');
    expect(flagged(checks(true, false))).toEqual(['cannot_confirm_id_is_authentic']);
    expect(flagged(checks(false, false))).toEqual(['likely_fake_id']);
    expect(flagged(checks())).toEqual([]);
    // The flag is named as the document's id_validity.
    expect(documentSignals(face, checks(false, false), NOW).id_validity).toBe('likely_fake_id');
  });
  test('when the portrait is found, then its similarity to the selfie; its tampering is not checked (no model runs), never a made-up pass', () => {
    const s = documentSignals(face, doc({ face: { ...face, embedding: [0.6, 0.8] } }), NOW);
    expect(s).toMatchObject({
      id_face_match_score: 0.6,
      id_face_status: 'ocr_template_does_not_support_detection',
      is_id_digital_spoof: 'could_not_confidently_determine_physical_id_user_needs_to_retry',
    });
  });
  test('when there is no portrait and no birth date, then 0 for both (integers, as clients parse them) and no flag from either', () => {
    const bare = doc({ face: null, fields: { ...doc().fields!, dateOfBirth: null } });
    expect(documentSignals(face, bare, NOW)).toMatchObject({
      id_age: 0,
      id_face_match_score: 0,
      id_face_status: 'not_available',
    });
    const flags = documentFlags(face, bare, NOW);
    expect(flags).not.toContain('id_age_below_16');
    expect(flags).not.toContain('low_id_face_match_score');
  });
});

describe('faces', () => {
  test('when embeddings are compared, then their cosine clamped to 0..1; different sizes are refused', () => {
    expect(faceSimilarity([1, 0], [0, 1])).toBe(0);
    expect(faceSimilarity([1, 0], [-1, 0])).toBe(0);
    expect(() => faceSimilarity([1], [1, 0])).toThrow(/different sizes/);
  });
  test.each([
    [null, null],
    [5, 'under8'],
    [8, 'over8'],
    [12, 'over8'],
    [13, 'over13'],
    [16, 'over16'],
    [18.5, 'over18'],
    [23, 'over21'],
    [25, 'over25'],
    [30, 'over30'],
    [44, 'over40'],
    [50, 'over50'],
    [70, 'over65'],
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
  test('when the capture device is risky, then high_device_risk, as the production service names it', () => {
    expect(verdict({ ...base, deviceRisk: true }).risk_flags).toEqual(['high_device_risk']);
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

describe('why verify-face / verify-id have no result', () => {
  const facts = (over: Partial<ResultFacts> = {}): ResultFacts => ({
    requested: 'id-check',
    type: 'id-check',
    state: 'ended',
    outcome: 'success',
    hasResult: true,
    captures: [],
    ...over,
  });
  test.each([
    ['a result', {}, undefined],
    ['the other endpoint', { requested: 'face-match' }, 'session_not_valid_for_this_endpoint'],
    ['an erased result', { hasResult: false }, 'session_not_found'],
    ['no capture yet', { state: 'open', outcome: undefined }, 'session_not_started'],
    [
      'one document side',
      { state: 'open', outcome: undefined, captures: ['selfie', 'id_front'] },
      'id_scan_not_complete',
    ],
    [
      'every capture, not completed',
      { state: 'open', outcome: undefined, captures: ['selfie', 'id_front', 'id_back'] },
      'session_not_complete',
    ],
    [
      'a Face Match selfie, not completed',
      { requested: 'face-match', type: 'face-match', state: 'open', outcome: undefined, captures: ['selfie'] },
      'session_not_complete',
    ],
    ['a cancel', { outcome: 'liveness_check_failed' }, 'liveness_check_failed'],
    ['attempts used up', { outcome: 'face_match_failed' }, 'liveness_check_failed'],
    ['no device data', { outcome: 'failed_to_collect_device_data' }, 'liveness_check_failed'],
    ['an unreadable document', { outcome: 'failed_to_process_id_scan' }, 'id_scan_failed'],
    ['30 days without a capture', { outcome: 'max_duration_exceeded' }, 'session_not_started'],
    ['30 days after the selfie', { outcome: 'max_duration_exceeded', captures: ['selfie'] }, 'id_scan_not_complete'],
  ] as const)('when the session has %s, then %s', (_what, over, code) => {
    expect(resultErrorCode(facts(over as Partial<ResultFacts>))).toBe(code);
  });
});

describe('why enroll / verify-identity refuse a session', () => {
  const now = new Date('2026-12-01T00:00:00Z');
  const enrolment = (over: Partial<EnrolmentFacts> = {}): EnrolmentFacts => ({
    requested: 'face-match',
    type: 'face-match',
    state: 'ended',
    outcome: 'success',
    hasResult: true,
    captures: [],
    accountId: 'amy',
    createdAt: new Date(now.getTime() - 29 * DAY_MS),
    now,
    maxAgeMs: 30 * DAY_MS,
    ...over,
  });
  test.each([
    ['a result and no account', {}, undefined],
    ['this account already', { tiedTo: 'amy', createdAt: new Date(now.getTime() - 40 * DAY_MS) }, undefined],
    ['another account', { tiedTo: 'bob' }, 'session_already_tied_to_an_account'],
    ['31 days of age', { createdAt: new Date(now.getTime() - 31 * DAY_MS) }, 'session_older_than_30_days'],
    ['no capture yet', { state: 'open', outcome: undefined }, 'session_not_started'],
    ['a cancel', { outcome: 'liveness_check_failed' }, 'liveness_check_failed'],
  ] as const)('when enrolling a session with %s, then %s', (_what, over, code) => {
    expect(enrolmentErrorCode(enrolment(over as Partial<EnrolmentFacts>))).toBe(code);
  });

  test('when verify-identity has a Face Match result and enrolled faces, then it compares; without faces, account_not_found; an ID Check, not valid', () => {
    const facts = enrolment();
    expect(identityErrorCode({ ...facts, enrolledFaces: 1 })).toBeUndefined();
    expect(identityErrorCode({ ...facts, enrolledFaces: 0 })).toBe('account_not_found');
    expect(identityErrorCode({ ...facts, type: 'id-check', enrolledFaces: 1 })).toBe(
      'session_not_valid_for_this_endpoint',
    );
  });

  test('when a face is the same person as one of the enrolled, then it matches; unrelated faces do not', () => {
    const a = [1, 0, 0];
    const b = [0, 1, 0];
    expect(matchesAny(a, [b, [0.99, 0.1, 0]])).toBe(true);
    expect(matchesAny(a, [b])).toBe(false);
    expect(matchesAny(a, [])).toBe(false);
  });
});

describe('results stored by an earlier release', () => {
  /** A Face Match result as releases up to 0.2.0 stored it: session_data without what was unknown. */
  const stored = {
    metadata: {
      project_id: 'p',
      session_id: 's',
      account_id: null,
      referring_session_id: null,
      request_id: 'r',
      timestamp: NOW.toISOString(),
    },
    decision: 'Real',
    risk_score: 0,
    risk_flags: [],
    lists: [],
    rules: [],
    device_network_signals: {},
    referring_session_signals: {},
    photo_urls: { face: 'file:face' },
    session_data: {
      true_country_code: 'GB',
      network: { ip_address: '81.2.69.142' },
      location: { country_code: 'GB', city: 'London' },
      browser: { type: 'Firefox' },
      device: { category: 'desktop', cpu_cores: 8 },
    },
    matches: { num_accounts_linked: 0, accounts_linked: [] },
    video_urls: [],
  } as unknown as FaceMatchResult;

  test('when one is read, then its session data carries zip_code, memory and gpu, and the rest as stored', () => {
    const now = currentResult(stored);
    expect(now.session_data).toEqual({
      ...stored.session_data,
      location: { country_code: 'GB', city: 'London', zip_code: '' },
      device: { category: 'desktop', cpu_cores: 8, memory: null, gpu: null },
    });
    expect({ ...now, session_data: stored.session_data }).toEqual(stored);
  });

  test('when its flags have the names of an earlier release, then it is read with the published ones', () => {
    const named = (risk_flags: string[], id_validity?: string) =>
      currentResult({
        ...stored,
        risk_flags,
        ...(id_validity ? { document_signals: { id_validity } } : {}),
      } as unknown as FaceMatchResult).risk_flags;
    expect(named(['repeat_face', 'device_risk'])).toEqual(['repeat_face', 'high_device_risk']);
    expect(named(['id_invalid', 'id_expired'], 'likely_fake_id')).toEqual(['likely_fake_id', 'id_expired']);
    expect(named(['id_invalid'], 'cannot_confirm_id_is_authentic')).toEqual(['cannot_confirm_id_is_authentic']);
    expect(named(['liveness_failed'])).toEqual(['liveness_failed']);
  });

  test('when a result of this release is read, then it is unchanged', () => {
    const fresh = currentResult(stored);
    expect(currentResult(fresh)).toEqual(fresh);
  });
});
