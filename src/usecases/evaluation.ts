/**
 * Session evaluation, the risk engine's outline: load the live session → (authenticate:
 * create or update the account, tie it to the session, apply its lists) → risk signals with
 * the service's history → linked accounts → scores → decision → persist → respond.
 * The pieces are pure (domain/*) or repositories; this module only orders them.
 */
import type {
  AccountDetails,
  AccountInput,
  AuthenticateRequest,
  AuthenticateResponse,
  EmailIntelligence,
  Evaluation,
  EvaluatedSession,
  Session,
  UnauthenticatedRequest,
  UnauthenticatedResponse,
} from '../api-types';
import type { Clock } from '../clock';
import { emailFacts, emailIntelligence } from '../domain/email';
import { ipBlock } from '../domain/enrichment/ip';
import { nameKey, phoneKey, usernameKey } from '../domain/linking';
import { accountScore, botScore, decide, isCrawlerUserAgent, multipleAccountsScore, riskSignalAverage, riskSignalsScore } from '../domain/scoring';
import { toTopLevelSession } from '../domain/session/views';
import { AUTOMATION_CONDITION, evaluateSignals, ipLocationAccuracyKm, type IpListName, type PreviousSession, type SignalResult } from '../domain/signals';
import { BadRequestError, SessionNotFoundError } from '../errors';
import type { Db } from '../storage/db';
import type { AccountRecord, AccountRepository } from '../storage/repositories/accounts';
import type { AccountSessionRow, HistoryRepository } from '../storage/repositories/history';
import type { ListRepository } from '../storage/repositories/lists';
import type { Project } from '../storage/repositories/projects';
import type { SessionRepository, StoredSession } from '../storage/repositories/sessions';
import { LINK_CAP, makeLinks, SESSIONS_FOLLOWED, type Link } from './links';
import { applyAccountLists, STANDARD_LISTS } from './lists';

/** A session can be evaluated for this long after it starts (reference.md). */
export const EVALUATION_WINDOW_MS = 24 * 3_600_000;
const DAY_MS = 86_400_000;

export interface IpListLookup {
  lookup(ip: string): { list: IpListName }[];
}

export interface EvaluationDeps {
  db: Db;
  clock: Clock;
  sessions: SessionRepository;
  accounts: AccountRepository;
  lists: ListRepository;
  history: HistoryRepository;
  ipLists: IpListLookup;
}

export interface EvaluationOptions {
  requestId: string;
  accountsLinked: boolean;
}

const ANONYMISING_LISTS: ReadonlySet<string> = new Set(['tor', 'vpn', 'proxy']);
const ORGANISATION_DOMAINS: ReadonlySet<string> = new Set(['business', 'education', 'government']);

/**
 * The session's previous one (of the account, or of the device) as the travel rule needs it.
 * It was anonymised when flagged so as stored, through a relay, or on an anonymising list now.
 */
function previousOf(found: { startTime: Date; facts: EvaluatedSession } | undefined, ipLists: IpListLookup): PreviousSession | undefined {
  if (!found) return undefined;
  const { latitude, longitude } = found.facts.location;
  if (latitude === undefined || longitude === undefined) return undefined;
  const r = found.facts.risk_signals;
  const listed = ipLists.lookup(found.facts.network.ip_address ?? '').some((m) => ANONYMISING_LISTS.has(m.list));
  return {
    time: found.startTime,
    latitude,
    longitude,
    accuracyKm: ipLocationAccuracyKm(found.facts.location),
    anonymised: r.tor || r.vpn || r.proxy || listed || found.facts.network.connection_type === 'private_relay',
  };
}

