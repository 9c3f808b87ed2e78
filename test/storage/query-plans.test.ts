/**
 * Query plans of the risk engine: every statement an evaluation makes starts from an index,
 * never from a whole table.
 *
 * A database (SQLite, or PostgreSQL under DATABASE_URL) is seeded through the repositories
 * themselves with a few thousand sessions and accounts that share devices, addresses, emails
 * and lists. Each repository method is then wrapped so that every SQL statement knex sends
 * (captured with its `query` event) is labelled with the method that sent it; the methods the
 * engine uses are called in each of their forms, and the engine itself evaluates sessions
 * (authenticate with linked accounts, unauthenticated, GET /session). Each distinct statement
 * is EXPLAINed with the bindings it ran with.
 *
 * On sessions, accounts, session_accounts and list_members the test fails on:
 * - SQLite (`EXPLAIN QUERY PLAN`, without ANALYZE: the service never runs it, so these are the
 *   plans production gets): a `SCAN` (the table, or a whole index), or a `SEARCH` whose
 *   equalities do not narrow it (see BROAD: `project_id` alone reads every row when there is
 *   one project, the usual self-hosted case; e.g. walking the (project_id, start_time) index
 *   backwards to find one account's newest session).
 * - PostgreSQL (`EXPLAIN (FORMAT JSON)` after ANALYZE, with `enable_seqscan = off`: a table of
 *   a few thousand rows is cheaper to read whole, so this asks whether an index path exists):
 *   a `Seq Scan`, an index scan with no index condition, or an index condition that does not
 *   narrow it.
 * The reads no index can bound as the repositories write them are listed in KNOWN_BROAD, with
 * the reason; they are printed with the plans, not failed.
 *
 * TRUSTGATE_PRINT_PLANS=1 prints every statement with its plan.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import { escapeLiteral } from 'pg';
import type { EvaluatedSession } from '../../src/api-types';
import { fixedClock, systemRandom } from '../../src/clock';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';
import { makeSecretBox } from '../../src/security/secrets';
import { makeServices, type Services } from '../../src/composition';
import type { Project } from '../../src/storage/repositories/projects';
import { mulberry32 } from '../../scripts/prng';
import { makeTestDb, type TestDb } from '../helpers/db';
import { at } from '../helpers/defined';
import { example } from '../helpers/spec';

const GUARDED = new Set([
  'sessions',
  'accounts',
  'session_accounts',
  'list_members',
  'identifier_accounts',
  'account_uniques',
  // The address's and block's accounts, kept by triggers (migration 0042).
  'network_accounts',
  // The overview's kept counts (GET /stats): one range of its primary key.
  'evaluation_counts',
  // What a retention pass removes from (usecases/retention.ts).
  'session_facts',
  'verification_sessions',
  'verification_captures',
  'verification_faces',
  'verification_documents',
  'webhooks',
  'webhook_attempts',
]);

const NOW = new Date('2026-11-20T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NUM_ACCOUNTS = 1200;
const NUM_SESSIONS = 3000;
const DOMAINS = ['gmail.com', 'yahoo.com', 'acme-corp.com', 'stanford.edu'];

interface Statement {
  labels: Set<string>;
  sql: string;
  bindings: unknown[];
}

let testDb: TestDb;
let services: Services;
let project: Project;
const calls = new AsyncLocalStorage<string>();
const statements = new Map<string, Statement>();
/** Every repository method that sent at least one statement. */
const exercised = new Set<string>();

/** Labels every statement a repository method sends with `<repository>.<method>`. */
function instrument(services: Services): void {
  for (const [repoName, repo] of Object.entries(services.repos) as [string, Record<string, unknown>][]) {
    for (const [method, fn] of Object.entries(repo)) {
      if (typeof fn !== 'function') continue;
      repo[method] = (...args: unknown[]) =>
        calls.run(`${repoName}.${method}`, () => (fn as (...a: unknown[]) => unknown)(...args));
    }
  }
  testDb.db.on('query', (q: { sql: string; bindings?: unknown[] }) => {
    const label = calls.getStore();
    if (!label || !/^\s*(select|insert|update|delete|with)\b/i.test(q.sql)) return;
    exercised.add(label);
    const known = statements.get(q.sql);
    if (known) known.labels.add(label);
    else statements.set(q.sql, { labels: new Set([label]), sql: q.sql, bindings: q.bindings ?? [] });
  });
}

// ------------------------------------------------------------------------------------- seeding

interface Seeded {
  accounts: string[];
  sessions: {
    id: string;
    accountId?: string;
    deviceId: string;
    fingerprint: string;
    ip: string;
    block: string;
    startTime: Date;
    mobileId?: string;
  }[];
}
let seeded: Seeded;

