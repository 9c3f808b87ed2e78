/**
 * Verification sessions (Face Match, ID Check): creation, the single terminal transition with
 * its webhook queued in the same transaction, cancellation from the hosted page, the sweeper
 * that ends sessions after 30 days, and verify-face / verify-id.
 */
import type {
  CaptureStored,
  CreateVerificationSession,
  FaceMatchCompleted,
  FaceMatchResult,
  IdCheckCompleted,
  IdCheckResult,
  VerificationCompletion,
  VerificationSessionCreated,
  VerificationSessionEnded,
  WebhookErrorCode,
} from '../../api-types';
import type { Clock, Random } from '../../clock';
import { DAY_MS } from '../../domain/numbers';
import { forcedEnding, testFindings, verificationDirective } from '../../domain/test-mode';
import type { AnalysisEngine, CaptureKind } from '../../domain/verification/analysis';
import { resultErrorCode } from '../../domain/verification/availability';
import {
  BadRequestError,
  ForbiddenError,
  LivenessCallError,
  SessionNotFoundError,
  UnsupportedMediaTypeError,
  VerificationResultUnavailableError,
} from '../../errors';
import { constantTimeEqual, hashApiKey } from '../../security/secrets';
import type { Db } from '../../storage/db';
import { sniffImage, type MediaStore, type MediaUrls } from '../../storage/media';
import type { Project, ProjectRepository } from '../../storage/repositories/projects';
import type {
  VerificationRecord,
  VerificationRepository,
  VerificationType,
} from '../../storage/repositories/verifications';
import type { VerificationIndex } from '../../storage/repositories/verification-index';
import type { Outbox } from '../../webhooks/outbox';
import type { EvaluationUseCases } from '../evaluation';
import { makeEnrolmentUseCases } from './enrolment';
import { projectSession, resultErrorMessage, resultFacts } from './facts';
import { signResultUrls, type Enrolment, type ResultDeps, makeResultBuilder } from './result';

/** Failed analysis attempts after which a session ends with face_match_failed. */
export const MAX_ATTEMPTS = 3;

/** The captures each type of session needs (the hosted page shows one step for each). */
export const REQUIRED_CAPTURES: Record<VerificationType, CaptureKind[]> = {
  'face-match': ['selfie'],
  'id-check': ['selfie', 'id_front', 'id_back'],
};

/** Sessions can be completed for 30 days (the interface's limit). */
export const VERIFICATION_LIFETIME_MS = 30 * DAY_MS;

const EVENT_TYPE = {
  'face-match': 'verification.face-match.completed',
  'id-check': 'verification.id-check.completed',
} as const;

export interface VerificationDeps extends ResultDeps {
  db: Db;
  clock: Clock;
  random: Random;
  verifications: VerificationRepository;
  outbox: Outbox;
  media: MediaStore;
  mediaUrls: MediaUrls;
  analysis: AnalysisEngine;
  index: VerificationIndex;
  projects: ProjectRepository;
  /** The web SDK's sessions (the one collected on the hosted page, the referring one) in their top-level form. */
  evaluation: Pick<EvaluationUseCases, 'find'>;
  /** Called once a transaction that queued a webhook has committed: wakes this process's dispatcher (webhooks/wake.ts). */
  webhooksQueued(): void;
  /** The service's public base URL (config.ts): the hosted page's URL is made on it. */
  publicBaseUrl(): string;
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
  const results = makeResultBuilder(deps);
  /** A stored (unsigned) media URL, signed from now. */
  const sign = deps.mediaUrls.sign;

