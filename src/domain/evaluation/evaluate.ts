/**
 * One evaluation, pure: from the gathered facts (facts.ts) to the risk signals, the four
 * scores, the decision, the linked accounts and their confidence, and (authenticate) the
 * account's details and the aggregates its row keeps. The use case gathers, calls `evaluate`
 * once, writes what it returns in one transaction and answers. docs/pipeline.md.
 */
import type { AccountDetails, EmailIntelligence } from '../../api-types';
import { emailFacts, emailIntelligence } from '../email';
import {
  accountScore,
  botEvidenceScore,
  decide,
  interactionDoubt,
  isCrawlerUserAgent,
  multipleAccountsScore,
  riskSignalAverage,
  riskSignalsScore,
} from '../scoring';
import { deviceBotEvidence, evaluateSignals, type PreviousSession, type SignalResult } from '../signals';
import type {
  AccountAggregates,
  AccountRecord,
  EmailHistoryFacts,
  EvaluationFacts,
  PastSession,
  ScoreInputs,
  Scores,
} from './facts';
import { linkEvidence, linkSearch, linksOf, SESSIONS_FOLLOWED, type Link, type LinkSearch } from './links';
import { withRules } from './rules';
import { weighsDomainFraud } from './email-history';
import { NO_UNIQUES, uniquesQuery, uniquesWith } from './uniques';
import type { EvaluationOutcome } from './outcome';

/** An account's newest sessions read for its details and signal averages. */
export const ACCOUNT_SESSIONS_READ = 200;
/** An account created less than this before the request has not been seen before it. */
const NEW_ACCOUNT_MS = 60_000;
const ANONYMISING_LISTS: ReadonlySet<string> = new Set(['tor', 'vpn', 'proxy', 'relay']);

/** The account's sessions once this one is linked to it, newest first. */
export function sessionsWithCurrent(history: readonly PastSession[], current: PastSession): PastSession[] {
  const rest = history.filter((s) => s.id !== current.id);
  const at = rest.findIndex((s) => s.startTime.getTime() < current.startTime.getTime());
  return at === -1 ? [...rest, current] : [...rest.slice(0, at), current, ...rest.slice(at)];
}

/** What to search for links: the account's newest sessions and its identifiers, or the session alone. */
export function linkSearchOf(facts: {
  session: PastSession;
  account?: { record: AccountRecord; sessions: readonly PastSession[] };
}): LinkSearch {
  if (!facts.account) return linkSearch([facts.session], undefined);
  return linkSearch(
    sessionsWithCurrent(facts.account.sessions, facts.session).slice(0, SESSIONS_FOLLOWED),
    facts.account.record,
  );
}

/** The session before `current` among `sessions` (newest first): the one the travel rule compares with. */
export function previousIn(sessions: readonly PastSession[], current: PastSession): PastSession | undefined {
  return sessions.find((s) => s.id !== current.id && s.startTime.getTime() < current.startTime.getTime());
}

/** The previous session as the travel rule takes it; anonymised when stored so or its address is on an anonymising list now. */
function previousOf(facts: Pick<EvaluationFacts, 'previous' | 'previousIpLists'>): PreviousSession | undefined {
  const p = facts.previous;
  if (!p?.location) return undefined;
  const listed = [...facts.previousIpLists].some((l) => ANONYMISING_LISTS.has(l));
  return {
    time: p.startTime,
    latitude: p.location.latitude,
    longitude: p.location.longitude,
    accuracyKm: p.location.accuracyKm,
    anonymised: p.location.anonymised || listed,
  };
}

/** The account's aggregates with `session` linked to it (unchanged when it already was). */
export function withSession(a: AccountAggregates, session: PastSession): AccountAggregates {
  const t = session.startTime.getTime();
  const newest =
    a.lastSeen === undefined ||
    t > a.lastSeen.getTime() ||
    (t === a.lastSeen.getTime() && session.id > (a.lastSessionId ?? ''));
  return {
    numSessions: a.numSessions + 1,
    firstSeen: a.firstSeen === undefined || t < a.firstSeen.getTime() ? session.startTime : a.firstSeen,
    lastSeen: newest ? session.startTime : a.lastSeen,
    lastSessionId: newest ? session.id : a.lastSessionId,
    lastCountry: newest ? session.countryCode : a.lastCountry,
    countries:
      session.countryCode && !a.countries.includes(session.countryCode)
        ? [...a.countries, session.countryCode].sort()
        : a.countries,
  };
}

/** Email intelligence for the account's address, from the address and the project's other accounts. */
export function accountEmail(
  record: AccountRecord,
  history: EmailHistoryFacts | undefined,
  now: Date,
): EmailIntelligence | undefined {
  if (record.email === undefined || !history) return undefined;
  const email = emailFacts(record.email);
  const seenBefore = now.getTime() - record.createdAt.getTime() > NEW_ACCOUNT_MS ? record.createdAt : undefined;
  const firstSeen = [history.addressFirstSeen, seenBefore]
    .filter((d): d is Date => d !== undefined)
    .sort((a, b) => a.getTime() - b.getTime())[0];
  return emailIntelligence(email, {
    accountsFromDomain: history.accountsFromDomain,
    firstSeen,
    fraudAccountsWithAddress: history.fraudAccountsWithAddress,
    fraudAccountsAtDomain: weighsDomainFraud(email) ? history.fraudAccountsAtDomain : 0,
    now,
  });
}

/**
 * The account's details after this evaluation: its aggregates, the distinct devices and
 * networks of its sessions within 1 and 7 days of its last one (`uniques`: uniques.ts), and the
 * time-decayed averages of the signal scores of its newest sessions (at most ACCOUNT_SESSIONS_READ).
 */
