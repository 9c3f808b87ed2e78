/**
 * The Search API (docs/api-search.md): the project's accounts and sessions, filtered, in pages
 * with an opaque cursor, and the same lists read to the end in batches for the exports.
 */
import ipaddr from 'ipaddr.js';
import type {
  AccountPage,
  AccountSearchQuery,
  AccountSummary,
  Decision,
  LabelValue,
  RiskSignalName,
  SessionPage,
  SessionSearchQuery,
  SessionSummary,
} from '../api-types';
import { emailFacts } from '../domain/email';
import { ipBlock, normaliseIp } from '../domain/enrichment/ip';
import { round3 } from '../domain/numbers';
import { AVERAGED_SIGNALS } from '../domain/scoring';
import { ON_THRESHOLD } from '../domain/signals';
import { BadRequestError } from '../errors';
import { toAccountRecord, type AccountRow } from '../storage/repositories/accounts';
import type { LabelRepository } from '../storage/repositories/labels';
import type { ListRepository } from '../storage/repositories/lists';
import type {
  AccountFilters,
  ScoreKey,
  SearchRepository,
  SessionFilters,
  SessionKey,
  SessionSearchRow,
} from '../storage/repositories/search';
import { storedAccountOf } from './accounts';

export interface SearchDeps {
  search: SearchRepository;
  lists: ListRepository;
  labels: LabelRepository;
}

/** The batch an export reads at a time (the page size of the list endpoints' maximum). */
export const EXPORT_BATCH = 500;

/** The risk signals a session's `risk_signals` names, in the interface's order (ip_reputation last). */
const SIGNALS = [...AVERAGED_SIGNALS, 'ip_reputation'] as const satisfies readonly RiskSignalName[];

// ------------------------------------------------------------------------------------ cursors

/**
 * A cursor is the base64url of `{"a": [id]}` (accounts by id), `{"r": [score, id]}` (accounts
 * by score) or `{"s": [start_time, id]}` (sessions): opaque to callers.
 */
type CursorKind = 'a' | 'r' | 's';

function encodeCursor(kind: CursorKind, key: unknown[]): string {
  return Buffer.from(JSON.stringify({ [kind]: key })).toString('base64url');
}

const BAD_CURSOR = 'request/query/cursor must be the next_cursor of a previous page of this list';

/** The key a cursor carries, as JSON; anything that does not decode to `{kind: [...]}` is a 400. */
function decodeCursor(kind: CursorKind, cursor: string): unknown[] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    const key = value?.[kind];
    if (Array.isArray(key)) return key;
  } catch {
    // answered below
  }
  throw new BadRequestError(BAD_CURSOR);
}

/**
 * The decoded key is checked as the request's own fields are, for base64 hides it from the
 * validator: an account id as openapi.yaml's AccountId (1 to 256 characters, no U+0000, no
 * unpaired surrogate: PostgreSQL refuses U+0000 in text), a score as a Score (0 to 1), a session
 * id as a SessionId (a lowercase UUID), its start time a whole number of milliseconds.
 */
const ACCOUNT_ID = /^[^\x00\uD800-\uDFFF]{1,256}$/u;
const isAccountId = (id: unknown): id is string => typeof id === 'string' && ACCOUNT_ID.test(id);
const isScore = (score: unknown): score is number => typeof score === 'number' && score >= 0 && score <= 1;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function accountCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const [id, ...rest] = decodeCursor('a', cursor);
  if (!isAccountId(id) || rest.length > 0) throw new BadRequestError(BAD_CURSOR);
  return id;
}

function scoreCursor(cursor: string | undefined): ScoreKey | undefined {
  if (cursor === undefined) return undefined;
  const [score, id, ...rest] = decodeCursor('r', cursor);
  if (!isScore(score) || !isAccountId(id) || rest.length > 0) throw new BadRequestError(BAD_CURSOR);
  return { score, id };
}

function sessionCursor(cursor: string | undefined): SessionKey | undefined {
  if (cursor === undefined) return undefined;
  const [startTime, id, ...rest] = decodeCursor('s', cursor);
  const wellFormed = Number.isSafeInteger(startTime) && (startTime as number) >= 0 && typeof id === 'string';
  if (!wellFormed || !SESSION_ID.test(id) || rest.length > 0) throw new BadRequestError(BAD_CURSOR);
  return { startTime: startTime as number, id };
}

// ------------------------------------------------------------------------------------ filters

const date = (name: string, value: string | undefined): Date | undefined => {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new BadRequestError(`request/query/${name} must be a date-time`);
  return d;
};