export function makeEvaluation(deps: EvaluationDeps) {
  const { db, clock, sessions, accounts, lists, history, ipLists } = deps;
  const links = makeLinks({ accounts, history, lists });

  async function load(project: Project, sessionId: string): Promise<StoredSession> {
    const stored = await sessions.find(project.id, sessionId);
    if (!stored) throw new SessionNotFoundError();
    return stored;
  }

  function live(stored: StoredSession): void {
    if (clock.now().getTime() - stored.startTime.getTime() > EVALUATION_WINDOW_MS) {
      throw new BadRequestError('Session expired; sessions can be evaluated for 24 hours after they start');
    }
  }

  /** The session's signals, recomputed with the IP lists and the service's history. */
  async function signalsOf(project: Project, stored: StoredSession, of: { accountId: string } | { deviceId: string }): Promise<SignalResult> {
    const now = clock.now();
    const ip = stored.ipAddress;
    const [h, previous] = await Promise.all([
      history.signalHistory(project.id, stored.id, ip, ipBlock(ip), now),
      history.previousSession(project.id, of, stored.startTime, stored.id),
    ]);
    return evaluateSignals({
      now: stored.startTime,
      sdk: stored.sdk ?? { source: stored.facts.source ?? 'web', device_id: stored.facts.device_id ?? '' },
      session: stored.facts,
      ipLists: new Set(ipLists.lookup(ip).map((m) => m.list)),
      history: { ...h, previous: previousOf(previous, ipLists) },
    });
  }

  /** The stored account with the input applied (identifiers normalised), or a 400 naming the rule. */
  function applyInput(project: Project, existing: AccountRecord | undefined, input: Omit<AccountInput, 'id'>, id: string, field = 'account.'): AccountRecord {
    if (input.group !== undefined && !project.groupsEnabled) {
      throw new BadRequestError(`${field}group is not allowed: groups are not enabled for this project`);
    }
    if (project.groupsEnabled) {
      if (existing?.group !== undefined && input.group !== undefined && input.group !== existing.group) {
        throw new BadRequestError(`${field}group cannot change: the account is in group ${JSON.stringify(existing.group)}`);
      }
      if (existing === undefined && input.group === undefined) {
        throw new BadRequestError(`${field}group is required: groups are enabled for this project`);
      }
    }
    const standard = (input.lists ?? []).filter((l) => STANDARD_LISTS.includes(l));
    if (new Set(standard).size > 1) {
      throw new BadRequestError(`${field}lists may hold only one of ${STANDARD_LISTS.join(', ')} (they are mutually exclusive)`);
    }
    const now = clock.now();
    const next: AccountRecord = existing
      ? { ...existing, updatedAt: now }
      : { projectId: project.id, id, expectedCountries: [], metadata: {}, createdAt: now, updatedAt: now };
    if (input.email !== undefined) {
      const facts = emailFacts(input.email);
      Object.assign(next, { email: input.email, emailKey: facts.normalised || undefined, emailDomain: facts.domain || undefined });
    }
    if (input.phone !== undefined) Object.assign(next, { phone: input.phone, phoneKey: phoneKey(input.phone) });
    if (input.first_name !== undefined) next.firstName = input.first_name;
    if (input.last_name !== undefined) next.lastName = input.last_name;
    next.nameKey = nameKey(next.firstName, next.lastName);
    if (input.username !== undefined) Object.assign(next, { username: input.username, usernameKey: usernameKey(input.username) });
    if (input.expected_countries && input.expected_countries.length > 0) next.expectedCountries = [...new Set(input.expected_countries)];
    if (input.metadata !== undefined) next.metadata = input.metadata;
    if (input.group !== undefined) next.group = input.group;
    return next;
  }

  /** The account's own creation, when it happened before this request (a new account has not been seen before). */
  const seenBefore = (record: AccountRecord, now: Date) => (now.getTime() - record.createdAt.getTime() > 60_000 ? record.createdAt : undefined);
  const earliest = (...dates: (Date | undefined)[]) =>
    dates.filter((d): d is Date => d !== undefined).sort((a, b) => a.getTime() - b.getTime())[0];

  /** Email intelligence for the account's address, from the address and this project's accounts. */
  async function emailOf(project: Project, record: AccountRecord): Promise<EmailIntelligence | undefined> {
    if (record.email === undefined) return undefined;
    const now = clock.now();
    const facts = emailFacts(record.email);
    const [fromDomain, address, domainFraud] = await Promise.all([
      facts.domain ? accounts.countAtDomain(project.id, facts.domain, record.id) : 0,
      facts.normalised ? accounts.addressHistory(project.id, facts.normalised, record.id) : { firstSeen: undefined, fraud: 0 },
      // Fraud at a free-mail domain says nothing about this address; the rule weighs it only for organisations' domains.
      facts.domain && ORGANISATION_DOMAINS.has(facts.domain_type) ? accounts.fraudAtDomain(project.id, facts.domain, record.id) : 0,
    ]);
    return emailIntelligence(facts, {
      accountsFromDomain: fromDomain,
      firstSeen: earliest(address.firstSeen, seenBefore(record, now)),
      fraudAccountsWithAddress: address.fraud,
      fraudAccountsAtDomain: domainFraud,
      now,
    });
  }

  /** The account's details; `known` is its email intelligence when already computed. */
  async function accountDetails(project: Project, record: AccountRecord, known?: EmailIntelligence): Promise<AccountDetails> {
    const now = clock.now();
    const summary = await history.accountSummary(project.id, record.id);
    const lastSeen = summary.lastSeen ?? now;
    const week: AccountSessionRow[] = await history.accountSessions(project.id, record.id, 1000, new Date(lastSeen.getTime() - 7 * DAY_MS));
    const scored = await history.accountSessions(project.id, record.id, 200);
    const within = (days: number) => week.filter((s) => s.startTime.getTime() >= lastSeen.getTime() - days * DAY_MS);
    const distinct = (rows: AccountSessionRow[], key: (s: AccountSessionRow) => string | undefined) => new Set(rows.map(key).filter(Boolean)).size;
    const newest = week[0];
    const details: AccountDetails = {
      account: {
        id: record.id,
        metadata: record.metadata,
        ...(record.email !== undefined ? { email: record.email } : {}),
        ...(record.group !== undefined ? { group: record.group } : {}),
      },
      num_sessions: summary.numSessions,
      first_seen: (summary.firstSeen ?? now).toISOString(),
      last_seen: lastSeen.toISOString(),
      last_session: newest?.id ?? '',
      countries: summary.countries,
      unique_devices: { '1_day': distinct(within(1), (s) => s.deviceId), '7_day': distinct(within(7), (s) => s.deviceId) },
      unique_networks: { '1_day': distinct(within(1), (s) => s.ipBlock), '7_day': distinct(within(7), (s) => s.ipBlock) },
      risk_signal_average: riskSignalAverage(
        scored.filter((s) => s.scores).map((s) => ({ time: s.startTime, scores: s.scores!.scores, spoofedIp: s.scores!.spoofedIp })),
        now,
      ),
    };
    if (newest?.countryCode) details.country = newest.countryCode;
    const email = known === undefined ? await emailOf(project, record) : known;
    if (email) details.email = email;
    return details;
  }

  /** Scores and decision from the session's signals, its links and (authenticate) the account's email. */
  function score(stored: StoredSession, signals: SignalResult, linkScores: number[], memberOf: string[], threshold: number, interactive: boolean, emailScore?: number) {
    const automation = signals.risk_signal_details.device.some((d) => AUTOMATION_CONDITION.test(d));
    const bot = botScore({
      bot: stored.facts.bot,
      source: stored.facts.source ?? undefined,
      automation,
      crawler: isCrawlerUserAgent(stored.facts.browser.user_agent),
      interactive,
    });
    const risk = riskSignalsScore(signals.risk_signal_scores, signals.risk_signals.spoofed_ip);
    const multiple = multipleAccountsScore(linkScores, memberOf.includes('main_account'));
    const account = accountScore({ bot, risk_signals: risk, multiple_accounts: multiple, email_score: emailScore });
    return { bot, risk_signals: risk, multiple_accounts: multiple, account_score: account, decision: decide(account, threshold, memberOf) };
  }

  const round = (x: number) => Math.round(x * 1000) / 1000;

  /** The members authenticate and unauthenticated share; the evaluation is persisted first. */
  async function evaluated(
    project: Project,
    stored: StoredSession,
    signals: SignalResult,
    found: Link[],
    memberOf: string[],
    options: EvaluationOptions,
    scored: ReturnType<typeof score>,
    trx?: Db,
  ): Promise<Evaluation> {
    await sessions.setEvaluation(
      project.id,
      stored.id,
      { decision: scored.decision, accountScore: scored.account_score, at: clock.now(), scores: signals.risk_signal_scores, spoofedIp: signals.risk_signals.spoofed_ip },
      trx,
    );
    const out: Evaluation = {
      project_id: project.id,
      session_id: stored.id,
      request_id: options.requestId,
      decision: scored.decision,
      account_score: round(scored.account_score),
      bot: round(scored.bot),
      multiple_accounts: round(scored.multiple_accounts),
      risk_signals: round(scored.risk_signals),
      accounts_linked: Math.min(found.length, LINK_CAP),
      lists: memberOf,
      session: { ...stored.facts, ...signals },
    };
    return out;
  }

  return {
    /** GET /session/{id}: the top-level form, with signals recomputed (no ip_reputation there). */
    async get(project: Project, sessionId: string, requestId: string): Promise<Session> {
      const stored = await load(project, sessionId);
      const accountIds = await sessions.accountIds(stored.id);
      const signals = await signalsOf(project, stored, accountIds.length ? { accountId: accountIds[accountIds.length - 1] } : { deviceId: stored.facts.device_id ?? '' });
      return toTopLevelSession({ ...stored.facts, ...signals }, { account_ids: accountIds, request_id: requestId, project_id: project.id, session_id: stored.id });
    },

    async authenticate(project: Project, body: AuthenticateRequest, options: EvaluationOptions): Promise<AuthenticateResponse> {
      const stored = await load(project, body.session_id);
      live(stored);
      const { id, ...input } = body.account;
      const listInput = input.lists;
      const existing = await accounts.find(project.id, id);
      const record = applyInput(project, existing, input, id);
      const now = clock.now();
      await db.transaction(async (trx) => {
        await accounts.upsert(record, trx);
        await sessions.addAccount(project.id, stored.id, id, now, trx);
        await applyAccountLists(lists, project.id, id, listInput ?? [], now, trx);
      });

      const signals = await signalsOf(project, stored, { accountId: id });
      const accountSessions = await history.accountSessions(project.id, id, SESSIONS_FOLLOWED);
      const found = await links.find(project.id, { sessions: accountSessions, account: record, groupsEnabled: project.groupsEnabled, group: record.group });
      const memberOf = (await lists.ofAccounts(project.id, [id])).get(id) ?? [];
      const email = await emailOf(project, record);
      const s = score(stored, signals, found.map((l) => l.score), memberOf, project.decisionThreshold, true, email?.email_score);

      const common = await db.transaction(async (trx) => {
        await accounts.setDecision(project.id, id, s.decision, trx);
        return evaluated(project, stored, signals, found, memberOf, options, s, trx);
      });
      const response: AuthenticateResponse = { ...common, account_id: id, account: await accountDetails(project, { ...record, decision: s.decision }, email) };
      if (options.accountsLinked) response.linked_accounts = await links.describe(project.id, found);
      return response;
    },

    async evaluateUnauthenticated(project: Project, body: UnauthenticatedRequest, options: EvaluationOptions): Promise<UnauthenticatedResponse> {
      const stored = await load(project, body.session_id);
      live(stored);
      const accountIds = await sessions.accountIds(stored.id);
      const signals = await signalsOf(project, stored, { deviceId: stored.facts.device_id ?? '' });
      // The session's identifiers as stored (the columns linking searches), not derived again here.
      const row = (await history.sessionRow(project.id, stored.id))!;
      // With groups on, a session already used by an account links within that account's group.
      const owner = accountIds.length ? await accounts.find(project.id, accountIds[accountIds.length - 1]) : undefined;
      const grouped = project.groupsEnabled && owner?.group !== undefined;
      const found = (await links.find(project.id, { sessions: [row], groupsEnabled: grouped, group: owner?.group })).filter(
        (l) => !accountIds.includes(l.accountId),
      );
      const memberships = await lists.ofAccounts(project.id, accountIds);
      const memberOf = [...new Set(accountIds.flatMap((a) => memberships.get(a) ?? []))].sort();
      const s = score(stored, signals, found.map((l) => l.score), memberOf, project.decisionThreshold, false);
      const response: UnauthenticatedResponse = await evaluated(project, stored, signals, found, memberOf, options, s);
      if (options.accountsLinked) response.linked_accounts = await links.describe(project.id, found);
      return response;
    },

    accountDetails,
    applyInput,
  };
}

export type EvaluationUseCases = ReturnType<typeof makeEvaluation>;