export function accountDetails(
  record: AccountRecord,
  sessions: readonly PastSession[],
  now: Date,
  uniques: Pick<AccountDetails, 'unique_devices' | 'unique_networks'>,
  email?: EmailIntelligence,
): AccountDetails {
  const a = record.aggregates;
  const lastSeen = a.lastSeen ?? now;
  const details: AccountDetails = {
    account: {
      id: record.id,
      metadata: record.metadata,
      ...(record.email !== undefined ? { email: record.email } : {}),
      // '' when the account has none (groups off): the published shape always carries it.
      group: record.group ?? '',
    },
    num_sessions: a.numSessions,
    first_seen: (a.firstSeen ?? now).toISOString(),
    last_seen: lastSeen.toISOString(),
    last_session: a.lastSessionId ?? '',
    countries: a.countries,
    unique_devices: uniques.unique_devices,
    unique_networks: uniques.unique_networks,
    risk_signal_average: riskSignalAverage(
      sessions
        .filter((s) => s.scores)
        .map((s) => ({ time: s.startTime, scores: s.scores!.scores, spoofedIp: s.scores!.spoofedIp })),
      now,
    ),
  };
  if (a.lastCountry) details.country = a.lastCountry;
  if (email) details.email = email;
  return details;
}

/** The scores from the signals, the links' confidences and (authenticate) the email's score; and what they weighed. */
function scoresOf(
  facts: EvaluationFacts,
  signals: SignalResult,
  links: readonly Link[],
  lists: readonly string[],
  emailScore?: number,
): { scores: Scores; scoring: ScoreInputs } {
  const s = facts.session.facts;
  const device = deviceBotEvidence(facts.session.sdk);
  const evidence = {
    automation: device.automation,
    crawler: isCrawlerUserAgent(s.browser.user_agent),
    tampering: device.tampering,
    interactive: facts.interactive,
    doubt: interactionDoubt(s.bot, s.source ?? undefined),
  };
  const bot = botEvidenceScore(evidence);
  const risk = riskSignalsScore(signals.risk_signal_scores, signals.risk_signals.spoofed_ip);
  const linkScores = links.map((l) => l.score);
  const multiple = multipleAccountsScore(linkScores, lists.includes('main_account'));
  return {
    scores: {
      bot,
      risk_signals: risk,
      multiple_accounts: multiple,
      account_score: accountScore({ bot, risk_signals: risk, multiple_accounts: multiple, email_score: emailScore }),
    },
    scoring: { bot: evidence, linkScores, emailScore },
  };
}

/** The session's risk signals, with the IP lists and the service's history. */
export function signalsOf(
  facts: Pick<EvaluationFacts, 'session' | 'ipLists' | 'previousIpLists' | 'network' | 'previous'>,
): SignalResult {
  const s = facts.session;
  return evaluateSignals({
    now: s.startTime,
    sdk: s.sdk,
    session: s.facts,
    ipLists: facts.ipLists,
    history: { ...facts.network, previous: previousOf(facts) },
  });
}

/** The evaluation: scored, decided, then the project's rules applied (rules.ts). */
export function evaluate(facts: EvaluationFacts): EvaluationOutcome {
  return withRules(facts, scored(facts));
}

/** The evaluation by the scores and lists alone. */
function scored(facts: EvaluationFacts): Omit<EvaluationOutcome, 'rules'> {
  const signals = signalsOf(facts);
  const search = linkSearchOf(facts);
  const evidence = linkEvidence(search, facts.identifierMatches, facts.networkMatches);
  const account = facts.account;
  const grouped = account ? facts.project.groupsEnabled : facts.project.groupsEnabled && facts.linkGroup !== undefined;
  const found = linksOf(
    evidence,
    facts.linked,
    { enabled: grouped, name: account ? account.record.group : facts.linkGroup },
    facts.project.linkScoreFloor,
  );

  if (!account) {
    // Unauthenticated: the session's own accounts are not linked to it.
    const links = found.filter((l) => !facts.session.accountIds.includes(l.accountId));
    const { scores, scoring } = scoresOf(facts, signals, links, facts.sessionAccountLists);
    return {
      signals,
      scores,
      scoring,
      decision: decide(scores.account_score, facts.project.decisionThreshold, facts.sessionAccountLists),
      lists: facts.sessionAccountLists,
      links,
    };
  }

  const email = accountEmail(account.record, account.email, facts.now);
  const { scores, scoring } = scoresOf(facts, signals, found, account.lists, email?.email_score);
  const decision = decide(scores.account_score, facts.project.decisionThreshold, account.lists);
  const linksSession = !facts.session.accountIds.includes(account.record.id);
  const current: PastSession = {
    ...facts.session,
    scores: { scores: signals.risk_signal_scores, spoofedIp: signals.risk_signals.spoofed_ip },
  };
  const record: AccountRecord = {
    ...account.record,
    decision,
    aggregates: linksSession ? withSession(account.record.aggregates, current) : account.record.aggregates,
  };
  const uniques = uniquesWith(
    account.uniques ?? NO_UNIQUES,
    uniquesQuery(record.id, record.aggregates.lastSeen, facts.now, current),
    current,
  );
  const details = accountDetails(record, sessionsWithCurrent(account.sessions, current), facts.now, uniques, email);
  return {
    signals,
    scores,
    scoring,
    decision,
    lists: account.lists,
    links: found,
    account: { details, record, email, linksSession },
  };
}
