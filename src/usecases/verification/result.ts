/**
 * The result object of a verification: the facts gathered once (the project's matches, the
 * account's lists), then judged by the domain (`domain/verification/result.ts`). Media URLs are
 * stored unsigned and signed when the result leaves the service (signed-urls.ts), so they hold
 * 60 minutes from sending.
 */
import type { FaceMatchResult, IdCheckResult } from '../../api-types';
import { nameKey } from '../../domain/linking';
import type { DocumentFields } from '../../domain/verification/analysis';
import { verificationMatches, type DocumentKeys } from '../../domain/verification/matches';
import { verificationResult, type ResultInput } from '../../domain/verification/result';
import type { SecretBox } from '../../security/secrets';
import type { ListRepository } from '../../storage/repositories/lists';
import type { VerificationRecord } from '../../storage/repositories/verifications';
import { gatherMatches, type MatchDeps } from './matches';

export interface ResultDeps extends MatchDeps {
  lists: ListRepository;
  secretBox: SecretBox;
}

/** What a successful analysis leaves to enrol, written with the terminal transition. */
export interface Enrolment {
  embedding: number[];
  numberKey?: string;
  nameKey?: string;
}

/** The keyed digests a document is matched on: its number (with its issuer) and its holder (name and date of birth). */
export function documentKeys(box: SecretBox, fields: DocumentFields | null): DocumentKeys {
  if (!fields) return {};
  const number = fields.idNumber.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const name = nameKey(fields.firstName, fields.lastName);
  return {
    numberKey: number ? box.digest(`number|${fields.countryCode ?? ''}|${fields.state}|${number}`) : undefined,
    // A name alone links every John Smith; with the date of birth it names one person.
    nameKey: name && fields.dateOfBirth ? box.digest(`name|${name}|${fields.dateOfBirth}`) : undefined,
  };
}

/**
 * The result, and what to enrol. `mediaUrl(kind)` is the capture's unsigned URL; `referring`
 * the referring SDK session when there is one.
 */
export async function buildResult(
  deps: ResultDeps,
  input: Omit<ResultInput, 'session' | 'matches' | 'repeat' | 'lists'> & { record: VerificationRecord },
): Promise<{ result: FaceMatchResult | IdCheckResult; enrolment: Enrolment }> {
  const { record, selfie, document } = input;
  const keys = documentKeys(deps.secretBox, document?.fields ?? null);
  const found = await gatherMatches(deps, record, selfie, input.device, keys);
  const lists = record.accountId
    ? ((await deps.lists.ofAccounts(record.projectId, [record.accountId])).get(record.accountId) ?? [])
    : [];
  const { matches, repeat } = verificationMatches(found);
  const result = verificationResult({ ...input, session: record, matches, repeat, lists });
  return { result, enrolment: { embedding: selfie.embedding, ...keys } };
}
