/**
 * What the risk engine asks of the service's history: fraud on an address, an account's
 * sessions and aggregates, and the accounts that share an identifier. Every query starts from
 * an index (project + address, block, device, fingerprint, account) and is bounded.
 */
import type { Knex } from 'knex';
import type { EvaluatedRiskSignalScores, EvaluatedSession } from '../../api-types';

const DAY_MS = 86_400_000;

/** An account's session, as the aggregates and the travel rule need it. */
export interface AccountSessionRow {
  id: string;
  startTime: Date;
  deviceId: string;
  browserFingerprint?: string;
  ipAddress: string;
  ipBlock?: string;
  connectionType?: string;
  countryCode?: string;
  mobileId?: string;
  appleDeviceKey?: string;
  scores?: { scores: EvaluatedRiskSignalScores; spoofedIp: boolean };
}

function toSessionRow(r: Record<string, unknown>): AccountSessionRow {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  return {
    id: String(r.id),
    startTime: new Date(Number(r.start_time)),
    deviceId: String(r.device_id),
    browserFingerprint: str(r.browser_fingerprint),
    ipAddress: String(r.ip_address),
    ipBlock: str(r.ip_block),
    connectionType: str(r.connection_type),
    countryCode: str(r.country_code),
    mobileId: str(r.mobile_id),
    appleDeviceKey: str(r.apple_device_key),
    scores: typeof r.risk_scores === 'string' ? JSON.parse(r.risk_scores) : undefined,
  };
}

const SESSION_COLUMNS = [
  's.id',
  's.start_time',
  's.device_id',
  's.browser_fingerprint',
  's.ip_address',
  's.ip_block',
  's.connection_type',
  's.country_code',
  's.mobile_id',
  's.apple_device_key',
  's.risk_scores',
];

/** The session identifiers linking follows from one session to another's accounts. */
export type SessionIdentifier = 'browser_fingerprint' | 'device_id' | 'mobile_id' | 'apple_device_key';

