/**
 * Session evaluation: load → gather facts → evaluate (pure, domain/evaluation) → persist once →
 * respond. The reads are storage/evaluation/reads.ts (a handful of set-based
 * statements); the write is one transaction (account, session link, lists, decision);
 * authenticates of one account queue one behind the other in the process, and one that raced
 * another process on the same account is evaluated again on fresh facts.
 * docs/pipeline.md describes the steps and what each costs.
 */
import type {
  AccountDetails,
  AccountInput,
  AuthenticateRequest,
  AuthenticateResponse,
  Evaluation,
  EvaluationReceipt,
  LinkedAccount,
  ListName,
  Session,
  UnauthenticatedRequest,
  UnauthenticatedResponse,
} from '../api-types';
import type { Clock, Random } from '../clock';
import {
  ACCOUNT_SESSIONS_READ,
  accountDetails,
  applyAccountInput,
  emailQueryOf,
  type EmailQuery,
  accountEmail,
  describeLinks,
  evaluate,
  LINK_CAP,
  linkEvidence,
  linkSearch,
  linkSearchOf,
  linksOf,
  NO_UNIQUES,
  SESSIONS_FOLLOWED,
  previousIn,
  signalsOf,
  type AccountRecord,
  type EmailHistoryFacts,
  type PastSession,
  type CurrentSession,
  type EvaluationFacts,
  type EvaluationOutcome,
  type LinkSearch,
  uniquesQuery,
  uniquesWith,
  withSession,
} from '../domain/evaluation';
import { NETWORK_CROWD_LIMIT } from '../domain/linking';
import { listsAfter } from '../domain/lists';
import { receiptOf } from '../domain/evaluation/receipt';
import { rulesView } from '../domain/evaluation/rules';
import { evaluationWrite, queuesWebhooks, roundedScores, type Made } from '../domain/evaluation/write';
import { compileRules, NO_RULES, type CompiledRules } from '../domain/rules';
import { DAY_MS } from '../domain/numbers';
import type { IpListName } from '../domain/signals';
import { toTopLevelSession } from '../domain/session/views';
import { withTestOutcome } from '../domain/test-mode';
import { BadRequestError, ConflictError, NotFoundError, SessionNotFoundError } from '../errors';
import { actorName, type Actor } from './actor';
import { makeOneAtATime } from './one-at-a-time';
import type { EvaluationStore } from '../storage/evaluation-store';
import type { ReceiptRepository } from '../storage/repositories/receipts';
import type { Project } from '../storage/repositories/projects';
import type { EvaluationMetrics } from '../telemetry/metrics';
import { NO_TRACING, type Tracing } from '../telemetry/tracing';
import { evaluationMetrics, type StatsTally } from '../domain/stats';

/** A session can be evaluated for this long after it starts (openapi.yaml: sessions can be evaluated for 24 hours). */
export const EVALUATION_WINDOW_MS = DAY_MS;
/** An authenticate that lost a race on its account is evaluated again, at most this many times in all. */
const ATTEMPTS = 8;

export interface IpListLookup {
  lookup(ip: string): { list: IpListName }[];
}

export interface EvaluationDeps {
  clock: Clock;
  /** The hot path's reads and its one write (storage/evaluation-store.ts). */
  store: EvaluationStore;
  receipts: ReceiptRepository;
  ipLists: IpListLookup;
  /** Each evaluation's decision, signals and scores, recorded after it is stored (GET /metrics). */
  metrics?: EvaluationMetrics;
  /** The overview's counts (GET /stats), added to in memory once stored and flushed later (usecases/stats-flusher.ts). */
  tally: Pick<StatsTally, 'add'>;
  /** Spans for the stages: gather, evaluate, persist. */
  tracing?: Pick<Tracing, 'span'>;
  /** Ids of the events an evaluation queues (`evaluation.rule_matched`, list events). */
  random: Random;
  /** Called once a transaction that queued a webhook has committed (webhooks/wake.ts). */
  webhooksQueued(): void;
}

export interface EvaluationOptions {
  requestId: string;
  accountsLinked: boolean;
  /** Who asked (the request's API key): the actor of the list events its lists cause. */
  actor?: Actor;
}

/** Who asked, as list events name an actor: the request's API key; `cli` without one (the in-process demo, which gives no lists). */
const actorOf = (options: EvaluationOptions) => (options.actor ? actorName(options.actor) : 'cli');