async function seed(): Promise<Seeded> {
  // Deterministic, so that every run seeds the same history.
  const rand = mulberry32(42);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const { repos, evaluation } = services;
  const template = (await example<{ session: EvaluatedSession }>('AuthenticateResponseReal')).session;
  const out: Seeded = { accounts: [], sessions: [] };

  await testDb.db.transaction(async (trx) => {
    await repos.lists.ensure(
      project.id,
      ['allow', 'block', 'main_account']
        .map((name) => ({ name, standard: true }))
        .concat(['vip', 'beta'].map((name) => ({ name, standard: false }))),
      NOW,
      trx,
    );
    for (let i = 0; i < NUM_ACCOUNTS; i++) {
      const id = `acct-${String(i).padStart(6, '0')}`;
      const record = evaluation.applyInput(
        project,
        undefined,
        {
          // Some addresses are shared by two accounts (the email link).
          email: `user${i % 1000}@${DOMAINS[i % DOMAINS.length]}`,
          ...(i % 3 === 0 ? { phone: `+1415555${String(1000 + (i % 700)).padStart(4, '0')}` } : {}),
          first_name: `First${i % 900}`,
          last_name: `Last${i % 900}`,
          username: `user_${i % 1100}`,
          expected_countries: ['US'],
        },
        id,
      );
      record.createdAt = record.updatedAt = new Date(NOW.getTime() - (1 + rand() * 400) * DAY);
      // Most accounts were evaluated (the score order's index holds them), many with equal scores.
      if (i % 5 !== 0) record.scores = { account_score: (i % 97) / 100, bot: 0, multiple_accounts: 0, risk_signals: 0 };
      await repos.accounts.upsert(record, trx);
      if (i % 40 === 0) await repos.lists.add(project.id, 'block', id, NOW, trx);
      else if (i % 40 === 1) await repos.lists.add(project.id, 'allow', id, NOW, trx);
      // Custom lists hold more accounts: list_members is not a tiny table next to the others.
      if (i % 3 === 0) await repos.lists.add(project.id, 'vip', id, NOW, trx);
      if (i % 4 === 0) await repos.lists.add(project.id, 'beta', id, NOW, trx);
      out.accounts.push(id);
    }

    for (let i = 0; i < NUM_SESSIONS; i++) {
      const device = Math.floor(rand() * (NUM_SESSIONS / 2.5));
      const blockNo = Math.floor(rand() * 40);
      const ip = `81.2.${blockNo}.${1 + Math.floor(rand() * 25)}`;
      // A third of the sessions started in the last 20 hours (live), the rest over 60 days.
      const startTime = new Date(NOW.getTime() - (i % 3 === 0 ? rand() * 20 * HOUR : DAY + rand() * 59 * DAY));
      const native = i % 5 === 0;
      const sdk: SdkFacts = {
        source: native ? 'ios' : 'web',
        device_id: `device-${device}`,
        ...(native
          ? { mobile: { mobile_id: `mobile-${device}`, apple_device_check: `token-${device}` } }
          : {
              browser_fingerprint: createHash('sha256')
                .update(`fp-${device % 900}`)
                .digest('hex')
                .slice(0, 32),
            }),
      };
      const facts: EvaluatedSession = {
        ...structuredClone(template),
        source: sdk.source,
        start_time: startTime.toISOString(),
        device_id: sdk.device_id,
        network: { ...template.network, ip_address: ip },
      };
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      await repos.sessions.insert(
        { id, projectId: project.id, ipAddress: ip, startTime, updatedAt: startTime, facts, sdk },
        trx,
      );
      // Most sessions were authenticated with an account; a few were not.
      const accountId = i % 10 === 9 ? undefined : pick(out.accounts);
      if (accountId) await repos.sessions.addAccount(project.id, id, accountId, startTime, trx);
      if (i % 4 !== 3) {
        const fake = rand() < 0.05;
        await repos.sessions.setEvaluation(
          project.id,
          id,
          {
            decision: fake ? 'Fake' : 'Real',
            accountScore: fake ? 0.9 : 0.1,
            at: startTime,
            scores: template.risk_signal_scores,
            spoofedIp: false,
          },
          trx,
        );
        if (accountId) await repos.accounts.setDecision(project.id, accountId, fake ? 'Fake' : 'Real', trx);
      }
      out.sessions.push({
        id,
        accountId,
        deviceId: sdk.device_id,
        fingerprint: sdk.browser_fingerprint ?? '',
        ip,
        block: `81.2.${blockNo}.0/24`,
        startTime,
        mobileId: sdk.mobile?.mobile_id ?? undefined,
      });
    }
  });
  if (testDb.dialect === 'postgresql') await testDb.db.raw('ANALYZE');
  return out;
}

// ------------------------------------------------------------------------------------ explaining

interface Violation {
  table: string;
  reason: string;
  /** An index search that does not narrow (rather than a scan): may be a known one. */
  broad?: boolean;
  /** The broad search's columns compared with `=`. */
  equalities?: string[];
}

interface Explained {
  plan: string;
  violations: Violation[];
}

