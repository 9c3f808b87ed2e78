/**
 * Verification sessions (Face Match, ID Check): creation, the single terminal transition with
 * its webhook queued in the same transaction, cancellation from the hosted page, the sweeper
 * that ends sessions after 30 days, and verify-face / verify-id.
 */
import type { FaceMatchCompleted, IdCheckCompleted, WebhookErrorCode } from '../api-types';
import type { Clock, Random } from '../clock';
import { AppError, BadRequestError, SessionNotFoundError } from '../errors';
import { constantTimeEqual, hashApiKey } from '../security/secrets';
import type { Db } from '../storage/db';
import type { Project } from '../storage/repositories/projects';
import type { VerificationRecord, VerificationRepository, VerificationType } from '../storage/repositories/verifications';
import type { Outbox } from '../webhooks/outbox';

/** Sessions can be completed for 30 days (the interface's limit). */
export const VERIFICATION_LIFETIME_MS = 30 * 24 * 3_600_000;

const EVENT_TYPE = {
  'face-match': 'verification.face-match.completed',
  'id-check': 'verification.id-check.completed',
} as const;

export interface VerificationDeps {
  db: Db;
  clock: Clock;
  random: Random;
  verifications: VerificationRepository;
  outbox: Outbox;
}

export interface Ending {
  code: WebhookErrorCode;
  message: string;
}

/** The customer's redirect URL with the outcome, as the hosted page sends the user there. */
export function redirectTo(record: VerificationRecord, success: boolean, errorMessage?: string): string | null {
  if (!record.redirectUrl) return null;
  const url = new URL(record.redirectUrl);
  url.searchParams.set('session_id', record.id);
  url.searchParams.set('success', String(success));
  if (errorMessage) url.searchParams.set('error_message', errorMessage);
  return url.toString();
}

export function makeVerificationUseCases(deps: VerificationDeps) {
  const { db, clock, random, verifications, outbox } = deps;

  /** Ends an open session with an error and queues its webhook; false when it had already ended. */
  async function endWithError(record: VerificationRecord, ending: Ending): Promise<boolean> {
    const now = clock.now();
    const requestId = random.uuid();
    const envelope: FaceMatchCompleted | IdCheckCompleted = {
      request_id: requestId,
      session_id: record.id,
      project_id: record.projectId,
      event_type: EVENT_TYPE[record.type],
      created_at: record.createdAt.toISOString(),
      completed_at: now.toISOString(),
      status: 'error',
      data: null,
      error: { code: ending.code, message: ending.message },
    } as FaceMatchCompleted | IdCheckCompleted;
    return db.transaction(async (trx) => {
      if (!(await verifications.end(record.id, { outcome: ending.code, webhookRequestId: requestId, at: now }, trx))) return false;
      await outbox.enqueue({ requestId, projectId: record.projectId, sessionId: record.id, eventType: envelope.event_type, body: JSON.stringify(envelope), now }, trx);
      return true;
    });
  }

  async function byToken(sessionId: string, token: string): Promise<VerificationRecord> {
    const record = await verifications.find(sessionId);
    if (!record) throw new SessionNotFoundError();
    if (!constantTimeEqual(record.tokenHash, hashApiKey(token))) throw new AppError(403, 'The capture token is not valid for this session');
    return record;
  }

  return {
    endWithError,

    async create(project: Project, body: { type: VerificationType; account_id?: string; referring_session_id?: string; redirect_url?: string }, options: { requestId: string; baseUrl: string }) {
      if (body.redirect_url && !/^https?:$/.test(new URL(body.redirect_url).protocol)) {
        throw new BadRequestError('redirect_url must be an http or https URL');
      }
      const now = clock.now();
      const token = random.bytes(32).toString('base64url');
      const record: VerificationRecord = {
        id: random.uuid(),
        projectId: project.id,
        type: body.type,
        accountId: body.account_id,
        referringSessionId: body.referring_session_id,
        redirectUrl: body.redirect_url,
        tokenHash: hashApiKey(token),
        attempts: 0,
        state: 'open',
        createdAt: now,
        expiresAt: new Date(now.getTime() + VERIFICATION_LIFETIME_MS),
      };
      await verifications.insert(record);
      return {
        request_id: options.requestId,
        session_id: record.id,
        url: `${options.baseUrl}/liveness/${record.id}?token=${token}`,
        expires_at: record.expiresAt.toISOString(),
      };
    },

    /** The hosted page's Cancel: liveness_check_failed (the interface's code for a user's cancel). */
    async cancel(sessionId: string, token: string) {
      const record = await byToken(sessionId, token);
      await endWithError(record, { code: 'liveness_check_failed', message: 'The user cancelled the verification.' });
      const ended = (await verifications.find(sessionId))!;
      const success = ended.outcome === 'success';
      return {
        session_id: sessionId,
        status: success ? ('success' as const) : ('error' as const),
        ...(success ? {} : { error_code: ended.outcome as WebhookErrorCode }),
        redirect_url: redirectTo(ended, success, success ? undefined : ended.outcome),
      };
    },

    /** Ends every open session past its 30 days with max_duration_exceeded; returns how many. */
    async sweep(limit = 500): Promise<number> {
      let ended = 0;
      for (const record of await verifications.expired(clock.now(), limit)) {
        if (await endWithError(record, { code: 'max_duration_exceeded', message: 'The session was not completed within 30 days of its creation.' })) ended++;
      }
      return ended;
    },

    /** verify-face / verify-id: the result of a session that ended with one. */
    async result(project: Project, sessionId: string, type: VerificationType): Promise<unknown> {
      const record = await verifications.find(sessionId);
      if (!record || record.projectId !== project.id) throw new SessionNotFoundError();
      if (record.type !== type) {
        throw new BadRequestError(`session_id names a ${record.type} session; use /liveness/${record.type === 'face-match' ? 'verify-face' : 'verify-id'}`);
      }
      if (record.state === 'open') throw new BadRequestError('The verification session is not completed yet');
      if (record.outcome !== 'success') throw new BadRequestError(`The verification session ended without a result (${record.outcome})`);
      return record.result;
    },
  };
}

export type VerificationUseCases = ReturnType<typeof makeVerificationUseCases>;
