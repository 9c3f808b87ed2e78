/**
 * The one terminal transition of a session: its outcome, what a result enrols and its webhook,
 * in one idempotent transaction.
 */
import type { FaceMatchCompleted, FaceMatchResult, IdCheckCompleted, IdCheckResult } from '../../api-types';
import { ENDINGS, type Ending } from '../../domain/verification/lifecycle';
import type { VerificationRecord } from '../../storage/repositories/verifications';
import type { VerificationDeps } from './deps';
import type { Enrolment } from './result';

const EVENT_TYPE = {
  'face-match': 'verification.face-match.completed',
  'id-check': 'verification.id-check.completed',
} as const;

type Outcome = Ending | { result: FaceMatchResult | IdCheckResult; enrolment: Enrolment };

/** The webhook's envelope of the session's end. */
function completedEnvelope(
  record: VerificationRecord,
  requestId: string,
  now: Date,
  outcome: Outcome,
): FaceMatchCompleted | IdCheckCompleted {
  const success = 'result' in outcome;
  return {
    request_id: requestId,
    session_id: record.id,
    project_id: record.projectId,
    event_type: EVENT_TYPE[record.type],
    created_at: record.createdAt.toISOString(),
    completed_at: now.toISOString(),
    status: success ? 'success' : 'error',
    data: success ? outcome.result : null,
    error: success ? null : { code: outcome.code, message: outcome.message },
  } as FaceMatchCompleted | IdCheckCompleted;
}

/** Ends the session with `outcome` and queues its webhook; false when it had already ended. */
export async function endSession(
  deps: VerificationDeps,
  record: VerificationRecord,
  requestId: string,
  now: Date,
  outcome: Outcome,
): Promise<boolean> {
  const { verifications, index, outbox } = deps;
  const envelope = completedEnvelope(record, requestId, now, outcome);
  const success = 'result' in outcome;
  // A project that unsubscribed from the event (`webhook_events`) ends the session without it.
  const project = await deps.projects.findById(record.projectId);
  const wanted = project?.webhookEvents.includes(envelope.event_type) ?? true;
  const ended = await deps.db.transaction(async (trx) => {
    const transition = {
      outcome: success ? 'success' : outcome.code,
      result: success ? outcome.result : undefined,
      webhookRequestId: requestId,
      at: now,
    };
    if (!(await verifications.end(record.id, transition, trx))) return false;
    if ('enrolment' in outcome) {
      // The face and the document are enrolled with the result: later verifications are matched against them.
      const { embedding, numberKey, nameKey } = outcome.enrolment;
      const owner = { sessionId: record.id, projectId: record.projectId, accountId: record.accountId };
      await index.enrolFace({ ...owner, embedding, at: now }, trx);
      if (numberKey || nameKey) await index.enrolDocument({ ...owner, numberKey, nameKey, at: now }, trx);
    }
    if (wanted) {
      const { event_type: eventType } = envelope;
      const body = JSON.stringify(envelope);
      await outbox.enqueue({ requestId, projectId: record.projectId, sessionId: record.id, eventType, body, now }, trx);
    }
    return true;
  });
  // After the commit, never inside the transaction: a dispatcher woken earlier would not see the row yet.
  if (ended && wanted) deps.webhooksQueued();
  return ended;
}

/** Ends an open session with an error and queues its webhook; false when it had already ended. */
export function endWithError(deps: VerificationDeps, record: VerificationRecord, ending: Ending): Promise<boolean> {
  return endSession(deps, record, deps.random.uuid(), deps.clock.now(), ending);
}

/** Ends a session past its 30 days (the sweeper's work, done at once when the session is used after its time). */
export function endExpired(deps: VerificationDeps, record: VerificationRecord): Promise<boolean> {
  return endWithError(deps, record, ENDINGS.expired);
}