export function makeEvaluation(deps: EvaluationDeps) {
  const { clock, store, receipts, ipLists, metrics } = deps;
  const { span } = deps.tracing ?? NO_TRACING;
  /** The outcome into the metrics, once stored. */
  const recordMetrics = (kind: 'authenticate' | 'unauthenticated', outcome: EvaluationOutcome) =>
    metrics?.evaluated(kind, { decision: outcome.decision, scores: outcome.scores, ...outcome.signals });
  const listsOf = (ip: string) => new Set(ipLists.lookup(ip).map((m) => m.list));
  /** Authenticates of one account, one after the other (see one-at-a-time.ts). */
  const byAccount = makeOneAtATime();
  /** Each project's rules compiled once per version (the document comes with the cached project: no read). */
  const compiled = new Map<string, CompiledRules>();

  function rulesOf(project: Project): CompiledRules {
    const current = project.rules;
    if (!current) return NO_RULES;
    const hit = compiled.get(project.id);
    if (hit?.version === current.version) return hit;
    const rules = compileRules(current.document, current.version);
    compiled.set(project.id, rules);
    return rules;
  }

  async function load(project: Project, sessionId: string, history?: { accountId: string; limit: number }) {
    const found = await store.session(project.id, sessionId, history);
    if (!found) throw new SessionNotFoundError();
    return found;
  }

  function live(session: CurrentSession, now: Date): void {
    if (now.getTime() - session.startTime.getTime() > EVALUATION_WINDOW_MS) {
      throw new BadRequestError('Session expired; sessions can be evaluated for 24 hours after they start');
    }
  }

  /** The stored account with the input applied (identifiers normalised), or a 400 naming the rule. */
  function applyInput(
    project: Project,
    existing: AccountRecord | undefined,
    input: Omit<AccountInput, 'id'>,
    id: string,
    field = 'account.',
  ): AccountRecord {
    const context = { projectId: project.id, groupsEnabled: project.groupsEnabled, now: clock.now() };
    const applied = applyAccountInput(context, existing, input, id, field);
    if ('refused' in applied) throw new BadRequestError(applied.refused);
    return applied.record;
  }

  /** The history without the stored account itself, which the domain's count includes once it is stored at the domain. */
  function withoutSelf(history: EmailHistoryFacts, stored: AccountRecord | undefined, query?: EmailQuery) {
    if (stored?.emailDomain !== query?.domain) return history;
    return { ...history, accountsFromDomain: Math.max(0, history.accountsFromDomain - 1) };
  }

  /** The account's links, found from its newest sessions (newest first) as authenticate finds them. */
  async function accountLinks(project: Project, record: AccountRecord, history: PastSession[], describe: boolean) {
    const found = await gatherLinks(project, linkSearch(history.slice(0, SESSIONS_FOLLOWED), record), describe);
    const all = linksOf(linkEvidence(found.search, found.identifierMatches, found.networkMatches), found.linked, {
      enabled: project.groupsEnabled,
      name: record.group,
    });
    return { all, linked: found.linked };
  }

  /** The links' searches, then (to describe them or keep them within a group) the found accounts. */
  async function gatherLinks(project: Project, search: LinkSearch, describe: boolean) {
    const found = await store.linksDescribed(project.id, search, LINK_CAP + 1, NETWORK_CROWD_LIMIT + 1, {
      describe,
      groupsEnabled: project.groupsEnabled,
    });
    return { search, identifierMatches: found.identifiers, networkMatches: found.networks, linked: found.linked };
  }

  /** What authenticate's evaluation is computed from. */
  async function gatherAuthenticate(
    project: Project,
    body: AuthenticateRequest,
    describe: boolean,
  ): Promise<EvaluationFacts> {
    const now = clock.now();
    const { id, ...input } = body.account;
    const [loaded, stored] = await Promise.all([
      load(project, body.session_id, { accountId: id, limit: ACCOUNT_SESSIONS_READ }),
      store.accounts(project.id, [id]),
    ]);
    const { session, history } = loaded;
    live(session, now);
    const existing = stored.get(id);
    const record = applyInput(project, existing?.record, input, id);
    const email = emailQueryOf(record);
    const account = {
      record,
      existing: existing?.record,
      lists: listsAfter(existing?.lists ?? [], input.lists ?? []),
      sessions: history,
    };
    const previous = previousIn(history, session);
    // The windows of the account's details once this session is linked to it (as evaluate takes them).
    const aggregates = session.accountIds.includes(id) ? record.aggregates : withSession(record.aggregates, session);
    const [counts, { search: _search, ...links }] = await Promise.all([
      store.counts(project.id, {
        sessionId: session.id,
        ip: session.ipAddress,
        block: session.ipBlock,
        now,
        accountId: id,
        ...(email ? { email } : {}),
        uniques: uniquesQuery(id, aggregates.lastSeen, now, session),
      }),
      gatherLinks(project, linkSearchOf({ session, account }), describe),
    ]);
    if (counts.email) counts.email = withoutSelf(counts.email, existing?.record, email);
    // The account is on the address once this session is linked to it.
    const joins = !session.accountIds.includes(id) && !counts.accountOnIp;
    return {
      now,
      interactive: true,
      project,
      session,
      ipLists: listsOf(session.ipAddress),
      previousIpLists: listsOf(previous?.ipAddress ?? ''),
      network: { ...counts.network, ipDistinctAccounts: counts.network.ipDistinctAccounts + (joins ? 1 : 0) },
      previous,
      account: { ...account, ...(counts.email ? { email: counts.email } : {}), uniques: counts.uniques ?? NO_UNIQUES },
      sessionAccountLists: [],
      ...links,
      rules: rulesOf(project),
    };
  }

  /** What unauthenticated's evaluation is computed from. */
  async function gatherUnauthenticated(
    project: Project,
    sessionId: string,
    describe: boolean,
  ): Promise<EvaluationFacts> {
    const now = clock.now();
    const { session } = await load(project, sessionId);
    live(session, now);
    const [owners, previous, counts, { search: _search, ...links }] = await Promise.all([
      store.accounts(project.id, session.accountIds),
      store.previousOfDevice(project.id, session.deviceId, session.startTime, session.id),
      store.counts(project.id, { sessionId: session.id, ip: session.ipAddress, block: session.ipBlock, now }),
      gatherLinks(project, linkSearchOf({ session }), describe),
    ]);
    // With groups on, a session already used by an account links within that account's group.
    const lastAccount = session.accountIds.at(-1);
    const owner = lastAccount !== undefined ? owners.get(lastAccount) : undefined;
    return {
      now,
      interactive: false,
      project,
      session,
      ipLists: listsOf(session.ipAddress),
      previousIpLists: listsOf(previous?.ipAddress ?? ''),
      network: counts.network,
      previous,
      sessionAccountLists: [...new Set(session.accountIds.flatMap((a) => owners.get(a)?.lists ?? []))].sort(),
      linkGroup: owner?.record.group,
      ...links,
      rules: rulesOf(project),
    };
  }

  /** The evaluation's write, in one transaction; false (nothing written) when the account changed since it was read. */
  async function persist(
    project: Project,
    facts: EvaluationFacts,
    outcome: EvaluationOutcome,
    listInput: readonly ListName[],
    made: Made,
  ): Promise<boolean> {
    const now = clock.now();
    const write = evaluationWrite({
      project,
      facts,
      outcome,
      listInput,
      made,
      at: now,
      newId: () => deps.random.uuid(),
    });
    const written = await store.commit(write);
    // After the commit, never inside the transaction: a dispatcher woken earlier would not see the row yet.
    if (written && queuesWebhooks(write)) deps.webhooksQueued();
    // The overview's counts: in-memory increments like the metrics', on the evaluation's day; no statement.
    if (written)
      deps.tally.add(
        project.id,
        now,
        evaluationMetrics(
          outcome.decision,
          outcome.signals.risk_signal_scores,
          outcome.signals.risk_signals.spoofed_ip,
        ),
      );
    return written;
  }

  function respond(
    project: Project,
    facts: EvaluationFacts,
    outcome: EvaluationOutcome,
    options: EvaluationOptions,
  ): Evaluation {
    return {
      project_id: project.id,
      session_id: facts.session.id,
      request_id: options.requestId,
      decision: outcome.decision,
      ...roundedScores(outcome.scores),
      accounts_linked: Math.min(outcome.links.length, LINK_CAP),
      lists: outcome.lists,
      session: { ...facts.session.facts, ...outcome.signals },
      rules: rulesView(outcome.rules),
    };
  }

  /** A stored session in the top-level form, its signals recomputed; undefined when the project has no such session. */
  async function find(project: Project, sessionId: string, requestId: string): Promise<Session | undefined> {
    const found = await store.session(project.id, sessionId);
    if (!found) return undefined;
    const { session } = found;
    const owner = session.accountIds[session.accountIds.length - 1];
    const [previous, counts] = await Promise.all([
      owner !== undefined
        ? store.previousOfAccount(project.id, owner, session.startTime, session.id)
        : store.previousOfDevice(project.id, session.deviceId, session.startTime, session.id),
      store.counts(project.id, {
        sessionId: session.id,
        ip: session.ipAddress,
        block: session.ipBlock,
        now: clock.now(),
      }),
    ]);
    const signals = signalsOf({
      session,
      ipLists: listsOf(session.ipAddress),
      previousIpLists: listsOf(previous?.ipAddress ?? ''),
      network: counts.network,
      previous,
    });
    return toTopLevelSession(
      { ...session.facts, ...signals },
      { account_ids: session.accountIds, request_id: requestId, project_id: project.id, session_id: session.id },
    );
  }

  /** One authenticate, evaluated again on fresh facts when another process changed the account meanwhile. */
  async function authenticateNow(
    project: Project,
    body: AuthenticateRequest,
    options: EvaluationOptions,
  ): Promise<AuthenticateResponse> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const facts = await span('evaluation.gather', () => gatherAuthenticate(project, body, options.accountsLinked));
      const outcome = span('evaluation.evaluate', () => withTestOutcome(project, facts, evaluate(facts)));
      const made: Made = {
        kind: 'authenticate',
        requestId: options.requestId,
        accountId: body.account.id,
        actor: actorOf(options),
      };
      if (!(await span('evaluation.persist', () => persist(project, facts, outcome, body.account.lists ?? [], made))))
        continue;
      recordMetrics('authenticate', outcome);
      const response: AuthenticateResponse = {
        ...respond(project, facts, outcome, options),
        account_id: body.account.id,
        account: outcome.account!.details,
      };
      if (options.accountsLinked) response.linked_accounts = describeLinks(outcome.links, facts.linked);
      return response;
    }
    throw new ConflictError(`Account ${body.account.id} is being changed by other requests at the same time; retry`);
  }

  return {
    /** GET /session/{id}: the top-level form, with signals recomputed (no ip_reputation there). */
    async get(project: Project, sessionId: string, requestId: string): Promise<Session> {
      const found = await find(project, sessionId, requestId);
      if (!found) throw new SessionNotFoundError();
      metrics?.evaluated('get', found);
      return found;
    },

    /** GET /evaluation/{request_id}: the receipt of one of the project's evaluations. */
    async receipt(project: Project, requestId: string): Promise<EvaluationReceipt> {
      const found = await receipts.find(project.id, requestId);
      if (!found) throw new NotFoundError('Evaluation', requestId);
      return receiptOf(found);
    },

    /** The session in GET /session/{id}'s form, or undefined when the project has no such session (a verification's device and referring sessions). */
    find,

    async authenticate(
      project: Project,
      body: AuthenticateRequest,
      options: EvaluationOptions,
    ): Promise<AuthenticateResponse> {
      return byAccount.run(`${project.id}\u0000${body.account.id}`, () => authenticateNow(project, body, options));
    },

    async evaluateUnauthenticated(
      project: Project,
      body: UnauthenticatedRequest,
      options: EvaluationOptions,
    ): Promise<UnauthenticatedResponse> {
      const facts = await span('evaluation.gather', () =>
        gatherUnauthenticated(project, body.session_id, options.accountsLinked),
      );
      const outcome = span('evaluation.evaluate', () => withTestOutcome(project, facts, evaluate(facts)));
      const made: Made = { kind: 'unauthenticated', requestId: options.requestId, actor: actorOf(options) };
      await span('evaluation.persist', () => persist(project, facts, outcome, [], made));
      recordMetrics('unauthenticated', outcome);
      const response: UnauthenticatedResponse = respond(project, facts, outcome, options);
      if (options.accountsLinked) response.linked_accounts = describeLinks(outcome.links, facts.linked);
      return response;
    },

    /** An account's linked accounts (the Account API), found as authenticate finds them. */
    async linked(project: Project, record: AccountRecord): Promise<LinkedAccount[]> {
      const history = await store.accountSessions(project.id, record.id, SESSIONS_FOLLOWED);
      const { all, linked } = await accountLinks(project, record, history, true);
      return describeLinks(all, linked);
    },

    /** An account's details as authenticate's `account` gives them (as of now), and how many accounts are linked to it (the Account API). */
    async accountDetails(
      project: Project,
      record: AccountRecord,
    ): Promise<{ details: AccountDetails; linked: number }> {
      const query = emailQueryOf(record);
      const now = clock.now();
      const windows = uniquesQuery(record.id, record.aggregates.lastSeen, now);
      const [history, emailHistory, uniques] = await Promise.all([
        store.accountSessions(project.id, record.id, ACCOUNT_SESSIONS_READ),
        query ? store.emailHistory(project.id, query) : undefined,
        store.uniques(project.id, windows),
      ]);
      const { all } = await accountLinks(project, record, history, false);
      const email = accountEmail(record, emailHistory && withoutSelf(emailHistory, record, query), now);
      return {
        details: accountDetails(record, history, now, uniquesWith(uniques, windows), email),
        linked: Math.min(all.length, LINK_CAP),
      };
    },

    applyInput,
  };
}

export type EvaluationUseCases = ReturnType<typeof makeEvaluation>;