  /** The one terminal transition and its webhook, in one transaction; false when the session had already ended. */
  async function end(
    record: VerificationRecord,
    requestId: string,
    now: Date,
    ending: Ending | { result: FaceMatchResult | IdCheckResult; enrolment: Enrolment },
  ): Promise<boolean> {
    const success = 'result' in ending;
    const envelope = {
      request_id: requestId,
      session_id: record.id,
      project_id: record.projectId,
      event_type: EVENT_TYPE[record.type],
      created_at: record.createdAt.toISOString(),
      completed_at: now.toISOString(),
      status: success ? 'success' : 'error',
      data: success ? ending.result : null,
      error: success ? null : { code: ending.code, message: ending.message },
    } as FaceMatchCompleted | IdCheckCompleted;
    // A project that unsubscribed from the event (`webhook_events`) ends the session without it.
    const project = await deps.projects.findById(record.projectId);
    const wanted = project?.webhookEvents.includes(envelope.event_type) ?? true;
    const ended = await db.transaction(async (trx) => {
      const outcome = success ? 'success' : ending.code;
      if (
        !(await verifications.end(
          record.id,
          { outcome, result: success ? ending.result : undefined, webhookRequestId: requestId, at: now },
          trx,
        ))
      )
        return false;
      if ('enrolment' in ending) {
        // The face and the document are enrolled with the result: later verifications are matched against them.
        const { embedding, numberKey, nameKey } = ending.enrolment;
        await deps.index.enrolFace(
          { sessionId: record.id, projectId: record.projectId, accountId: record.accountId, embedding, at: now },
          trx,
        );
        if (numberKey || nameKey)
          await deps.index.enrolDocument(
            {
              sessionId: record.id,
              projectId: record.projectId,
              accountId: record.accountId,
              numberKey,
              nameKey,
              at: now,
            },
            trx,
          );
      }
      if (wanted)
        await outbox.enqueue(
          {
            requestId,
            projectId: record.projectId,
            sessionId: record.id,
            eventType: envelope.event_type,
            body: JSON.stringify(envelope),
            now,
          },
          trx,
        );
      return true;
    });
    // After the commit, never inside the transaction: a dispatcher woken earlier would not see the row yet.
    if (ended && wanted) deps.webhooksQueued();
    return ended;
  }

  /** Ends an open session with an error and queues its webhook; false when it had already ended. */
  function endWithError(record: VerificationRecord, ending: Ending): Promise<boolean> {
    return end(record, random.uuid(), clock.now(), ending);
  }

  /** Ends a session past its 30 days (the sweeper's work, done at once when the session is used after its time). */
  const endExpired = (record: VerificationRecord) =>
    endWithError(record, {
      code: 'max_duration_exceeded',
      message: 'The session was not completed within 30 days of its creation.',
    });

  /** How a session ended, and where the hosted page sends the user (cancel's and complete's answer). */
  async function endedAnswer(sessionId: string): Promise<VerificationSessionEnded> {
    const ended = (await verifications.find(sessionId))!;
    const success = ended.outcome === 'success';
    return {
      session_id: sessionId,
      status: success ? ('success' as const) : ('error' as const),
      ...(success ? {} : { error_code: ended.outcome as WebhookErrorCode }),
      redirect_url: redirectTo(ended, success, success ? undefined : ended.outcome),
    };
  }

  /** The capture token's hash against the stored one, in constant time. */
  const tokenFits = (record: VerificationRecord, token: unknown) =>
    typeof token === 'string' && constantTimeEqual(record.tokenHash, hashApiKey(token));

  /**
   * The session the hosted page's token opens. One used after its 30 days is ended on the spot
   * with max_duration_exceeded (as the sweeper would), and returned ended.
   */
  async function byToken(sessionId: string, token: string): Promise<VerificationRecord> {
    const record = await verifications.find(sessionId);
    if (!record) throw new SessionNotFoundError();
    if (!tokenFits(record, token)) throw new ForbiddenError('The capture token is not valid for this session');
    if (record.state !== 'open' || clock.now() < record.expiresAt) return record;
    await endExpired(record);
    return (await verifications.find(sessionId))!;
  }

  /** What a test project's session forces at completion (docs/test-mode.md); undefined elsewhere and for ordinary account ids. */
  async function forcedCompletion(record: VerificationRecord) {
    const directive = verificationDirective(record.accountId);
    if (!directive) return undefined;
    return (await deps.projects.findById(record.projectId))?.test ? directive : undefined;
  }