/** The filters both searches share, checked: the ranges in order, the address and block well-formed. */
function commonFilters(q: SessionSearchQuery | AccountSearchQuery) {
  if (q.min_score !== undefined && q.max_score !== undefined && q.min_score > q.max_score)
    throw new BadRequestError('request/query/min_score must not be greater than max_score');
  const from = date('from', q.from);
  const to = date('to', q.to);
  if (from && to && from.getTime() >= to.getTime()) throw new BadRequestError('request/query/from must be before to');
  let ipAddress: string | undefined;
  if (q.ip_address !== undefined) {
    if (!ipaddr.isValid(q.ip_address))
      throw new BadRequestError('request/query/ip_address must be an IPv4 or IPv6 address');
    ipAddress = normaliseIp(q.ip_address);
  }
  let network: string | undefined;
  if (q.network !== undefined) {
    let parsed: [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined;
    try {
      parsed = ipaddr.parseCIDR(q.network);
    } catch {
      parsed = undefined;
    }
    const [address, bits] = parsed ?? [];
    if (!address || bits !== (address.kind() === 'ipv4' ? 24 : 64))
      throw new BadRequestError('request/query/network must be an IPv4 /24 or an IPv6 /64 in CIDR notation');
    network = ipBlock(address.toString());
  }
  return {
    ...(q.decision !== undefined ? { decision: q.decision as Decision } : {}),
    ...(q.min_score !== undefined ? { minScore: q.min_score } : {}),
    ...(q.max_score !== undefined ? { maxScore: q.max_score } : {}),
    ...(q.country !== undefined ? { country: q.country } : {}),
    ...(q.list !== undefined ? { list: q.list } : {}),
    ...(q.email_domain !== undefined ? { emailDomain: q.email_domain.toLowerCase() } : {}),
    ...(q.device_id !== undefined ? { deviceId: q.device_id } : {}),
    ...(ipAddress !== undefined ? { ipAddress } : {}),
    ...(network !== undefined ? { network } : {}),
    from,
    to,
  };
}

/** An address as the accounts' `email_key` keeps it (the evaluation's own normalisation, usecases/evaluation/). */
function emailKeyOf(email: string): string {
  const key = emailFacts(email.trim()).normalised;
  if (!key.includes('@')) throw new BadRequestError('request/query/email must be an email address');
  return key;
}

export function accountFilters(q: AccountSearchQuery): AccountFilters {
  const { from, to, ...common } = commonFilters(q);
  return {
    ...common,
    ...(from ? { seenFrom: from } : {}),
    ...(to ? { seenTo: to } : {}),
    ...(q.fingerprint !== undefined ? { fingerprint: q.fingerprint } : {}),
    ...(q.email !== undefined ? { emailKey: emailKeyOf(q.email) } : {}),
  };
}

/**
 * A session's account_score is stored as computed and answered rounded to 3 decimals (round3,
 * as authenticate answers it): the score range is on the answered value, so its bounds become
 * bounds on the stored one. round3(x) >= m exactly when x >= (ceil(1000 m) - 0.5) / 1000, and
 * round3(x) <= M exactly when x < (floor(1000 M) + 0.5) / 1000 (Math.round rounds halves up).
 */
const EPSILON = 1e-9;
const storedScoreFrom = (m: number) => (Math.ceil(m * 1000 - EPSILON) - 0.5) / 1000;
const storedScoreBelow = (m: number) => (Math.floor(m * 1000 + EPSILON) + 0.5) / 1000;

export function sessionFilters(q: SessionSearchQuery): SessionFilters {
  const { from, to, minScore, maxScore, ...common } = commonFilters(q);
  return {
    ...common,
    ...(minScore !== undefined ? { scoreFrom: storedScoreFrom(minScore) } : {}),
    ...(maxScore !== undefined ? { scoreBelow: storedScoreBelow(maxScore) } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(q.signal !== undefined ? { signal: q.signal } : {}),
    ...(q.account_id !== undefined ? { accountId: q.account_id } : {}),
    ...(q.session_id !== undefined ? { sessionId: q.session_id } : {}),
  };
}

// ------------------------------------------------------------------------------------ views

function accountSummary(row: AccountRow, lists: string[], label: LabelValue | undefined): AccountSummary {
  const r = toAccountRecord(row);
  const { aggregates: a } = r;
  return {
    account: storedAccountOf(r),
    ...(r.decision ? { decision: r.decision } : {}),
    ...(r.scores ? { account_score: r.scores.account_score } : {}),
    ...(label ? { label } : {}),
    num_sessions: a.numSessions,
    ...(a.firstSeen ? { first_seen: a.firstSeen.toISOString() } : {}),
    ...(a.lastSeen ? { last_seen: a.lastSeen.toISOString() } : {}),
    ...(a.lastCountry ? { country: a.lastCountry } : {}),
    lists,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** The signals a stored evaluation raised (risk_scores: `{scores, spoofedIp}`), in the interface's order. */
function raisedSignals(riskScores: string | null): RiskSignalName[] {
  if (!riskScores) return [];
  const { scores, spoofedIp } = JSON.parse(riskScores) as { scores: Record<string, number>; spoofedIp: boolean };
  return SIGNALS.filter((s) => (s === 'spoofed_ip' ? spoofedIp : (scores[s] ?? 0) >= ON_THRESHOLD));
}

/** A stored coordinate to 4 decimals (about 11 m): PostgreSQL keeps them as `real`, whose last digits are noise. */
const coordinate = (value: number | string) => Math.round(Number(value) * 1e4) / 1e4;

function sessionSummary(row: SessionSearchRow, accountIds: string[]): SessionSummary {
  return {
    session_id: row.id,
    account_ids: accountIds,
    start_time: new Date(Number(row.start_time)).toISOString(),
    source: (row.source as SessionSummary['source']) ?? null,
    device_id: row.device_id,
    ip_address: row.ip_address,
    ...(row.country_code ? { country_code: row.country_code } : {}),
    ...(row.decision ? { decision: row.decision as Decision } : {}),
    ...(row.account_score != null ? { account_score: round3(Number(row.account_score)) } : {}),
    risk_signals: raisedSignals(row.risk_scores),
    ...(row.evaluation_request_id ? { evaluation_request_id: row.evaluation_request_id } : {}),
    ...(row.latitude != null && row.longitude != null
      ? { latitude: coordinate(row.latitude), longitude: coordinate(row.longitude) }
      : {}),
  };
}

// ------------------------------------------------------------------------------------ use cases

export function makeSearchUseCases(deps: SearchDeps) {
  const { search, lists, labels } = deps;

  /** The page's summaries: its rows with their lists and current labels, two reads for the page. */
  async function summaries(projectId: string, rows: AccountRow[]): Promise<AccountSummary[]> {
    const ids = rows.map((r) => r.id);
    const [memberships, current] = await Promise.all([
      lists.ofAccounts(projectId, ids),
      labels.currentOf(projectId, ids),
    ]);
    return rows.map((r) => accountSummary(r, memberships.get(r.id) ?? [], current.get(r.id)));
  }

  async function accountPage(projectId: string, f: AccountFilters, after: string | undefined, limit: number) {
    const page = await search.accounts(projectId, f, after, limit);
    return { items: await summaries(projectId, page.rows), next: page.next };
  }

  async function scorePage(projectId: string, f: AccountFilters, after: ScoreKey | undefined, limit: number) {
    const page = await search.accountsByScore(projectId, f, after, limit);
    return { items: await summaries(projectId, page.rows), next: page.next };
  }

  async function sessionPage(projectId: string, f: SessionFilters, after: SessionKey | undefined, limit: number) {
    const page = await search.sessions(projectId, f, after, limit);
    const accounts = await search.accountIdsOf(
      projectId,
      page.rows.map((r) => r.id),
    );
    return { items: page.rows.map((r) => sessionSummary(r, accounts.get(r.id) ?? [])), next: page.next };
  }

  return {
    async accounts(projectId: string, q: AccountSearchQuery, requestId: string): Promise<AccountPage> {
      const f = accountFilters(q);
      const limit = q.limit ?? 50;
      let page: { items: AccountSummary[]; cursor: string | null };
      if (q.sort === 'score') {
        const p = await scorePage(projectId, f, scoreCursor(q.cursor), limit);
        page = { items: p.items, cursor: p.next === null ? null : encodeCursor('r', [p.next.score, p.next.id]) };
      } else {
        const p = await accountPage(projectId, f, accountCursor(q.cursor), limit);
        page = { items: p.items, cursor: p.next === null ? null : encodeCursor('a', [p.next]) };
      }
      return { request_id: requestId, accounts: page.items, next_cursor: page.cursor };
    },

    async sessions(projectId: string, q: SessionSearchQuery, requestId: string): Promise<SessionPage> {
      const page = await sessionPage(projectId, sessionFilters(q), sessionCursor(q.cursor), q.limit ?? 50);
      return {
        request_id: requestId,
        sessions: page.items,
        next_cursor: page.next === null ? null : encodeCursor('s', [page.next.startTime, page.next.id]),
      };
    },

    /**
     * Every account the filters select, in batches (filters checked before the first batch is
     * read: call it before sending anything). Holds one batch at a time.
     */
    exportAccounts(projectId: string, q: AccountSearchQuery): AsyncIterable<AccountSummary[]> {
      const f = accountFilters(q);
      if (q.sort === 'score')
        return batches((after: ScoreKey | undefined) => scorePage(projectId, f, after, EXPORT_BATCH));
      return batches((after: string | undefined) => accountPage(projectId, f, after, EXPORT_BATCH));
    },

    /** Every session the filters select, in batches, as exportAccounts. */
    exportSessions(projectId: string, q: SessionSearchQuery): AsyncIterable<SessionSummary[]> {
      const f = sessionFilters(q);
      return batches((after: SessionKey | undefined) => sessionPage(projectId, f, after, EXPORT_BATCH));
    },
  };
}

/** Pages read one after another until a page has no next key. */
async function* batches<T, K>(read: (after: K | undefined) => Promise<{ items: T[]; next: K | null }>) {
  let after: K | undefined;
  for (;;) {
    const page = await read(after);
    if (page.items.length > 0) yield page.items;
    if (page.next === null) return;
    after = page.next;
  }
}

export type SearchUseCases = ReturnType<typeof makeSearchUseCases>;