/** Table names by alias (`from "sessions" as "s"`), and each table by its own name. */
function aliasesOf(sql: string): Map<string, string> {
  const out = new Map<string, string>([...GUARDED].map((t) => [t, t]));
  // Both groups are required by the patterns, so every match has them.
  for (const m of sql.matchAll(/["`](\w+)["`]\s+as\s+["`](\w+)["`]/gi)) out.set(m[2]!, m[1]!);
  // Hand-written statements (evaluation-facts.ts) name their aliases unquoted: `sessions s`.
  for (const m of sql.matchAll(
    /\b(sessions|accounts|session_accounts|list_members|identifier_accounts|network_accounts)\s+(?:as\s+)?(?!(?:on|where|join|left|inner|order|group|limit|union)\b)(\w+)/gi,
  ))
    out.set(m[2]!, m[1]!);
  return out;
}

/**
 * Columns whose equality does not narrow a search to a bounded set of rows: the project (one
 * project is the usual self-hosted case), a list (the block list is a slice of the project that
 * grows with it, and walked inside a join it is walked once per row), an email domain (gmail.com),
 * an account's decision (the Fake accounts are a slice of the project that grows with it).
 */
const BROAD: Record<string, string[]> = {
  list_members: ['project_id', 'list_name'],
  accounts: ['project_id', 'email_domain', 'decision'],
};

function narrows(table: string, equalities: string[]): boolean {
  const broad = BROAD[table] ?? ['project_id'];
  return equalities.some((c) => !broad.includes(c));
}

/**
 * Reads that no index can bound as the repositories write them, each for the reason given
 * (they are reported, not failed); with `by`, only a search by that column is the known one.
 * Anything else on a guarded table must narrow.
 */
const KNOWN_BROAD: { label: string; table: string; by?: string; why: string }[] = [
  { label: 'lists.members', table: 'list_members', why: 'pages one list in index order under a LIMIT' },
  {
    label: 'store.counts',
    table: 'accounts',
    by: 'email_domain',
    why: 'domain_fraud: the first Fake account at the domain other than the evaluated one, (project_id, email_domain, decision, id) under EXISTS: two entries at most (its block-listed accounts are a kept count, email_domains.num_blocked)',
  },
  {
    label: 'receipts.page',
    table: 'sessions',
    why: "a backtest's batch (POST /rules/test, not an evaluation's): the sessions started from a day before the range to its end, (project_id, start_time, id), LIMIT batch",
  },
  // Retention's batches: the project's oldest rows first, a range of an index led by the project under the batch's LIMIT.
  {
    label: 'retention.sessionsDue',
    table: 'sessions',
    why: "the project's oldest sessions, (project_id, start_time, id), LIMIT batch",
  },
  {
    label: 'verifications.mediaDue',
    table: 'verification_sessions',
    why: "the project's oldest sessions not yet erased, (project_id, media_erased_at, created_at), LIMIT batch",
  },
  {
    label: 'outbox.deliveredBefore',
    table: 'webhooks',
    why: "the project's oldest webhooks, (project_id, created_at), LIMIT batch",
  },
  // An erasure's redaction of the events that name the account (webhooks/outbox/erasure.ts): the
  // bodies are sealed, so it opens each of the project's, a page of its index at a time.
  {
    label: 'outbox.redactAccounts',
    table: 'webhooks',
    why: "the project's webhooks in pages of (project_id, created_at, request_id), LIMIT page: sealed bodies match no query",
  },
  // The console's webhooks page (listWebhookDeliveries): a page of the project's webhooks newest
  // first from a keyset cursor, (project_id[, status], created_at, request_id), LIMIT page + 1.
  {
    label: 'outbox.page',
    table: 'webhooks',
    why: "a page of the project's webhooks, newest first, (project_id[, status], created_at, request_id), LIMIT page + 1",
  },
  // The Search API (docs/api-search.md): a page is at most SEARCH_WINDOW keys of one index in
  // the page's order, the other filters checked on those rows; a rare filter costs more pages.
  { label: 'search.accounts', table: 'accounts', why: 'pages the accounts in id order, a window of keys at a time' },
  { label: 'search.accounts', table: 'list_members', why: 'pages a list in account order, a window of keys at a time' },
  { label: 'search.sessions', table: 'sessions', why: 'pages the sessions newest first, a window of keys at a time' },
  {
    label: 'search.accountsByScore',
    table: 'accounts',
    why: 'pages the accounts riskiest first, (project_id, account_score, id) backwards from the cursor, a window of keys at a time',
  },
  // The overview: a range of days (at most 90) of the primary key (project_id, day, metric), a
  // few rows a day (the decisions and the signals raised that day) whatever the traffic.
  {
    label: 'evaluationCounts.range',
    table: 'evaluation_counts',
    why: 'a range of at most 90 days of (project_id, day, metric): a few rows a day',
  },
];

function known(labels: Set<string>, v: Violation): boolean {
  return [...labels].every((label) =>
    KNOWN_BROAD.some(
      (k) => k.label === label && k.table === v.table && (k.by === undefined || (v.equalities ?? []).includes(k.by)),
    ),
  );
}

/** Runs a statement on a connection of the pool without going through knex (no query event). */
async function onConnection<T>(fn: (conn: unknown) => Promise<T>): Promise<T> {
  const client = testDb.db.client as {
    acquireConnection(): Promise<unknown>;
    releaseConnection(c: unknown): Promise<void>;
  };
  const conn = await client.acquireConnection();
  try {
    return await fn(conn);
  } finally {
    await client.releaseConnection(conn);
  }
}

async function explainSqlite(s: Statement): Promise<Explained> {
  type Row = { id: number; parent: number; detail: string };
  const rows = await onConnection(async (conn) =>
    (conn as { prepare(sql: string): { all(...b: unknown[]): Row[] } }).prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(
      // As knex binds them for better-sqlite3.
      ...s.bindings.map((b) => (typeof b === 'boolean' ? Number(b) : b instanceof Date ? b.valueOf() : b)),
    ),
  );
  const aliases = aliasesOf(s.sql);
  const violations: Violation[] = [];
  for (const { detail } of rows) {
    const m = /^(SCAN|SEARCH) (\w+)(?: USING (.*?))?(?: \((.*)\))?(?: LEFT-JOIN)?$/.exec(detail);
    if (!m) continue;
    const name = m[2]!; // a required group
    const table = aliases.get(name) ?? name;
    if (!GUARDED.has(table)) continue;
    if (m[1] === 'SCAN') {
      violations.push({
        table,
        reason: m[3] ? `walks the whole index (${detail})` : `reads the whole table (${detail})`,
      });
      continue;
    }
    const equalities = (m[4] ?? '')
      .split(' AND ')
      .map((c) => /^(\w+)=/.exec(c)?.[1])
      .filter((c): c is string => c !== undefined);
    if (!narrows(table, equalities))
      violations.push({
        table,
        broad: true,
        equalities,
        reason: `reads every row of the project${BROAD[table] ? ', a list or a domain' : ''} (${detail})`,
      });
  }
  const plan = rows.map((r) => `${r.id}/${r.parent} ${r.detail}`).join('\n');
  return { plan, violations };
}

interface PgNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PgNode[];
  [k: string]: unknown;
}

let pgIndexTables: Map<string, string> | undefined;

/** The columns compared with `=` (or `= ANY`, an IN list) in an index condition. */
function pgEqualities(cond: string): string[] {
  return [...cond.matchAll(/(\w+)\)?(?:::[\w ]+?)?\s*=\s/g)].map((m) => m[1]!); // a required group
}

/**
 * `generic`: the plan PostgreSQL keeps for the statement prepared, whatever its values (the hot
 * path's connections force it from the first run: src/storage/db.ts pgHotPipelineOf), rather than the
 * plan for these values.
 */
async function explainPostgres(s: Statement, generic = false): Promise<Explained> {
  type PgClient = { query(sql: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };
  if (!pgIndexTables) {
    const { rows } = await testDb.db.raw("select indexname, tablename from pg_indexes where schemaname = 'public'");
    pgIndexTables = new Map(
      (rows as { indexname: string; tablename: string }[]).map((r) => [r.indexname, r.tablename]),
    );
  }
  const indexTables = pgIndexTables;
  const root = await onConnection(async (conn) => {
    const c = conn as PgClient;
    await c.query('SET enable_seqscan = off');
    try {
      if (!generic) {
        const { rows } = await c.query(`EXPLAIN (FORMAT JSON) ${s.sql}`, s.bindings);
        return at(at(rows, 0)['QUERY PLAN'] as { Plan: PgNode }[], 0).Plan;
      }
      await c.query('SET plan_cache_mode = force_generic_plan');
      await c.query(`PREPARE tg_generic AS ${s.sql}`);
      try {
        // EXECUTE takes its values written in (untyped literals, each taking its parameter's type).
        const literal = (v: unknown) =>
          v === null || v === undefined ? 'NULL' : escapeLiteral(String(v instanceof Date ? v.toISOString() : v));
        const params = s.bindings.map(literal).join(', ');
        const { rows } = await c.query(`EXPLAIN (FORMAT JSON) EXECUTE tg_generic${params ? `(${params})` : ''}`);
        return at(at(rows, 0)['QUERY PLAN'] as { Plan: PgNode }[], 0).Plan;
      } finally {
        await c.query('DEALLOCATE tg_generic');
        await c.query('RESET plan_cache_mode');
      }
    } finally {
      await c.query('RESET enable_seqscan');
    }
  });
  const violations: Violation[] = [];
  const lines: string[] = [];
  const walk = (node: PgNode, depth: number) => {
    const table = node['Relation Name'] ?? (node['Index Name'] ? indexTables.get(node['Index Name']) : undefined);
    const cond = node['Index Cond'];
    lines.push(
      `${'  '.repeat(depth)}${node['Node Type']}${table ? ` on ${table}` : ''}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}${cond ? ` [${cond}]` : ''}${
        node.Filter ? ` filter ${String(node.Filter)}` : ''
      }`,
    );
    if (table && GUARDED.has(table)) {
      const type = node['Node Type'];
      if (type === 'Seq Scan') violations.push({ table, reason: 'Seq Scan' });
      else if (type === 'Index Scan' || type === 'Index Only Scan' || type === 'Bitmap Index Scan') {
        if (!cond)
          violations.push({
            table,
            reason: `${type} using ${node['Index Name']} without an index condition (the whole index)`,
          });
        else if (!narrows(table, pgEqualities(cond)))
          violations.push({
            table,
            broad: true,
            equalities: pgEqualities(cond),
            reason: `${type} using ${node['Index Name']} reads every row of the project${BROAD[table] ? ', a list or a domain' : ''} [${cond}]`,
          });
      }
    }
    for (const child of node.Plans ?? []) walk(child, depth + 1);
  };
  walk(root, 0);
  return { plan: lines.join('\n'), violations };
}

/** Every statement captured, EXPLAINed: the plans, the known broad reads, and the violations. */
async function explainAll(): Promise<{ report: string[]; broad: string[]; failures: string[] }> {
  const report: string[] = [];
  const broad: string[] = [];
  const failures: string[] = [];
  for (const st of statements.values()) {
    const explained = [
      { how: '', ...(testDb.dialect === 'postgresql' ? await explainPostgres(st) : await explainSqlite(st)) },
      // The evaluation's reads run on the hot path's connections, generically planned: that plan too.
      ...(testDb.dialect === 'postgresql' && [...st.labels].some((l) => l.startsWith('store.'))
        ? [{ how: ' (generic plan)', ...(await explainPostgres(st, true)) }]
        : []),
    ];
    for (const { how, plan, violations } of explained) {
      const where = [...st.labels].join(', ') + how;
      report.push(`-- ${where}\n${st.sql}\n${plan}\n`);
      for (const v of violations) {
        const line = `${where}: ${v.table}: ${v.reason}\n  ${st.sql}\n  ${plan.replace(/\n/g, '\n  ')}`;
        (v.broad && known(st.labels, v) ? broad : failures).push(line);
      }
    }
  }
  return { report, broad, failures };
}

// ------------------------------------------------------------------------------------------ tests

beforeAll(async () => {
  testDb = await makeTestDb();
  services = makeServices({
    db: testDb.db,
    clock: fixedClock(NOW),
    secretBox: makeSecretBox(randomBytes(32), systemRandom),
  });
  const created = await services.projects.create({ name: 'Query plans' });
  project = (await services.repos.projects.findById(created.project_id))!;
  // A second project (empty), as a service may hold several.
  await services.projects.create({ name: 'Another project' });
  seeded = await seed();
  instrument(services);
}, 120_000);

afterAll(async () => {
  await testDb?.destroy();
});

/** The methods the engine calls per evaluation, and the Account API's reads of history (the brief of this test). */
const ENGINE_METHODS = [
  'store.session',
  'store.accounts',
  'store.accountSessions',
  // A ring's hop-1 accounts' newest sessions (GET /account/{id}/ring): one branch per account.
  'store.sessionsOfAccounts',
  'store.previousOfDevice',
  'store.previousOfAccount',
  'store.counts',
  'store.links',
  // The account, the session's link and evaluation, the lists: one transaction (storage/evaluation/write.ts).
  'store.commit',
  'history.evaluations',
  'history.accountsSharing',
  'lists.members',
  // A receipt (GET /evaluation/{request_id}), an erasure's, and a backtest's reads (POST /rules/test).
  'receipts.find',
  'receipts.deleteForAccount',
  'receipts.page',
  'receipts.currentLabels',
];

test('every statement of an evaluation starts from an index', async () => {
  const { repos, evaluation } = services;
  const p = project.id;
  const live = seeded.sessions.filter((s) => s.accountId && NOW.getTime() - s.startTime.getTime() < 20 * HOUR);
  const s = at(live, 0);
  const native = seeded.sessions.find((x) => x.mobileId)!;
  const account = (await repos.accounts.find(p, s.accountId!))!;
  // About as many accounts as an evaluation links (the describing read looks them all up at once).
  const ids = seeded.accounts.filter((_, i) => i % 30 === 7);

  // Each repository function the engine uses, in each of its forms.
  await repos.store.session(p, s.id);
  await repos.store.session(p, s.id, { accountId: s.accountId!, limit: 200 });
  await repos.store.accounts(p, ids);
  await repos.store.accountSessions(p, s.accountId!, 50);
  await repos.store.previousOfDevice(p, s.deviceId, s.startTime, s.id);
  await repos.store.previousOfAccount(p, s.accountId!, s.startTime, s.id);
  const email = { domain: account.emailDomain, key: account.emailKey, excludeAccount: account.id };
  await repos.store.counts(p, {
    sessionId: s.id,
    ip: s.ip,
    block: s.block,
    now: NOW,
    accountId: account.id,
    email: { ...email, domainFraud: true },
  });
  await repos.store.counts(p, {
    sessionId: s.id,
    ip: s.ip,
    now: NOW,
    accountId: account.id,
    email: { ...email, domainFraud: false },
  });
  await repos.store.counts(p, { sessionId: s.id, ip: s.ip, block: s.block, now: NOW });
  const search = (excludeAccount?: string) => ({
    identifiers: [
      { type: 'device' as const, value: s.deviceId, of: 'session' as const },
      { type: 'browser' as const, value: s.fingerprint || 'none', of: 'session' as const },
      { type: 'mobile_id' as const, value: native.mobileId!, of: 'session' as const },
      {
        type: 'apple_device_check' as const,
        value: createHash('sha256').update('token-1').digest('hex'),
        of: 'session' as const,
      },
      { type: 'email' as const, value: account.emailKey!, of: 'account' as const },
      { type: 'phone' as const, value: account.phoneKey ?? 'x', of: 'account' as const },
      { type: 'username' as const, value: account.usernameKey!, of: 'account' as const },
      { type: 'name' as const, value: account.nameKey!, of: 'account' as const },
    ],
    networks: [
      {
        sessionId: s.id,
        ip: s.ip,
        block: s.block,
        ipFrom: new Date(s.startTime.getTime() - DAY),
        ipTo: new Date(s.startTime.getTime() + DAY),
        blockFrom: new Date(s.startTime.getTime() - HOUR),
        blockTo: new Date(s.startTime.getTime() + HOUR),
      },
    ],
    excludeAccount,
  });
  await repos.store.links(p, search(s.accountId));
  await repos.store.links(p, search(undefined));
  await repos.history.evaluations(
    p,
    seeded.sessions.filter((_, i) => i % 60 === 5).map((x) => x.id),
  );
  await repos.history.accountsSharing(p, 'device', s.deviceId, s.accountId, 1501);
  await repos.history.accountsSharing(p, 'browser', s.fingerprint || 'none', s.accountId, 1501);
  await repos.lists.members(p, 'block', 100, undefined);
  await repos.lists.members(p, 'block', 100, 'acct-000400');

  // And the engine itself, end to end: whatever else it sends is checked too.
  const options = { requestId: 'req', accountsLinked: true };
  await evaluation.authenticate(
    project,
    { session_id: s.id, account: { id: s.accountId!, email: account.email } },
    options,
  );
  await evaluation.authenticate(
    project,
    { session_id: at(live, 1).id, account: { id: 'acct-new', email: 'someone.new@acme-corp.com', lists: ['block'] } },
    options,
  );
  await evaluation.evaluateUnauthenticated(project, { session_id: at(live, 2).id }, options);
  await evaluation.get(project, at(live, 3).id, 'req');
  await repos.receipts.find(p, 'req');
  await repos.receipts.deleteForAccount(p, 'acct-absent');
  const backtest = {
    from: new Date(NOW.getTime() - 7 * DAY),
    to: NOW,
    started: { from: new Date(NOW.getTime() - 8 * DAY), to: NOW },
  };
  const kept = await repos.receipts.page(p, backtest, 500);
  await repos.receipts.page(p, backtest, 500, kept.at(-1)?.cursor ?? { startTime: 0, sessionId: '' });
  await repos.receipts.currentLabels(p, seeded.accounts.slice(0, 50));
  // A project sent list events: each is queued on a membership's existence (webhook-rows.ts insertWhenStatement).
  const subscribed: Project = {
    ...project,
    webhookUrl: 'https://hooks.example.com/trustgate',
    webhookEvents: ['list.account_added', 'list.account_removed'],
  };
  await evaluation.authenticate(
    subscribed,
    { session_id: at(live, 4).id, account: { id: 'acct-000400', lists: ['allow', 'vip'] } },
    { ...options, actor: { apiKey: 'key' } },
  );

  // The label report's reads (GET /labels/report, GET /account/{id}'s label): from the labels, never
  // from the project's sessions in the range.
  for (const [i, id] of seeded.accounts.filter((_, i) => i % 7 === 0).entries())
    await repos.labels.insert({
      id: `label-${i}`,
      projectId: p,
      accountId: id,
      label: i % 3 === 0 ? 'fraud' : 'legit',
      note: null,
      actor: 'cli',
      requestId: null,
      createdAt: NOW,
    });
  const range = { from: new Date(NOW.getTime() - 30 * DAY), to: NOW };
  const page = await repos.labels.evaluations(p, range, 50);
  await repos.labels.evaluations(p, range, 50, at(page, page.length - 1));
  await repos.labels.current(p, s.accountId!);
  await repos.labels.page(p, s.accountId!, 50, 10);
  await repos.labels.currentOf(p, seeded.accounts.slice(0, 80));

  // An account's ring to two hops and its block's count (GET /account/{id}/ring, POST …/ring/block
  // with dry_run): its reads one by one, then the use cases end to end.
  await repos.store.sessionsOfAccounts(p, seeded.accounts.slice(0, 40), 50);
  await services.ring.get(project, s.accountId!, 2, 'req');
  await services.ring.block(project, s.accountId!, { hops: 2, dry_run: true }, { apiKey: 'key' }, 'req');

  // The overview (GET /stats): the evaluations above tallied in memory, flushed (one upsert: its
  // conflict target is the primary key), then the kept counts of a range of days, never the sessions.
  await expect(services.statsFlusher.flush()).resolves.toBeGreaterThan(0);
  await expect(
    repos.evaluationCounts.range(p, '2026-08-23', '2026-11-20').then((rows) => rows.length),
  ).resolves.toBeGreaterThan(0);

  // The Search API (GET /accounts, GET /sessions, their exports): every driver, with the other
  // filters on its rows, a first page and one after a cursor, the short-page cursor read.
  const fp = seeded.sessions.find((x) => x.fingerprint)!.fingerprint;
  const accountForms = [
    {},
    { decision: 'Fake' as const },
    { decision: 'Real' as const, emailDomain: 'gmail.com' },
    { emailDomain: 'gmail.com', country: 'GB', minScore: 0.2, maxScore: 0.9 },
    { list: 'vip', decision: 'Real' as const },
    { deviceId: s.deviceId, list: 'vip', fingerprint: fp },
    { fingerprint: fp },
    { ipAddress: s.ip, seenFrom: new Date(NOW.getTime() - 30 * DAY), seenTo: NOW },
    { network: s.block },
    { emailKey: 'ada@gmail.com', decision: 'Real' as const, list: 'vip', deviceId: s.deviceId },
  ];
  for (const f of accountForms) {
    await repos.search.accounts(p, f, undefined, 50);
    await repos.search.accounts(p, f, 'acct-000500', 50);
  }
  // In score order: the score index from the cursor's (score, id) on, the score range within it
  // (a cursor above the maximum), or an address's few accounts.
  const scoreForms = [
    {},
    { minScore: 0.2, maxScore: 0.9 },
    { maxScore: 0.3 },
    { decision: 'Fake' as const, list: 'vip', country: 'GB' },
    { ipAddress: s.ip, seenFrom: new Date(NOW.getTime() - 30 * DAY) },
    { emailKey: 'ada@gmail.com', minScore: 0.1 },
  ];
  for (const f of scoreForms) {
    await repos.search.accountsByScore(p, f, undefined, 50);
    await repos.search.accountsByScore(p, f, { score: 0.5, id: 'acct-000500' }, 50);
  }
  const sessionForms = [
    {},
    { decision: 'Fake' as const, scoreFrom: 0.4995, scoreBelow: 1.0005, signal: 'vpn' as const },
    { signal: 'spoofed_ip' as const, from: new Date(NOW.getTime() - 30 * DAY), to: NOW },
    { country: 'US', decision: 'Real' as const },
    { accountId: s.accountId!, deviceId: s.deviceId, ipAddress: s.ip, network: s.block, country: 'US' },
    { deviceId: s.deviceId },
    { ipAddress: s.ip },
    { network: s.block, from: new Date(NOW.getTime() - 30 * DAY) },
    { list: 'vip', emailDomain: 'gmail.com', country: 'US' },
    { sessionId: s.id },
    { sessionId: s.id, accountId: s.accountId!, decision: 'Real' as const },
  ];
  for (const f of sessionForms) {
    await repos.search.sessions(p, f, undefined, 50);
    await repos.search.sessions(p, f, { startTime: s.startTime.getTime(), id: s.id }, 50);
  }
  await repos.search.accountIdsOf(
    p,
    seeded.sessions.slice(0, 50).map((x) => x.id),
  );

  expect(
    [
      ...ENGINE_METHODS,
      'labels.evaluations',
      'search.accounts',
      'search.accountsByScore',
      'search.sessions',
      'evaluationCounts.add',
      'evaluationCounts.range',
    ].filter((m) => !exercised.has(m)),
  ).toEqual([]);

  const { report, broad, failures } = await explainAll();
  if (process.env.TRUSTGATE_PRINT_PLANS) {
    console.log(
      `${testDb.dialect}: ${statements.size} statements\n\n${report.join('\n')}\nKnown broad reads:\n${broad.join('\n')}`,
    );
  }
  expect(failures).toEqual([]);
  // The accounts of one email address are found from its index, never by paging the project in
  // id order (which the known broad read of search.accounts would otherwise let pass).
  const byEmail = report.filter((r) => r.startsWith('-- search.accounts') && /a\.email_key = (\?|\$\d+)/.test(r));
  expect(byEmail.length).toBeGreaterThan(0);
  for (const r of byEmail) expect(r).toMatch(/accounts_project_id_email_key_index/);
  // The score order's page reads its window from the score index, and a cursor is a bound of the
  // index's range (a seek past the accounts of its score already read), never a filter over them.
  // (The window's last key, read after a short page, is left out: on a table this small
  // PostgreSQL sorts the project's few rows for it, as it does for the id order's.)
  const byScore = report.filter(
    (r) =>
      r.startsWith('-- search.accountsByScore') && r.includes('CROSS JOIN') && !/a\.email_key = (\?|\$\d+)/.test(r),
  );
  expect(byScore.length).toBeGreaterThan(0);
  for (const r of byScore) expect(r).toMatch(/accounts_search_score/);
  const afterCursor = byScore.filter((r) => /\(a\.account_score, a\.id\) < \((\?|\$\d+), (\?|\$\d+)\)/.test(r));
  expect(afterCursor.length).toBeGreaterThan(0);
  for (const r of afterCursor)
    expect(r).toMatch(
      testDb.dialect === 'postgresql'
        ? /accounts_search_score \[[^\]]*ROW\(account_score, id\) < ROW\(/
        : /accounts_search_score \([^)]*\(account_score,id\)<\(\?,\?\)/,
    );
}, 120_000);

test('every statement of a retention pass starts from an index', async () => {
  const p = project.id;
  // A verification with a capture and its delivered webhook, as old as the oldest sessions.
  const old = NOW.getTime() - 59 * DAY;
  await testDb.db('verification_sessions').insert({
    id: 'f0000000-0000-4000-8000-000000000001',
    project_id: p,
    type: 'face-match',
    token_hash: 'x'.repeat(64),
    state: 'ended',
    outcome: 'success',
    webhook_request_id: 'f0000000-0000-4000-8000-000000000002',
    created_at: old,
    expires_at: old + 30 * DAY,
    ended_at: old,
  });
  await testDb.db('verification_captures').insert({
    id: 'f0000000-0000-4000-8000-000000000003',
    session_id: 'f0000000-0000-4000-8000-000000000001',
    kind: 'selfie',
    media_id: 'f0000000-0000-4000-8000-000000000004',
    content_type: 'image/jpeg',
    size: 10,
    created_at: old,
  });
  await testDb.db('webhooks').insert({
    request_id: 'f0000000-0000-4000-8000-000000000002',
    project_id: p,
    session_id: 'f0000000-0000-4000-8000-000000000001',
    event_type: 'verification.face-match.completed',
    body: '{}',
    status: 'delivered',
    attempts: 1,
    run_at: old,
    delivered_at: old,
    created_at: old,
  });
  if (testDb.dialect === 'postgresql') await testDb.db.raw('ANALYZE');
  await services.projects.update(
    p,
    { retentionSessionsDays: 55, retentionVerificationMediaDays: 50, retentionDeliveredWebhooksDays: 50 },
    'cli',
  );
  statements.clear();
  exercised.clear();
  const removed = await services.retention.runOnce({ batchSize: 50 });
  expect(removed).toMatchObject({ verification_media: 1, delivered_webhooks: 1 });
  expect(removed.sessions).toBeGreaterThan(50);
  expect(
    [
      'retention.sessionsDue',
      'retention.removeSessions',
      'retention.withoutSessions',
      'accounts.refreshAggregates',
      'verifications.mediaDue',
      'verifications.eraseMedia',
      'verificationIndex.forgetSessions',
      'outbox.deliveredBefore',
      'outbox.deleteDelivered',
    ].filter((m) => !exercised.has(m)),
  ).toEqual([]);

  const { report, broad, failures } = await explainAll();
  if (process.env.TRUSTGATE_PRINT_PLANS)
    console.log(`${testDb.dialect} retention:\n\n${report.join('\n')}\nKnown broad reads:\n${broad.join('\n')}`);
  expect(failures).toEqual([]);
}, 120_000);

test("every statement of the account page's verifications read starts from an index", async () => {
  const p = project.id;
  // Forty sessions over four accounts, each with a capture: the page reads one account's.
  const id = (n: number, part: number) =>
    `e${String(part).padStart(7, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`;
  for (let n = 0; n < 40; n++) {
    await testDb.db('verification_sessions').insert({
      id: id(n, 1),
      project_id: p,
      type: 'face-match',
      account_id: `verified-${n % 4}`,
      token_hash: 'x'.repeat(64),
      state: 'ended',
      outcome: 'success',
      created_at: NOW.getTime() - n * HOUR,
      expires_at: NOW.getTime() + DAY,
      ended_at: NOW.getTime() - n * HOUR,
    });
    await testDb.db('verification_captures').insert({
      id: id(n, 2),
      session_id: id(n, 1),
      kind: 'selfie',
      media_id: id(n, 3),
      content_type: 'image/jpeg',
      size: 10,
      created_at: NOW.getTime() - n * HOUR,
    });
  }
  if (testDb.dialect === 'postgresql') await testDb.db.raw('ANALYZE');
  statements.clear();
  exercised.clear();
  const repos = services.repos;
  const found = await repos.verifications.ofAccount(p, 'verified-1', 20);
  expect(found).toHaveLength(10);
  const captures = await repos.verifications.latestCapturesOf(found.map((v) => v.id));
  expect([...captures.values()].every((c) => c.length === 1)).toBe(true);
  await testDb.db.transaction((trx) => repos.verifications.forgetAccount(p, 'verified-2', trx));
  expect(
    ['verifications.ofAccount', 'verifications.latestCapturesOf', 'verifications.forgetAccount'].filter(
      (m) => !exercised.has(m),
    ),
  ).toEqual([]);

  const { report, broad, failures } = await explainAll();
  if (process.env.TRUSTGATE_PRINT_PLANS)
    console.log(
      `${testDb.dialect} account verifications:\n\n${report.join('\n')}\nKnown broad reads:\n${broad.join('\n')}`,
    );
  expect(failures).toEqual([]);
}, 120_000);

test('every statement of the webhooks page starts from an index', async () => {
  const p = project.id;
  const other = (await services.projects.create({ name: 'Webhooks elsewhere' })).project_id;
  const statuses = ['delivered', 'delivered', 'delivered', 'failed', 'pending'] as const;
  const types = ['list.account_added', 'list.account_removed', 'evaluation.rule_matched'];
  const body = services.edges.secretBox.encrypt('{}');
  const rows = Array.from({ length: 600 }, (_, i) => ({
    request_id: `e${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`,
    project_id: i % 3 === 0 ? other : p,
    session_id: `e${String(i).padStart(7, '0')}-0000-4000-8000-000000000000`,
    event_type: types[i % types.length]!,
    body,
    status: statuses[i % statuses.length]!,
    attempts: 1,
    run_at: NOW.getTime() - i * 60_000,
    created_at: NOW.getTime() - i * 60_000,
  }));
  for (let i = 0; i < rows.length; i += 100) await testDb.db('webhooks').insert(rows.slice(i, i + 100));
  await testDb.db('webhook_attempts').insert(
    rows.slice(0, 100).map((r) => ({
      request_id: r.request_id,
      attempt: 1,
      at: r.created_at,
      worker: 'w',
      status_code: 200,
      latency_ms: 5,
      answer: 'ok',
    })),
  );
  if (testDb.dialect === 'postgresql') await testDb.db.raw('ANALYZE');
  statements.clear();
  exercised.clear();
  const { outbox } = services.repos;
  const first = await outbox.page(p, {}, 51);
  expect(first).toHaveLength(51);
  const after = { createdAt: first[49]!.createdAt.getTime(), requestId: first[49]!.requestId };
  await outbox.page(p, {}, 51, after);
  await outbox.page(p, { status: 'failed' }, 51);
  await outbox.page(p, { status: 'failed' }, 51, after);
  await outbox.page(p, { eventType: 'list.account_removed' }, 51, after);
  await outbox.page(p, { from: new Date(NOW.getTime() - 2 * DAY), to: new Date(NOW.getTime() - DAY) }, 51);
  const one = first[0]!.requestId;
  await expect(outbox.findOf(p, one)).resolves.toBeDefined();
  await expect(outbox.findOf(other, one)).resolves.toBeUndefined();
  await outbox.attempts(one);
  await expect(outbox.replay(one, NOW, other)).resolves.toBeUndefined();
  await expect(outbox.replay(one, NOW, p)).resolves.toMatchObject({ queued: { projectId: p } });
  expect(['outbox.page', 'outbox.findOf', 'outbox.attempts', 'outbox.replay'].filter((m) => !exercised.has(m))).toEqual(
    [],
  );

  const { report, broad, failures } = await explainAll();
  if (process.env.TRUSTGATE_PRINT_PLANS)
    console.log(`${testDb.dialect} webhooks page:\n\n${report.join('\n')}\nKnown broad reads:\n${broad.join('\n')}`);
  expect(failures).toEqual([]);
}, 120_000);
