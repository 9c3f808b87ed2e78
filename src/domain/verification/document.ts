/**
 * An identity document's verdicts from what the engine read: the document signals, the data
 * in the interface's form (MM/DD/YYYY dates, empty strings where a field was not read) and the
 * document's risk flags, in the vocabulary ID Check clients already branch on (webhooks.yaml's
 * DocumentSignals). Nothing here claims a check that was not made: a field that could not be
 * determined gets the value the spec documents for that (`not_available`,
 * `cannot_confirm_id_is_authentic`, `0` for an age or a score that has no source). The flags are
 * judged on the findings themselves, so a stand-in `0` never raises one.
 */
import { countries, type TCountryCode } from 'countries-list';
import type { DocumentData, DocumentSignals, RiskFlag } from '../../api-types';
import type { DocumentFields, DocumentFindings, FaceFindings, IsoDate } from './analysis';
import { round3 } from '../numbers';
import { faceAgeBand, faceSimilarity, FACE_THRESHOLDS } from './faces';

/** Below this age (from the document's date of birth) the `id_age_below_16` flag is raised. */
export const MIN_ID_AGE = 16;

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date from `YYYY-MM-DD`, or undefined. */
function parseIso(date: IsoDate): { y: number; m: number; d: number } | undefined {
  const match = date ? ISO.exec(date) : null;
  if (!match) return undefined;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d
    ? { y, m, d }
    : undefined;
}

/** `MM/DD/YYYY`, or the empty string when the date was not read. */
export function documentDate(date: IsoDate): string {
  const p = parseIso(date);
  return p ? `${String(p.m).padStart(2, '0')}/${String(p.d).padStart(2, '0')}/${p.y}` : '';
}

/** Whole years from the date of birth to `now` (UTC calendar); undefined without a date of birth. */
export function ageOn(dateOfBirth: IsoDate, now: Date): number | undefined {
  const b = parseIso(dateOfBirth);
  if (!b) return undefined;
  const y = now.getUTCFullYear();
  const beforeBirthday = now.getUTCMonth() + 1 < b.m || (now.getUTCMonth() + 1 === b.m && now.getUTCDate() < b.d);
  return y - b.y - (beforeBirthday ? 1 : 0);
}

const dayOf = (date: IsoDate) => {
  const p = parseIso(date);
  return p ? Date.UTC(p.y, p.m - 1, p.d) : undefined;
};
const today = (now: Date) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

/** The document's expiry date has passed (a document is valid through its expiry day). */
export function isExpired(fields: DocumentFields | null, now: Date): boolean {
  const expiry = dayOf(fields?.dateOfExpiration ?? null);
  return expiry !== undefined && expiry < today(now);
}

/**
 * The dates' own consistency, beyond the engine's checks: a birth date in the future, an
 * issue date before birth or in the future, an expiry before the issue. Each is the name of a
 * failed check.
 */
export function dateProblems(fields: DocumentFields, now: Date): string[] {
  const birth = dayOf(fields.dateOfBirth);
  const issue = dayOf(fields.dateOfIssue);
  const expiry = dayOf(fields.dateOfExpiration);
  const problems: string[] = [];
  if (fields.dateOfBirth !== null && birth === undefined) problems.push('date_of_birth_invalid');
  if (birth !== undefined && birth > today(now)) problems.push('date_of_birth_in_future');
  if (issue !== undefined && issue > today(now)) problems.push('date_of_issue_in_future');
  if (birth !== undefined && issue !== undefined && issue < birth) problems.push('issued_before_birth');
  if (issue !== undefined && expiry !== undefined && expiry <= issue) problems.push('expires_before_issue');
  return problems;
}

const BARCODE_STATUS = {
  read: 'success',
  unreadable: 'barcode_requested_but_error_reading',
  not_found: 'barcode_requested_but_not_found',
  // The published spelling, which clients compare against.
  not_applicable: 'no_barcode_specificed_by_template',
} as const satisfies Record<DocumentFindings['barcode'], DocumentSignals['id_barcode_status']>;

const EDGES = {
  full: 'full_id_detected',
  partial: 'could_not_confidently_determine_full_id_user_needs_to_retry',
  none: 'could_not_confidently_determine_full_id_user_needs_to_retry',
} as const satisfies Record<DocumentFindings['edges'], DocumentSignals['is_full_id_captured']>;

/** The selfie against the document's portrait, 0..1, rounded to 3 places; null when the document shows no face. */
export function idFaceMatchScore(selfie: FaceFindings, document: DocumentFindings): number | null {
  return document.face ? round3(faceSimilarity(selfie.embedding, document.face.embedding)) : null;
}

/** The holder's age from the document's date of birth; undefined when none was read (or it is in the future). */
export function idAge(document: DocumentFindings, now: Date): number | undefined {
  const age = document.fields ? ageOn(document.fields.dateOfBirth, now) : undefined;
  return age !== undefined && age >= 0 ? age : undefined;
}

