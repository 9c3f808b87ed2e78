/** The hosted page's upload of one image; its type is decided by its first bytes. */
import type { CaptureStored } from '../../api-types';
import type { CaptureKind } from '../../domain/verification/analysis';
import { REQUIRED_CAPTURES } from '../../domain/verification/lifecycle';
import { BadRequestError, UnsupportedMediaTypeError } from '../../errors';
import { sniffImage } from '../../storage/media';
import { openByToken } from './access';
import type { VerificationDeps } from './deps';

export async function storeCapture(
  deps: VerificationDeps,
  sessionId: string,
  token: string,
  kind: CaptureKind,
  body: unknown,
): Promise<CaptureStored> {
  const record = await openByToken(deps, sessionId, token);
  if (record.state !== 'open')
    throw new BadRequestError(`The verification session has ended (${record.outcome}); it takes no more captures`);
  if (!REQUIRED_CAPTURES[record.type].includes(kind))
    throw new BadRequestError(`kind ${kind} is not a step of a ${record.type} session`);
  if (!Buffer.isBuffer(body) || body.length === 0) throw new BadRequestError('body must be a JPEG, PNG or WebP image');
  const contentType = sniffImage(body);
  if (!contentType)
    throw new UnsupportedMediaTypeError('body is not a JPEG, PNG or WebP image (checked by its first bytes)');
  const mediaId = await deps.media.put(body, contentType);
  await deps.verifications.addCapture({
    id: deps.random.uuid(),
    sessionId,
    kind,
    mediaId,
    contentType,
    size: body.length,
    createdAt: deps.clock.now(),
  });
  return { session_id: sessionId, kind, content_type: contentType, size: body.length };
}
