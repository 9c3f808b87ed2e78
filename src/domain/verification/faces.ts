/**
 * Comparing faces: the similarity of two embeddings and what it means. The thresholds are
 * calibrated on the engine's model (docs/analysis.md records the measured figures).
 */
import type { FaceAgeEstimate } from '../../api-types';
import type { FaceFindings } from './analysis';

/** The dot product of two L2-normalised embeddings: their cosine similarity, -1 to 1. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0)
    throw new Error(`embeddings of different sizes (${a.length}, ${b.length}) cannot be compared`);
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!; // i < a.length === b.length
  return dot;
}

/** How alike two faces are: their cosine similarity clamped to 0..1 (opposite and unrelated faces are both 0). */
export function faceSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.min(1, Math.max(0, cosine(a, b)));
}

export const FACE_THRESHOLDS = {
  /**
   * At or above: the same person (an enrolled face on another account is a repeat face).
   * Measured (docs/analysis.md): strangers' pairs reach 0.646 at most (1% at or above 0.6);
   * the same photo altered stays above 0.69 (1st percentile 0.81).
   */
  samePerson: 0.7,
  /**
   * Selfie against the document's portrait: below `low` the flag `low_id_face_match_score`,
   * below `moderate` `moderate_id_face_match_score`.
   */
  low: 0.45,
  moderate: 0.6,
  /**
   * Below this liveness the selfie is taken to be a print, a screen or a mask
   * (`liveness_failed`). The models' liveness is a weak signal (genuine faces measured as low
   * as 0.38, median 0.63), so only a clearly low score is flagged.
   */
  liveness: 0.3,
};

/** Whether two faces are the same person: their similarity reaches `FACE_THRESHOLDS.samePerson` (a repeat face, a verification match). */
export function isSamePerson(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  return faceSimilarity(a, b) >= FACE_THRESHOLDS.samePerson;
}

/** Whether `face` is the same person as any of `enrolled` (verify-identity's `match`). */
export function matchesAny(face: ArrayLike<number>, enrolled: readonly ArrayLike<number>[]): boolean {
  return enrolled.some((other) => isSamePerson(face, other));
}

/** The age bands' lower bounds, highest first (DocumentSignals.face_age_estimate). */
export const AGE_BANDS = [
  [65, 'over65'],
  [50, 'over50'],
  [40, 'over40'],
  [30, 'over30'],
  [25, 'over25'],
  [21, 'over21'],
  [18, 'over18'],
  [16, 'over16'],
  [13, 'over13'],
  [8, 'over8'],
] as const satisfies readonly (readonly [number, NonNullable<FaceAgeEstimate>])[];

/** The age band of an estimated age (the highest band it reaches, `under8` below them all); null without an estimate. */
export function faceAgeBand(selfie: Pick<FaceFindings, 'age'>): FaceAgeEstimate {
  const age = selfie.age;
  if (age === null || !Number.isFinite(age)) return null;
  return AGE_BANDS.find(([from]) => age >= from)?.[1] ?? 'under8';
}