/**
 * The document's integrity from the checks that were made: `unchecked` when nothing was read or
 * no check could be made; `failed` when two checks failed or a date is impossible; `one_failed`
 * when one check failed; `passed` when every check passed.
 */
export function documentIntegrity(
  document: DocumentFindings,
  now: Date,
): 'passed' | 'one_failed' | 'failed' | 'unchecked' {
  if (!document.fields) return 'unchecked';
  const failed = document.checks.filter((c) => !c.passed).length;
  const dates = dateProblems(document.fields, now);
  if (dates.length > 0 || failed >= 2) return 'failed';
  if (failed === 1) return 'one_failed';
  return document.checks.length > 0 ? 'passed' : 'unchecked';
}

const VALIDITY = {
  passed: 'likely_authentic_id',
  failed: 'likely_fake_id',
  one_failed: 'cannot_confirm_id_is_authentic',
  unchecked: 'cannot_confirm_id_is_authentic',
} as const satisfies Record<ReturnType<typeof documentIntegrity>, DocumentSignals['id_validity']>;

const TEXT_STATUS = {
  passed: 'likely_original_text',
  failed: 'cannot_confirm_id_is_authentic',
  one_failed: 'cannot_confirm_id_is_authentic',
  unchecked: 'not_available',
} as const satisfies Record<ReturnType<typeof documentIntegrity>, DocumentSignals['id_text_status']>;

export function documentSignals(selfie: FaceFindings, document: DocumentFindings, now: Date): DocumentSignals {
  const integrity = documentIntegrity(document, now);
  return {
    // Integers and numbers always (published clients type them so); 0 where there is no source.
    id_age: idAge(document, now) ?? 0,
    face_age_estimate: faceAgeBand(selfie),
    id_face_match_score: idFaceMatchScore(selfie, document) ?? 0,
    id_barcode_status: BARCODE_STATUS[document.barcode],
    // No tampering model runs on the portrait: a found face is never a made-up pass.
    id_face_status: document.face ? 'ocr_template_does_not_support_detection' : 'not_available',
    id_text_status: TEXT_STATUS[integrity],
    // No screen-replay model runs on the document.
    is_id_digital_spoof: 'could_not_confidently_determine_physical_id_user_needs_to_retry',
    is_full_id_captured: EDGES[document.edges],
    id_validity: VALIDITY[integrity],
  };
}

/** The document's country name from its ISO code (English); empty when unknown. */
function countryName(code: string | null): string {
  return (code && countries[code as TCountryCode]?.name) || '';
}

export function documentData(document: DocumentFindings, photoUrls: DocumentData['photo_urls']): DocumentData {
  const f = document.fields;
  return {
    template_info: {
      document_country_code: f?.countryCode ?? '',
      document_country: countryName(f?.countryCode ?? null),
      document_state: f?.state ?? '',
      template_type: f?.templateType ?? 'unknown',
    },
    user_data: {
      first_name: f?.firstName ?? '',
      last_name: f?.lastName ?? '',
      date_of_birth: documentDate(f?.dateOfBirth ?? null),
      date_of_expiration: documentDate(f?.dateOfExpiration ?? null),
      date_of_issue: documentDate(f?.dateOfIssue ?? null),
      id_number: f?.idNumber ?? '',
      id_number2: f?.idNumber2 ?? null,
      address: {
        street: f?.address.street ?? '',
        city: f?.address.city ?? '',
        state: f?.address.state ?? '',
        postal_code: f?.address.postalCode ?? '',
        country: f?.address.country ?? '',
      },
    },
    photo_urls: photoUrls,
  };
}

/**
 * The document's own flags, from the findings (never from a stand-in 0 of the signals):
 * expired, holder under 16, a failed check, and how well the selfie matches the portrait.
 */
export function documentFlags(selfie: FaceFindings, document: DocumentFindings, now: Date): RiskFlag[] {
  const flags: RiskFlag[] = [];
  if (isExpired(document.fields, now)) flags.push('id_expired');
  const age = idAge(document, now);
  if (age !== undefined && age < MIN_ID_AGE) flags.push('id_age_below_16');
  // A failed check raises the flag named as its id_validity: likely_fake_id or cannot_confirm_id_is_authentic.
  const integrity = documentIntegrity(document, now);
  if (integrity === 'one_failed' || integrity === 'failed') flags.push(VALIDITY[integrity]);
  const score = idFaceMatchScore(selfie, document);
  if (score !== null && score < FACE_THRESHOLDS.low) flags.push('low_id_face_match_score');
  else if (score !== null && score < FACE_THRESHOLDS.moderate) flags.push('moderate_id_face_match_score');
  return flags;
}