  async function create(
    project: Project,
    body: CreateVerificationSession,
    options: { requestId: string },
  ): Promise<VerificationSessionCreated> {
    // With groups on every account has a group (reference.md); a session without an account has none: refused, as published.
    if (project.groupsEnabled && body.account_id === undefined)
      throw new LivenessCallError(
        'groups_enabled',
        'The project has groups enabled; a verification session needs an account_id (POST /liveness/session) to have a group',
      );
    const forced = project.test ? verificationDirective(body.account_id) : undefined;
    if (forced?.kind === 'error' && forced.code === 'failed_to_process_id_scan' && body.type !== 'id-check')
      throw new BadRequestError(
        `account_id ${body.account_id} forces failed_to_process_id_scan, an ID Check error: type must be id-check`,
      );
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
      url: `${deps.publicBaseUrl()}/liveness/${record.id}?token=${token}`,
      expires_at: record.expiresAt.toISOString(),
    };
  }

  return {
    endWithError,
    ...makeEnrolmentUseCases(deps, { maxAgeMs: VERIFICATION_LIFETIME_MS }),

    create,

    /**
     * The public link (GET /public/liveness-redirect): a new session of the project named by
     * `projectId`, without an account; the hosted page's URL to redirect the browser to.
     */
    async openPublicLink(
      projectId: string | undefined,
      body: Pick<CreateVerificationSession, 'type' | 'referring_session_id'>,
      options: { requestId: string },
    ): Promise<string> {
      if (projectId === undefined)
        throw new LivenessCallError('missing_project_id', 'query parameter project_id is required');
      const project = await deps.projects.findById(projectId);
      if (!project) throw new BadRequestError('query parameter project_id names no project');
      return (await create(project, body, options)).url;
    },

    /** The hosted page's Cancel: liveness_check_failed (the interface's code for a user's cancel). */
    async cancel(sessionId: string, token: string): Promise<VerificationSessionEnded> {
      const record = await byToken(sessionId, token);
      if (record.state === 'open')
        await endWithError(record, { code: 'liveness_check_failed', message: 'The user cancelled the verification.' });
      return endedAnswer(sessionId);
    },

    /**
     * What the hosted page shows: the session and its project's name when the token fits,
     * otherwise the redirect vocabulary's `session_id_not_found` or `invalid_session_id`
     * (without the name: a link without its token learns nothing of the project).
     */
    async page(
      sessionId: string,
      token: unknown,
    ): Promise<{
      record?: VerificationRecord;
      projectName?: string;
      error?: 'session_id_not_found' | 'invalid_session_id';
    }> {
      const record = /^[0-9a-f-]{36}$/.test(sessionId) ? await verifications.find(sessionId) : undefined;
      if (!record) return { error: 'session_id_not_found' };
      if (!tokenFits(record, token)) return { record, error: 'invalid_session_id' };
      const project = await deps.projects.findById(record.projectId);
      return { record, projectName: project?.name };
    },

    /** The hosted page's upload of one image; its type is decided by its first bytes. */
    async capture(sessionId: string, token: string, kind: CaptureKind, body: unknown): Promise<CaptureStored> {
      const record = await byToken(sessionId, token);
      if (record.state !== 'open')
        throw new BadRequestError(`The verification session has ended (${record.outcome}); it takes no more captures`);
      if (!REQUIRED_CAPTURES[record.type].includes(kind))
        throw new BadRequestError(`kind ${kind} is not a step of a ${record.type} session`);
      if (!Buffer.isBuffer(body) || body.length === 0)
        throw new BadRequestError('body must be a JPEG, PNG or WebP image');
      const contentType = sniffImage(body);
      if (!contentType)
        throw new UnsupportedMediaTypeError('body is not a JPEG, PNG or WebP image (checked by its first bytes)');
      const mediaId = await deps.media.put(body, contentType);
      await verifications.addCapture({
        id: random.uuid(),
        sessionId,
        kind,
        mediaId,
        contentType,
        size: body.length,
        createdAt: clock.now(),
      });
      return { session_id: sessionId, kind, content_type: contentType, size: body.length };
    },

    /**
     * The hosted page's last step: analyse the captures. A result ends the session with
     * success; a failed attempt is counted (the third ends it with face_match_failed); an
     * unreadable document ends it with failed_to_process_id_scan. When the engine is not
     * installed, 503 and the session stays open.
     */
    async complete(
      sessionId: string,
      token: string,
      options: { deviceSessionId?: string } = {},
    ): Promise<VerificationCompletion> {
      const record = await byToken(sessionId, token);
      if (record.state !== 'open') return endedAnswer(sessionId);
      // A test project's forced error ends the session here, without captures or analysis.
      const forced = await forcedCompletion(record);
      if (forced?.kind === 'error') {
        await endWithError(record, forcedEnding(forced.code, record.accountId!));
        return endedAnswer(sessionId);
      }
      const captures = await verifications.latestCaptures(sessionId);
      const missing = REQUIRED_CAPTURES[record.type].filter((k) => !captures.some((c) => c.kind === k));
      if (missing.length)
        throw new BadRequestError(
          `captures missing: ${missing.join(', ')}; upload them with POST /liveness/{session_id}/capture`,
        );
      const images = [];
      for (const c of captures) {
        const media = await deps.media.get(c.mediaId);
        if (!media) throw new Error(`capture ${c.id} is missing from the media store`);
        images.push({ kind: c.kind, contentType: media.contentType, bytes: media.bytes });
      }
      // A test project's forced success: the test findings instead of the analysis, judged as any.
      const outcome = forced
        ? testFindings(record.type, record.accountId!)
        : await deps.analysis.analyse({ type: record.type, captures: images });
      if (
        outcome.outcome === 'failed_attempt' ||
        (outcome.outcome === 'not_processable' && record.type === 'face-match')
      ) {
        const attempts = await db.transaction((trx) => verifications.addAttempt(sessionId, trx));
        if (attempts !== undefined && attempts >= MAX_ATTEMPTS) {
          await endWithError(record, {
            code: 'face_match_failed',
            message: `The face check did not succeed in ${MAX_ATTEMPTS} attempts.`,
          });
        }
        if (attempts === undefined || attempts >= MAX_ATTEMPTS) return endedAnswer(sessionId);
        return {
          session_id: sessionId,
          status: 'retry',
          attempts_remaining: MAX_ATTEMPTS - attempts,
          message: outcome.reason,
          redirect_url: null,
        };
      }
      if (outcome.outcome === 'not_processable') {
        await endWithError(record, { code: 'failed_to_process_id_scan', message: outcome.reason });
        return endedAnswer(sessionId);
      }
      // The project is read once: its threshold, and the SDK sessions are its own.
      const project = await deps.projects.findById(record.projectId);
      /** An SDK session of the project in its top-level form; undefined when it is not stored (or the project is gone). */
      const deviceSession = async (id: string) =>
        project ? deps.evaluation.find(project, id, random.uuid()) : undefined;
      const device = options.deviceSessionId ? await deviceSession(options.deviceSessionId) : undefined;
      if (!project || !device) {
        await endWithError(record, {
          code: 'failed_to_collect_device_data',
          message: "The web SDK's device and network data did not reach the service from the hosted page.",
        });
        return endedAnswer(sessionId);
      }
      const now = clock.now();
      const requestId = random.uuid();
      const mediaIds = new Map(captures.map((c) => [c.kind, c.mediaId]));
      const referring = record.referringSessionId ? await deviceSession(record.referringSessionId) : undefined;
      const built = await results.build({
        record,
        threshold: project.decisionThreshold,
        selfie: outcome.selfie,
        document: outcome.document,
        device,
        referring,
        mediaUrl: (kind) => deps.mediaUrls.unsigned(mediaIds.get(kind)!),
        requestId,
        now,
      });
      await end(record, requestId, now, built);
      return endedAnswer(sessionId);
    },

    /** Ends every open session past its 30 days with max_duration_exceeded; returns how many. */
    async sweep(limit = 500): Promise<number> {
      let ended = 0;
      for (const record of await verifications.expired(clock.now(), limit)) {
        if (await endExpired(record)) ended++;
      }
      return ended;
    },

    /**
     * The account's erasure, for its verifications: results, captures and their images,
     * enrolled faces and document keys, delivered webhooks. True when there was something.
     */
    async forgetAccount(projectId: string, accountId: string): Promise<boolean> {
      const { mediaIds, sessions } = await db.transaction(async (trx) => {
        await deps.index.forgetAccount(projectId, accountId, trx);
        return verifications.forgetAccount(projectId, accountId, trx);
      });
      // The rows are gone; the images follow (a crash here leaves unreadable, unreferenced files only).
      for (const id of mediaIds) await deps.media.delete(id);
      return sessions > 0;
    },

    /** verify-face / verify-id: the result of a session that ended with one. */
    async result(
      project: Project,
      sessionId: string,
      type: VerificationType,
    ): Promise<FaceMatchResult | IdCheckResult> {
      const record = await projectSession(verifications, project, sessionId);
      const code = resultErrorCode(await resultFacts(verifications, record, type));
      if (code) throw new VerificationResultUnavailableError(code, resultErrorMessage(record, code));
      return signResultUrls(record.result as FaceMatchResult | IdCheckResult, sign);
    },

    /** A webhook's body as it is sent now: its media URLs signed from this moment (each attempt anew). */
    async renderWebhook(body: string): Promise<string> {
      const envelope = JSON.parse(body) as FaceMatchCompleted | IdCheckCompleted;
      if (!envelope.data) return body;
      return JSON.stringify({ ...envelope, data: await signResultUrls(envelope.data, sign) });
    },
  };
}

export type VerificationUseCases = ReturnType<typeof makeVerificationUseCases>;
