/**
 * The project's enrolled faces and documents, which later verifications are matched against.
 * Faces are searched by brute force: every embedding of the project is opened and compared
 * (docs/analysis.md says how far that holds and what replaces it at scale). Documents are
 * matched on keyed digests by index.
 */
import type { Knex } from 'knex';
import type { SecretBox } from '../../security/secrets';

export interface EnrolledFace {
  sessionId: string;
  accountId?: string;
  embedding: Float32Array;
}

export function sealEmbedding(box: SecretBox, embedding: readonly number[]): string {
  return box.encrypt(Buffer.from(Float32Array.from(embedding).buffer).toString('base64'));
}

export function openEmbedding(box: SecretBox, sealed: string): Float32Array {
  const bytes = Buffer.from(box.decrypt(sealed), 'base64');
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

/** What a session enrols: its face's embedding (sealed at rest) or its document's keyed digests. */
export interface FaceEnrolment {
  sessionId: string;
  projectId: string;
  accountId?: string;
  embedding: readonly number[];
  at: Date;
}
export interface DocumentEnrolment {
  sessionId: string;
  projectId: string;
  accountId?: string;
  numberKey?: string;
  nameKey?: string;
  at: Date;
}

export async function enrolFace(db: Knex, box: SecretBox, f: FaceEnrolment): Promise<void> {
  await db('verification_faces')
    .insert({
      session_id: f.sessionId,
      project_id: f.projectId,
      account_id: f.accountId ?? null,
      embedding: sealEmbedding(box, f.embedding),
      created_at: f.at.getTime(),
    })
    .onConflict('session_id')
    .ignore();
}

/**
 * Calls `visit` with every enrolled face of the project that belongs to an account other
 * than `excludeAccount`, in pages (so memory stays flat however many there are).
 */
export async function eachFace(
  db: Knex,
  box: SecretBox,
  projectId: string,
  excludeAccount: string | undefined,
  visit: (face: EnrolledFace) => void,
  page = 2000,
): Promise<void> {
  let after = '';
  for (;;) {
    const q = db('verification_faces')
      .where('project_id', projectId)
      .whereNotNull('account_id')
      .where('session_id', '>', after)
      .orderBy('session_id')
      .limit(page);
    if (excludeAccount !== undefined) q.whereNot('account_id', excludeAccount);
    const rows: { session_id: string; account_id: string; embedding: string }[] = await q.select(
      'session_id',
      'account_id',
      'embedding',
    );
    for (const r of rows)
      visit({ sessionId: r.session_id, accountId: r.account_id, embedding: openEmbedding(box, r.embedding) });
    const last = rows.at(-1);
    if (rows.length < page || last === undefined) return;
    after = last.session_id;
  }
}

export async function enrolDocument(db: Knex, d: DocumentEnrolment): Promise<void> {
  await db('verification_documents')
    .insert({
      session_id: d.sessionId,
      project_id: d.projectId,
      account_id: d.accountId ?? null,
      number_key: d.numberKey ?? null,
      name_key: d.nameKey ?? null,
      created_at: d.at.getTime(),
    })
    .onConflict('session_id')
    .ignore();
}

/** Accounts (other than `excludeAccount`) with a document of this key, at most `limit`. */
export async function accountsWithDocument(
  db: Knex,
  projectId: string,
  column: 'number_key' | 'name_key',
  key: string,
  excludeAccount: string | undefined,
  limit: number,
): Promise<string[]> {
  const q = db('verification_documents')
    .where({ project_id: projectId, [column]: key })
    .whereNotNull('account_id')
    .distinct('account_id')
    .limit(limit);
  if (excludeAccount !== undefined) q.whereNot('account_id', excludeAccount);
  return (await q).map((r: { account_id: string }) => r.account_id);
}

/** The enrolled face of one session (whatever its account); undefined when it has none. */
export async function faceOf(db: Knex, box: SecretBox, sessionId: string): Promise<Float32Array | undefined> {
  const row: { embedding: string } | undefined = await db('verification_faces')
    .where('session_id', sessionId)
    .first('embedding');
  return row && openEmbedding(box, row.embedding);
}

/** The account's enrolled faces but `excludeSession`'s, newest first, at most `limit`. */
export async function accountFaces(
  db: Knex,
  box: SecretBox,
  projectId: string,
  accountId: string,
  excludeSession: string,
  limit = 100,
): Promise<Float32Array[]> {
  const rows: { embedding: string }[] = await db('verification_faces')
    .where({ project_id: projectId, account_id: accountId })
    .whereNot('session_id', excludeSession)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .select('embedding');
  return rows.map((r) => openEmbedding(box, r.embedding));
}

/** Enrolls a session's face and document for an account (enroll): only rows that have no account yet. */
export async function tieToAccount(db: Knex, sessionId: string, accountId: string): Promise<void> {
  for (const table of ['verification_faces', 'verification_documents'])
    await db(table).where('session_id', sessionId).whereNull('account_id').update({ account_id: accountId });
}

/** Removes an account's faces and documents (with the account's erasure). */
export async function forgetAccount(db: Knex, projectId: string, accountId: string): Promise<void> {
  await db('verification_faces').where({ project_id: projectId, account_id: accountId }).delete();
  await db('verification_documents').where({ project_id: projectId, account_id: accountId }).delete();
}

/** Retention: forgets the enrolled faces and document keys of these verification sessions. */
export async function forgetSessions(db: Knex, sessionIds: readonly string[]): Promise<number> {
  if (sessionIds.length === 0) return 0;
  const ids = [...sessionIds];
  const faces = await db('verification_faces').whereIn('session_id', ids).delete();
  const documents = await db('verification_documents').whereIn('session_id', ids).delete();
  return faces + documents;
}

/** The reads run on `db`; each write on `trx` when given, else on `db`. */
export function makeVerificationIndex(db: Knex, box: SecretBox) {
  return {
    enrolFace: (f: FaceEnrolment, trx: Knex = db) => enrolFace(trx, box, f),
    eachFace: (
      projectId: string,
      excludeAccount: string | undefined,
      visit: (face: EnrolledFace) => void,
      page?: number,
    ) => eachFace(db, box, projectId, excludeAccount, visit, page),
    enrolDocument: (d: DocumentEnrolment, trx: Knex = db) => enrolDocument(trx, d),
    accountsWithDocument: (
      projectId: string,
      column: 'number_key' | 'name_key',
      key: string,
      excludeAccount: string | undefined,
      limit: number,
    ) => accountsWithDocument(db, projectId, column, key, excludeAccount, limit),
    faceOf: (sessionId: string) => faceOf(db, box, sessionId),
    accountFaces: (projectId: string, accountId: string, excludeSession: string, limit?: number) =>
      accountFaces(db, box, projectId, accountId, excludeSession, limit),
    tieToAccount: (sessionId: string, accountId: string, trx: Knex = db) => tieToAccount(trx, sessionId, accountId),
    forgetAccount: (projectId: string, accountId: string, trx: Knex = db) => forgetAccount(trx, projectId, accountId),
    forgetSessions: (sessionIds: readonly string[], trx: Knex = db) => forgetSessions(trx, sessionIds),
  };
}

export type VerificationIndex = ReturnType<typeof makeVerificationIndex>;
