/**
 * A verification's matches: the other accounts of the project that share the verified face,
 * document, capture network or browser. What to search for comes from the capture session as
 * linking reads it (`domain/evaluation/links.ts`: the same network window, shared networks left
 * out, the same identifier kinds); what the search found is judged here. Pure.
 *
 * The judgement differs from an evaluation's links on purpose: the result's vocabulary is
 * VerificationMatchType (face, document, `ip_address`, `browser`), not MatchType; accounts are
 * ranked by how many kinds they share, without linking's scores; the hardware fingerprint is a
 * repeat device (`repeat_device`), not a match of its own; and faces and documents, which
 * sessions do not have, are matches here.
 */
import type { FaceMatchResult, Session, VerificationMatchType } from '../../api-types';
import { LINK_CAP, linkSearch, type PastSession } from '../evaluation';
import { byCodeUnits } from '../order';

/** The keyed digests a document is matched on (its number with its issuer; its holder's name and date of birth). */
export interface DocumentKeys {
  numberKey?: string;
  nameKey?: string;
}

/** The searches for one verification's matches, each bounded by LINK_CAP. */
export interface MatchSearch {
  /** The capture's address and the window linking follows it in; none on a shared network or without the session. */
  network?: { ip: string; from: Date; to: Date };
  /** The capture browser's stored id (a `browser` match). */
  browser?: string;
  /** The capture device's hardware fingerprint (a repeat device only). */
  device?: string;
  documents: { column: 'number_key' | 'name_key'; key: string }[];
}

/**
 * The searches from the capture session: `device` in its top-level form, `row` its stored
 * identifiers (undefined when it is not stored), `keys` the verified document's.
 */
export function matchSearch(device: Session, row: PastSession | undefined, keys: DocumentKeys): MatchSearch {
  const network = row ? linkSearch([row], undefined).networks[0] : undefined;
  const documents: MatchSearch['documents'] = [];
  if (keys.numberKey) documents.push({ column: 'number_key', key: keys.numberKey });
  if (keys.nameKey) documents.push({ column: 'name_key', key: keys.nameKey });
  return {
    network: network && { ip: network.ip, from: network.ipFrom, to: network.ipTo },
    browser: device.device_id || undefined,
    device: row?.browserFingerprint || undefined,
    documents,
  };
}

/** The accounts each search found (other than the verified account). */
export interface MatchesFound {
  /** Accounts with an enrolled face of the same person (`isSamePerson`). */
  faces: readonly string[];
  network: readonly string[];
  browser: readonly string[];
  device: readonly string[];
  documents: readonly { column: 'number_key' | 'name_key'; accountIds: readonly string[] }[];
}

const DOCUMENT_MATCH = { number_key: 'document_number', name_key: 'document_name' } as const;

/** The result's `matches`, strongest first, and which kinds of repeat the verdict flags. */
export function verificationMatches(found: MatchesFound): {
  matches: FaceMatchResult['matches'];
  repeat: { face: boolean; document: boolean; device: boolean };
} {
  const linked = new Map<string, Set<VerificationMatchType>>();
  const add = (accountIds: readonly string[], type: VerificationMatchType) => {
    for (const id of accountIds) linked.set(id, (linked.get(id) ?? new Set()).add(type));
  };
  add(found.faces, 'face');
  add(found.network, 'ip_address');
  add(found.browser, 'browser');
  for (const d of found.documents) add(d.accountIds, DOCUMENT_MATCH[d.column]);
  const accounts_linked = [...linked]
    .map(([account_id, types]) => ({ account_id, match_types: [...types].sort() }))
    .sort((a, b) => b.match_types.length - a.match_types.length || byCodeUnits(a.account_id, b.account_id))
    .slice(0, LINK_CAP);
  return {
    matches: { num_accounts_linked: linked.size, accounts_linked },
    repeat: {
      face: found.faces.length > 0,
      document: found.documents.some((d) => d.accountIds.length > 0),
      device: found.browser.length > 0 || found.device.length > 0,
    },
  };
}
