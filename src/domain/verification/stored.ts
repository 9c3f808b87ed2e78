/**
 * A stored result in the shape results have now. A result is stored once, as it was produced,
 * and sent again later (verify-face / verify-id, a webhook's retry), so one stored by an earlier
 * release is brought up to date as it is read, never rewritten: results are sealed at rest, and
 * a migration cannot open them. Pure.
 */
import type { FaceMatchResult, IdCheckResult } from '../../api-types';
import { completeSessionData } from './result';

export function currentResult<T extends FaceMatchResult | IdCheckResult>(stored: T): T {
  return { ...stored, session_data: completeSessionData(stored.session_data) };
}
