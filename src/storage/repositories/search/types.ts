/** What the Search API's reads take and answer (docs/api-search.md). */
import type { Decision, RiskSignalName } from '../../../api-types';

/** How many keys a request reads at most (the window). */
export const SEARCH_WINDOW = 5000;

export interface AccountFilters {
  decision?: Decision;
  list?: string;
  minScore?: number;
  maxScore?: number;
  /** last_seen in [seenFrom, seenTo). */
  seenFrom?: Date;
  seenTo?: Date;
  country?: string;
  emailDomain?: string;
  /** The address as email_key keeps it (normalised). */
  emailKey?: string;
  deviceId?: string;
  fingerprint?: string;
  ipAddress?: string;
  /** An address block as stored in ip_block (`81.2.69.0/24`, `2001:db8:1:2::/64`). */
  network?: string;
}

export interface SessionFilters {
  decision?: Decision;
  /** On the stored (unrounded) account_score: at least scoreFrom, below scoreBelow. */
  scoreFrom?: number;
  scoreBelow?: number;
  /** start_time in [from, to). */
  from?: Date;
  to?: Date;
  signal?: RiskSignalName;
  /** Authenticated with an account on this list, or with an address at this domain. */
  list?: string;
  emailDomain?: string;
  country?: string;
  accountId?: string;
  sessionId?: string;
  deviceId?: string;
  ipAddress?: string;
  network?: string;
}

/** The orders GET /accounts pages in: by id, or the riskiest first (openapi.yaml SearchAccountSort). */
export type AccountOrder = 'id' | 'score';

/** An account's place in the score order (the highest account_score first, then id descending). */
export interface ScoreKey {
  score: number;
  id: string;
}

/** A session's place in the search's order (newest first, then id descending). */
export interface SessionKey {
  startTime: number;
  id: string;
}

export interface SessionSearchRow {
  id: string;
  start_time: number;
  source: string | null;
  device_id: string;
  ip_address: string;
  country_code: string | null;
  decision: string | null;
  account_score: number | null;
  risk_scores: string | null;
  evaluation_request_id: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface SearchPage<Row, Key> {
  rows: Row[];
  /** The key after which the next page starts; null when the index has nothing after this page. */
  next: Key | null;
}
