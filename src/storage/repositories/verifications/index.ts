/** Verification sessions, their captures and their single terminal transition. */
import type { Knex } from 'knex';
import type { SecretBox } from '../../../security/secrets';
import { addCapture, latestCapturesOf } from './captures';
import { eraseMedia, forgetAccount, mediaDue } from './erasure';
import type { CaptureRecord, VerificationRecord } from './record';
import {
  addAttempt,
  endVerification,
  expiredVerifications,
  findVerification,
  insertVerification,
  tieToAccount,
  verificationsOfAccount,
  type Ending,
} from './sessions';

export type { CaptureRecord, VerificationRecord, VerificationType } from './record';

/** Each method runs on `trx` when given, else on `db`; a write that must be atomic with others takes one. */
export function makeVerificationRepository(db: Knex, box: SecretBox) {
  return {
    insert: (v: VerificationRecord, trx: Knex = db) => insertVerification(trx, v),
    find: (id: string, trx: Knex = db) => findVerification(trx, box, id),
    end: (id: string, e: Ending, trx: Knex) => endVerification(trx, box, id, e),
    tieToAccount: (id: string, accountId: string, trx: Knex = db) => tieToAccount(trx, id, accountId),
    addCapture: (c: CaptureRecord, trx: Knex = db) => addCapture(trx, c),
    /** The newest capture of each kind of a session. */
    latestCaptures: async (sessionId: string, trx: Knex = db): Promise<CaptureRecord[]> =>
      (await latestCapturesOf(trx, [sessionId])).get(sessionId) ?? [],
    ofAccount: (projectId: string, accountId: string, limit: number, trx: Knex = db) =>
      verificationsOfAccount(trx, box, projectId, accountId, limit),
    latestCapturesOf: (sessionIds: readonly string[], trx: Knex = db) => latestCapturesOf(trx, sessionIds),
    addAttempt: (id: string, trx: Knex) => addAttempt(trx, id),
    forgetAccount: (projectId: string, accountId: string, trx: Knex) => forgetAccount(trx, projectId, accountId),
    mediaDue: (projectId: string, before: Date, limit: number, trx: Knex = db) =>
      mediaDue(trx, projectId, before, limit),
    eraseMedia: (ids: readonly string[], at: Date, trx: Knex) => eraseMedia(trx, ids, at),
    expired: (now: Date, limit: number, trx: Knex = db) => expiredVerifications(trx, box, now, limit),
  };
}

export type VerificationRepository = ReturnType<typeof makeVerificationRepository>;
