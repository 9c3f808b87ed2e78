/** SDK sessions: the enriched facts as stored at ingestion, and the accounts they were used with. */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Decision, EvaluatedRiskSignalScores, EvaluatedSession, EvaluationRules } from '../../api-types';
import { ipBlock } from '../../domain/enrichment/ip';
import { ipLocationAccuracyKm, isAnonymised } from '../../domain/signals';
import { deviceOf } from '../../domain/evaluation/uniques';
import type { SessionEvaluation } from '../../domain/evaluation/write';
import type { SdkFacts } from '../../domain/session/sdk-facts';
import { runStatement, type Statement } from '../statements';
import { identifierAccountsStatement } from './identifier-accounts';

export interface StoredSession {
  id: string;
  projectId: string;
  ipAddress: string;
  startTime: Date;
  updatedAt: Date;
  /** The enriched session in its fullest form; the API's forms are projections of it. */
  facts: EvaluatedSession;
  /** What the SDK posted, merged over the session's posts (absent for sessions stored otherwise). */
  sdk?: SdkFacts;
  /** The latest evaluation (authenticate or unauthenticated), if any. */
  evaluation?: SessionEvaluation;
}

interface SessionRow {
  id: string;
  project_id: string;
  source: string | null;
  source_version: string | null;
  device_id: string;
  ip_address: string;
  start_time: number;
  updated_at: number;
  /** session_facts.facts and .sdk, read with the row. */
  facts: string;
  browser_fingerprint: string | null;
  sdk: string | null;
  decision?: string | null;
  account_score?: number | null;
  evaluated_at?: number | null;
  risk_scores?: string | null;
}

export type { SessionEvaluation };

/** The Apple DeviceCheck token is kept only as its SHA-256, which linking compares. */
function appleDeviceKey(token: string | null | undefined): string | undefined {
  return token ? createHash('sha256').update(token).digest('hex') : undefined;
}

/** The searchable columns, derived from the facts (kept in step on every write). */
function searchColumns(s: StoredSession) {
  return {
    ip_block: ipBlock(s.ipAddress) ?? null,
    connection_type: s.facts.network.connection_type ?? null,
    country_code: s.facts.location.country_code ?? null,
    mobile_id: s.sdk?.mobile?.mobile_id ?? null,
    device:
      deviceOf({
        browserFingerprint: s.sdk?.browser_fingerprint,
        mobileId: s.sdk?.mobile?.mobile_id,
        deviceId: s.facts.device_id,
      }) ?? null,
    apple_device_key: appleDeviceKey(s.sdk?.mobile?.apple_device_check) ?? null,
    ...travelColumns(s.facts),
  };
}

/** Where the session was, as the travel rule compares it with the next one. */
function travelColumns(facts: EvaluatedSession) {
  const { latitude, longitude } = facts.location;
  return {
    latitude: latitude ?? null,
    longitude: longitude ?? null,
    location_accuracy_km: ipLocationAccuracyKm(facts.location),
    anonymised: isAnonymised(facts),
  };
}

function toStored(row: SessionRow): StoredSession {
  return {
    id: row.id,
    projectId: row.project_id,
    ipAddress: row.ip_address,
    startTime: new Date(Number(row.start_time)),
    updatedAt: new Date(Number(row.updated_at)),
    facts: JSON.parse(row.facts) as EvaluatedSession,
    ...(row.sdk ? { sdk: JSON.parse(row.sdk) as SdkFacts } : {}),
    ...(row.decision && row.evaluated_at && row.risk_scores
      ? {
          evaluation: {
            decision: row.decision as Decision,
            accountScore: Number(row.account_score),
            at: new Date(Number(row.evaluated_at)),
            ...(JSON.parse(row.risk_scores) as { scores: EvaluatedRiskSignalScores; spoofedIp: boolean }),
          },
        }
      : {}),
  };
}

/** The facts columns (session_facts) of a session. */
function factsColumns(s: StoredSession) {
  return { facts: JSON.stringify(s.facts), sdk: s.sdk ? JSON.stringify(s.sdk) : null };
}

/** Sessions with their facts. */
const withFacts = (trx: Knex) =>
  trx('sessions as s').join('session_facts as f', 'f.session_id', 's.id').select('s.*', 'f.facts', 'f.sdk');

