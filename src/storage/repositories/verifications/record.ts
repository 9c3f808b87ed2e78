/** A verification session and its captures as the code sees them, and their rows. */
import type { SecretBox } from '../../../security/secrets';

export type VerificationType = 'face-match' | 'id-check';

export interface VerificationRecord {
  id: string;
  projectId: string;
  type: VerificationType;
  accountId?: string;
  referringSessionId?: string;
  redirectUrl?: string;
  tokenHash: string;
  attempts: number;
  state: 'open' | 'ended';
  outcome?: string;
  result?: unknown;
  webhookRequestId?: string;
  createdAt: Date;
  expiresAt: Date;
  endedAt?: Date;
}

export interface CaptureRecord {
  id: string;
  sessionId: string;
  kind: 'selfie' | 'id_front' | 'id_back';
  mediaId: string;
  contentType: string;
  size: number;
  createdAt: Date;
}

export function toRecord(r: Record<string, unknown>, box: SecretBox): VerificationRecord {
  const opt = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
  return {
    id: String(r.id),
    projectId: String(r.project_id),
    type: r.type as VerificationType,
    accountId: opt(r.account_id),
    referringSessionId: opt(r.referring_session_id),
    redirectUrl: opt(r.redirect_url),
    tokenHash: String(r.token_hash),
    attempts: Number(r.attempts),
    state: r.state as 'open' | 'ended',
    outcome: opt(r.outcome),
    // The result holds personal data (names, dates of birth, document numbers): sealed at rest.
    result: typeof r.result === 'string' ? JSON.parse(box.decrypt(r.result)) : undefined,
    webhookRequestId: opt(r.webhook_request_id),
    createdAt: new Date(Number(r.created_at)),
    expiresAt: new Date(Number(r.expires_at)),
    endedAt: r.ended_at === null || r.ended_at === undefined ? undefined : new Date(Number(r.ended_at)),
  };
}

export function captureOf(r: Record<string, unknown>): CaptureRecord {
  return {
    id: String(r.id),
    sessionId: String(r.session_id),
    kind: r.kind as CaptureRecord['kind'],
    mediaId: String(r.media_id),
    contentType: String(r.content_type),
    size: Number(r.size),
    createdAt: new Date(Number(r.created_at)),
  };
}
