/**
 * The account's erasure, for its verifications: results, captures and their images, enrolled
 * faces and document keys, delivered webhooks.
 */
import type { VerificationDeps } from './deps';

/** True when there was something to erase. */
export async function forgetAccount(deps: VerificationDeps, projectId: string, accountId: string): Promise<boolean> {
  const { mediaIds, sessions } = await deps.db.transaction(async (trx) => {
    await deps.index.forgetAccount(projectId, accountId, trx);
    return deps.verifications.forgetAccount(projectId, accountId, trx);
  });
  // The rows are gone; the images follow (a crash here leaves unreadable, unreferenced files only).
  for (const id of mediaIds) await deps.media.delete(id);
  return sessions > 0;
}