export function makeHistoryRepository(db: Knex) {
  const count = async (q: Knex.QueryBuilder, what = '*'): Promise<number> => Number((await q.count({ n: what }).first())?.n ?? 0);
  const countDistinct = async (q: Knex.QueryBuilder, column: string): Promise<number> =>
    Number((await q.countDistinct({ n: column }).first())?.n ?? 0);

  /** Sessions decided Fake and block-listed accounts on an address (or a block) since `since`. */
  async function fraudOn(projectId: string, column: 'ip_address' | 'ip_block', value: string, since: number, excludeSession: string, excludeIp?: string) {
    const base = () => {
      const q = db('sessions as s').where('s.project_id', projectId).where(`s.${column}`, value).where('s.start_time', '>=', since).whereNot('s.id', excludeSession);
      if (excludeIp) q.whereNot('s.ip_address', excludeIp);
      return q;
    };
    const fake = await count(base().where('s.decision', 'Fake'));
    const blocked = await countDistinct(
      base()
        .join('session_accounts as sa', 'sa.session_id', 's.id')
        .join('list_members as m', function () {
          this.on('m.project_id', '=', 's.project_id').andOn('m.account_id', '=', 'sa.account_id');
        })
        .where('m.list_name', 'block'),
      'sa.account_id',
    );
    return { fake, blocked };
  }

  return {
    async signalHistory(projectId: string, sessionId: string, ip: string, block: string | undefined, now: Date) {
      const since30 = now.getTime() - 30 * DAY_MS;
      const recent = await fraudOn(projectId, 'ip_address', ip, since30, sessionId);
      const recentBlock = block ? await fraudOn(projectId, 'ip_block', block, since30, sessionId, ip) : { fake: 0, blocked: 0 };
      const ever = await fraudOn(projectId, 'ip_address', ip, 0, sessionId);
      const accounts = await countDistinct(
        db('sessions as s')
          .join('session_accounts as sa', 'sa.session_id', 's.id')
          .where({ 's.project_id': projectId, 's.ip_address': ip })
          .where('s.start_time', '>=', since30),
        'sa.account_id',
      );
      return {
        fraudOnIp: recent.fake + recent.blocked,
        fraudOnBlock: recentBlock.fake + recentBlock.blocked,
        ipFakeSessions: ever.fake,
        ipBlockedAccounts: ever.blocked,
        ipDistinctAccounts: accounts,
      };
    },

    /** The session before `before` of the account, or of the device when there is no account. */
    async previousSession(
      projectId: string,
      of: { accountId: string } | { deviceId: string },
      before: Date,
      excludeSession: string,
    ): Promise<{ startTime: Date; facts: EvaluatedSession } | undefined> {
      const q = db('sessions as s').where('s.project_id', projectId).where('s.start_time', '<', before.getTime()).whereNot('s.id', excludeSession);
      if ('accountId' in of) q.join('session_accounts as sa', 'sa.session_id', 's.id').where('sa.account_id', of.accountId).where('sa.project_id', projectId);
      else q.where('s.device_id', of.deviceId);
      const row = await q.orderBy('s.start_time', 'desc').select('s.start_time', 's.facts').first();
      return row && { startTime: new Date(Number(row.start_time)), facts: JSON.parse(row.facts) as EvaluatedSession };
    },

    /** One session's searchable identifiers, as linking follows them. */
    async sessionRow(projectId: string, sessionId: string): Promise<AccountSessionRow | undefined> {
      const row = await db('sessions as s').where({ 's.project_id': projectId, 's.id': sessionId }).first(SESSION_COLUMNS);
      return row && toSessionRow(row);
    },

    /** The account's sessions, newest first, at most `limit`. */
    async accountSessions(projectId: string, accountId: string, limit: number, since?: Date): Promise<AccountSessionRow[]> {
      const q = db('session_accounts as sa')
        .join('sessions as s', 's.id', 'sa.session_id')
        .where({ 'sa.project_id': projectId, 'sa.account_id': accountId })
        .orderBy('s.start_time', 'desc')
        .limit(limit)
        .select(SESSION_COLUMNS);
      if (since) q.where('s.start_time', '>=', since.getTime());
      return (await q).map(toSessionRow);
    },

    /** Number of sessions, first and last start, and the countries of all the account's sessions. */
    async accountSummary(projectId: string, accountId: string) {
      const base = () => db('session_accounts as sa').join('sessions as s', 's.id', 'sa.session_id').where({ 'sa.project_id': projectId, 'sa.account_id': accountId });
      const agg = await base().count({ n: '*' }).min({ first: 's.start_time' }).max({ last: 's.start_time' }).first();
      const countries = await base().whereNotNull('s.country_code').distinct('s.country_code').orderBy('s.country_code');
      return {
        numSessions: Number(agg?.n ?? 0),
        firstSeen: agg?.first != null ? new Date(Number(agg.first)) : undefined,
        lastSeen: agg?.last != null ? new Date(Number(agg.last)) : undefined,
        countries: countries.map((r: { country_code: string }) => r.country_code),
      };
    },

    /** Accounts (other than `excludeAccount`) of sessions sharing an identifier value, at most `limit` per value. */
    async accountsSharing(projectId: string, column: SessionIdentifier, value: string, excludeAccount: string | undefined, limit: number): Promise<string[]> {
      const q = db('sessions as s')
        .join('session_accounts as sa', 'sa.session_id', 's.id')
        .where({ 's.project_id': projectId, [`s.${column}`]: value })
        .distinct('sa.account_id')
        .limit(limit);
      if (excludeAccount !== undefined) q.whereNot('sa.account_id', excludeAccount);
      return (await q).map((r: { account_id: string }) => r.account_id);
    },

    /** Accounts of sessions on an address (or block) within [from, to], at most `limit`. */
    async accountsOnNetwork(projectId: string, column: 'ip_address' | 'ip_block', value: string, from: Date, to: Date, excludeAccount: string | undefined, limit: number): Promise<string[]> {
      const q = db('sessions as s')
        .join('session_accounts as sa', 'sa.session_id', 's.id')
        .where({ 's.project_id': projectId, [`s.${column}`]: value })
        .whereBetween('s.start_time', [from.getTime(), to.getTime()])
        .distinct('sa.account_id')
        .limit(limit);
      if (excludeAccount !== undefined) q.whereNot('sa.account_id', excludeAccount);
      return (await q).map((r: { account_id: string }) => r.account_id);
    },

    /** The latest evaluation of each of these sessions. */
    async evaluations(projectId: string, sessionIds: string[]): Promise<Map<string, { decision: 'Real' | 'Fake'; accountScore: number }>> {
      const out = new Map<string, { decision: 'Real' | 'Fake'; accountScore: number }>();
      if (sessionIds.length === 0) return out;
      const rows = await db('sessions').where('project_id', projectId).whereIn('id', sessionIds).whereNotNull('decision').select('id', 'decision', 'account_score');
      for (const r of rows as { id: string; decision: 'Real' | 'Fake'; account_score: number }[]) out.set(r.id, { decision: r.decision, accountScore: Number(r.account_score) });
      return out;
    },

    /** First and last session start of each account. */
    async seen(projectId: string, accountIds: string[]): Promise<Map<string, { first: Date; last: Date }>> {
      const out = new Map<string, { first: Date; last: Date }>();
      for (let i = 0; i < accountIds.length; i += 500) {
        const rows = await db('session_accounts as sa')
          .join('sessions as s', 's.id', 'sa.session_id')
          .where('sa.project_id', projectId)
          .whereIn('sa.account_id', accountIds.slice(i, i + 500))
          .groupBy('sa.account_id')
          .select('sa.account_id')
          .min({ first: 's.start_time' })
          .max({ last: 's.start_time' });
        for (const r of rows as { account_id: string; first: number; last: number }[]) {
          out.set(r.account_id, { first: new Date(Number(r.first)), last: new Date(Number(r.last)) });
        }
      }
      return out;
    },
  };
}

export type HistoryRepository = ReturnType<typeof makeHistoryRepository>;
