/**
 * Verification sessions (Face Match, ID Check), one module per use case: creation (create.ts),
 * the hosted page (page.ts, capture.ts, cancel.ts, complete.ts), the single terminal transition
 * with its webhook queued in the same transaction (end.ts), the sweeper's work (sweep.ts),
 * verify-face / verify-id (verify.ts), enroll / verify-identity (enrolment.ts) and erasure
 * (forget.ts). Each takes the deps first; this binds them.
 */
import { withDeps } from '../../with-deps';
import { cancelSession } from './cancel';
import { storeCapture } from './capture';
import { completeSession } from './complete';
import { createSession, openPublicLink } from './create';
import type { VerificationDeps } from './deps';
import { endWithError } from './end';
import { enroll, verifyIdentity } from './enrolment';
import { forgetAccount } from './forget';
import { pageOf } from './page';
import { renderWebhook } from './signed-urls';
import { sweepExpired } from './sweep';
import { verifyResult } from './verify';

export type { VerificationDeps } from './deps';

export function makeVerificationUseCases(deps: VerificationDeps) {
  const bind = withDeps(deps);
  return {
    endWithError: bind(endWithError),
    create: bind(createSession),
    openPublicLink: bind(openPublicLink),
    cancel: bind(cancelSession),
    page: bind(pageOf),
    capture: bind(storeCapture),
    complete: bind(completeSession),
    sweep: bind(sweepExpired),
    forgetAccount: bind(forgetAccount),
    result: bind(verifyResult),
    enroll: bind(enroll),
    verifyIdentity: bind(verifyIdentity),
    /** A webhook's body as it is sent now: its media URLs signed from this moment (each attempt anew). */
    renderWebhook: (body: string) => renderWebhook(body, deps.mediaUrls.sign),
  };
}

export type VerificationUseCases = ReturnType<typeof makeVerificationUseCases>;
