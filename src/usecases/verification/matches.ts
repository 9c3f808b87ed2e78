/**
 * The reads behind a verification's matches: the capture session's stored identifiers, then
 * the accounts each search of `domain/verification/matches.ts` names. The rules stay there.
 */
import type { Session } from '../../api-types';
import { LINK_CAP } from '../../domain/evaluation';
import type { FaceFindings } from '../../domain/verification/analysis';
import { isSamePerson } from '../../domain/verification/faces';
import { matchSearch, type DocumentKeys, type MatchesFound } from '../../domain/verification/matches';
import type { HistoryRepository } from '../../storage/repositories/history';
import type { VerificationIndex } from '../../storage/repositories/verification-index';
import type { VerificationRecord } from '../../storage/repositories/verifications';

export interface MatchDeps {
  history: HistoryRepository;
  index: VerificationIndex;
}

/** What the project holds that matches this verification (its own account left out). */
export async function gatherMatches(
  deps: MatchDeps,
  record: VerificationRecord,
  selfie: FaceFindings,
  device: Session,
  keys: DocumentKeys,
): Promise<MatchesFound> {
  const { projectId, accountId } = record;
  // The enrolled faces are streamed page by page (memory stays flat however many there are),
  // so the domain's rule filters them as they are read instead of after.
  const faces = new Set<string>();
  await deps.index.eachFace(projectId, accountId, (face) => {
    if (face.accountId && isSamePerson(selfie.embedding, face.embedding)) faces.add(face.accountId);
  });
  const search = matchSearch(device, await deps.history.sessionRow(projectId, device.session_id), keys);
  const network = search.network
    ? await deps.history.accountsOnAddress(projectId, search.network.ip, search.network, accountId, LINK_CAP)
    : [];
  const browser = search.browser
    ? await deps.history.accountsSharing(projectId, 'browser', search.browser, accountId, LINK_CAP)
    : [];
  const sharingDevice = search.device
    ? await deps.history.accountsSharing(projectId, 'device', search.device, accountId, LINK_CAP)
    : [];
  const documents = [];
  for (const { column, key } of search.documents)
    documents.push({
      column,
      accountIds: await deps.index.accountsWithDocument(projectId, column, key, accountId, LINK_CAP),
    });
  return { faces: [...faces], network, browser, device: sharingDevice, documents };
}
