/**
 * The hosted page's last step: analyse the captures. A result ends the session with success; a
 * failed attempt is counted (the third ends it with face_match_failed); an unreadable document
 * ends it with failed_to_process_id_scan (domain/verification/lifecycle.ts decides which). When
 * the engine is not installed, 503 and the session stays open.
 */
import type { VerificationCompletion } from '../../api-types';
import { forcedEnding, testFindings, verificationDirective } from '../../domain/test-mode';
import type { DocumentFindings, FaceFindings } from '../../domain/verification/analysis';
import { analysisStep, ENDINGS, MAX_ATTEMPTS, missingCaptures, type Ending } from '../../domain/verification/lifecycle';
import { BadRequestError } from '../../errors';
import type { CaptureRecord, VerificationRecord } from '../../storage/repositories/verifications';
import { endedAnswer, openByToken } from './access';
import type { VerificationDeps } from './deps';
import { endSession, endWithError } from './end';
import { buildResult } from './result';

export async function completeSession(
  deps: VerificationDeps,
  sessionId: string,
  token: string,
  options: { deviceSessionId?: string } = {},
): Promise<VerificationCompletion> {
  const record = await openByToken(deps, sessionId, token);
  if (record.state !== 'open') return endedAnswer(deps, sessionId);
  // A test project's forced error ends the session here, without captures or analysis.
  const forced = await forcedCompletion(deps, record);
  if (forced?.kind === 'error') return endAndAnswer(deps, record, forcedEnding(forced.code, record.accountId!));
  const captures = await deps.verifications.latestCaptures(sessionId);
  const missing = missingCaptures(
    record.type,
    captures.map((c) => c.kind),
  );
  if (missing.length)
    throw new BadRequestError(
      `captures missing: ${missing.join(', ')}; upload them with POST /liveness/{session_id}/capture`,
    );
  const images = await imagesOf(deps, captures);
  // A test project's forced success: the test findings instead of the analysis, judged as any.
  const outcome = forced
    ? testFindings(record.type, record.accountId!)
    : await deps.analysis.analyse({ type: record.type, captures: images });
  const step = analysisStep(record.type, outcome);
  if (step.step === 'attempt') return countAttempt(deps, record, step.reason);
  if (step.step === 'end') return endAndAnswer(deps, record, step.ending);
  return endWithResult(deps, record, step, captures, options.deviceSessionId);
}

/** What a test project's session forces at completion (docs/test-mode.md); undefined elsewhere and for ordinary account ids. */
async function forcedCompletion(deps: VerificationDeps, record: VerificationRecord) {
  const directive = verificationDirective(record.accountId);
  if (!directive) return undefined;
  return (await deps.projects.findById(record.projectId))?.test ? directive : undefined;
}

async function imagesOf(deps: VerificationDeps, captures: readonly CaptureRecord[]) {
  const images = [];
  for (const c of captures) {
    const media = await deps.media.get(c.mediaId);
    if (!media) throw new Error(`capture ${c.id} is missing from the media store`);
    images.push({ kind: c.kind, contentType: media.contentType, bytes: media.bytes });
  }
  return images;
}

async function endAndAnswer(deps: VerificationDeps, record: VerificationRecord, ending: Ending) {
  await endWithError(deps, record, ending);
  return endedAnswer(deps, record.id);
}

/** A failed attempt counted; the last one allowed ends the session. */
async function countAttempt(
  deps: VerificationDeps,
  record: VerificationRecord,
  reason: string,
): Promise<VerificationCompletion> {
  const attempts = await deps.db.transaction((trx) => deps.verifications.addAttempt(record.id, trx));
  if (attempts !== undefined && attempts >= MAX_ATTEMPTS) await endWithError(deps, record, ENDINGS.attemptsUsed);
  if (attempts === undefined || attempts >= MAX_ATTEMPTS) return endedAnswer(deps, record.id);
  return {
    session_id: record.id,
    status: 'retry',
    attempts_remaining: MAX_ATTEMPTS - attempts,
    message: reason,
    redirect_url: null,
  };
}

/** The findings judged with the capture session's data and the project's matches; the session ends with the result. */
async function endWithResult(
  deps: VerificationDeps,
  record: VerificationRecord,
  findings: { selfie: FaceFindings; document?: DocumentFindings },
  captures: readonly CaptureRecord[],
  deviceSessionId: string | undefined,
): Promise<VerificationCompletion> {
  // The project is read once: its threshold, and the SDK sessions are its own.
  const project = await deps.projects.findById(record.projectId);
  /** An SDK session of the project in its top-level form; undefined when it is not stored (or the project is gone). */
  const sdkSession = async (id: string) =>
    project ? deps.evaluation.find(project, id, deps.random.uuid()) : undefined;
  const device = deviceSessionId ? await sdkSession(deviceSessionId) : undefined;
  if (!project || !device) return endAndAnswer(deps, record, ENDINGS.noDeviceData);
  const now = deps.clock.now();
  const requestId = deps.random.uuid();
  const mediaIds = new Map(captures.map((c) => [c.kind, c.mediaId]));
  const referring = record.referringSessionId ? await sdkSession(record.referringSessionId) : undefined;
  const built = await buildResult(deps, {
    record,
    threshold: project.decisionThreshold,
    selfie: findings.selfie,
    document: findings.document,
    device,
    referring,
    mediaUrl: (kind) => deps.mediaUrls.unsigned(mediaIds.get(kind)!),
    requestId,
    now,
  });
  await endSession(deps, record, requestId, now, built);
  return endedAnswer(deps, record.id);
}