/** A new session's `sessions` and `session_facts` rows. */
export function sessionRows(s: StoredSession) {
  return {
    session: {
      id: s.id,
      project_id: s.projectId,
      source: s.facts.source,
      source_version: s.facts.source_version,
      device_id: s.facts.device_id,
      ip_address: s.ipAddress,
      start_time: s.startTime.getTime(),
      updated_at: s.updatedAt.getTime(),
      browser_fingerprint: s.sdk?.browser_fingerprint ?? null,
      ...searchColumns(s),
    },
    facts: { session_id: s.id, ...factsColumns(s) },
  };
}

export function makeSessionRepository(db: Knex) {
  return {
    /** The session's row and its facts (two statements: call it in a transaction). */
    async insert(s: StoredSession, trx: Knex = db): Promise<void> {
      const rows = sessionRows(s);
      await trx('sessions').insert(rows.session);
      await trx('session_facts').insert(rows.facts);
    },

    /**
     * Replaces what a later SDK post changes: the facts, the merged SDK facts, the update time;
     * an identifier it brings counts for the accounts the session is already linked to (in a transaction).
     */
    async update(s: StoredSession, trx: Knex = db): Promise<void> {
      await trx('sessions')
        .where({ id: s.id, project_id: s.projectId })
        .update({
          updated_at: s.updatedAt.getTime(),
          browser_fingerprint: s.sdk?.browser_fingerprint ?? null,
          ...searchColumns(s),
        });
      await trx('session_facts').where({ session_id: s.id }).update(factsColumns(s));
      await runStatement(trx, identifierAccountsStatement(s.projectId, s.id, s.updatedAt));
    },

    async setEvaluation(projectId: string, id: string, e: SessionEvaluation, trx: Knex = db): Promise<void> {
      await runStatement(trx, evaluationStatement(projectId, id, e));
    },

    /** Links the session to the account (linkStatements; call it in a transaction). */
    async addAccount(projectId: string, sessionId: string, accountId: string, at: Date, trx: Knex = db): Promise<void> {
      for (const s of linkStatements(projectId, sessionId, accountId, at)) await runStatement(trx, s);
    },

    /** The session with this id in whichever project holds it (ingestion refuses foreign ones). */
    async findInAnyProject(id: string, trx: Knex = db): Promise<StoredSession | undefined> {
      const row: SessionRow | undefined = await withFacts(trx).where('s.id', id).first();
      return row && toStored(row);
    },

    /** The session with this id in this project; another project's session is not found. */
    async find(projectId: string, id: string, trx: Knex = db): Promise<StoredSession | undefined> {
      const row: SessionRow | undefined = await withFacts(trx).where({ 's.id': id, 's.project_id': projectId }).first();
      return row && toStored(row);
    },

    async accountIds(sessionId: string, trx: Knex = db): Promise<string[]> {
      const rows = await trx('session_accounts')
        .where({ session_id: sessionId })
        .orderBy('created_at')
        .orderBy('account_id');
      return rows.map((r: { account_id: string }) => r.account_id);
    },
  };
}

export type SessionRepository = ReturnType<typeof makeSessionRepository>;

/** Records an evaluation on the session (one text, built once: the prepared-statement caches key on it). */
const EVALUATION_UPDATE =
  'UPDATE sessions SET decision = ?, account_score = ?, evaluated_at = ?, risk_scores = ?, rules_outcome = ?,' +
  ' evaluation_request_id = ?, evaluation_inputs = ? WHERE id = ? AND project_id = ?';

/** The statement that records an evaluation on the session. */
export function evaluationStatement(projectId: string, id: string, e: SessionEvaluation): Statement {
  return {
    sql: EVALUATION_UPDATE,
    bindings: [
      e.decision,
      e.accountScore,
      e.at.getTime(),
      JSON.stringify({ scores: e.scores, spoofedIp: e.spoofedIp }),
      e.rules && e.rules.version > 0 ? JSON.stringify(e.rules) : null,
      e.receipt?.requestId ?? null,
      e.receipt?.inputs ?? null,
      id,
      projectId,
    ],
  };
}

/**
 * The statements that link the session to the account: the link, with the session's start and
 * address copied onto it, and its identifiers counted for the account (run them in a transaction).
 */
export function linkStatements(projectId: string, sessionId: string, accountId: string, at: Date): Statement[] {
  return [
    {
      sql: `INSERT INTO session_accounts (session_id, project_id, account_id, created_at, session_start, ip_address, ip_block)
         SELECT s.id, s.project_id, ?, ?, s.start_time, s.ip_address, s.ip_block FROM sessions s WHERE s.project_id = ? AND s.id = ?
         ON CONFLICT (session_id, account_id) DO NOTHING`,
      bindings: [accountId, at.getTime(), projectId, sessionId],
    },
    identifierAccountsStatement(projectId, sessionId, at),
  ];
}
