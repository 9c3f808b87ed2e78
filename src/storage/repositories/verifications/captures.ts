/** The images captured during a verification session. */
import type { Knex } from 'knex';
import { captureOf, type CaptureRecord } from './record';

/** Records a captured image of an open session. */
export async function addCapture(db: Knex, c: CaptureRecord): Promise<void> {
  await db('verification_captures').insert({
    id: c.id,
    session_id: c.sessionId,
    kind: c.kind,
    media_id: c.mediaId,
    content_type: c.contentType,
    size: c.size,
    created_at: c.createdAt.getTime(),
  });
}

/** The newest capture of each kind of each of these sessions (by `(session_id, kind, created_at)`). */
export async function latestCapturesOf(db: Knex, sessionIds: readonly string[]): Promise<Map<string, CaptureRecord[]>> {
  const out = new Map<string, CaptureRecord[]>(sessionIds.map((id) => [id, []]));
  if (sessionIds.length === 0) return out;
  const rows = await db('verification_captures')
    .whereIn('session_id', [...sessionIds])
    .orderBy([{ column: 'session_id' }, { column: 'kind' }, { column: 'created_at', order: 'desc' }, { column: 'id' }]);
  const seen = new Set<string>();
  for (const r of rows) {
    const key = `${r.session_id}\u0000${r.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.get(String(r.session_id))?.push(captureOf(r));
  }
  return out;
}
