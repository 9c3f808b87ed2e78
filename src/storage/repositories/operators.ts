/** Operators of the console and their sessions (migration 0030). Rows are mapped to plain records here and nowhere else. */
import type { Knex } from 'knex';
import type { OperatorRole } from '../../api-types';
import { isOperatorRole } from '../../domain/operators';

export interface OperatorRecord {
  id: string;
  projectId: string;
  /** Trimmed and lower-cased (domain/operators.ts normaliseEmail). */
  email: string;
  role: OperatorRole;
  /** The argon2id PHC string (security/passwords.ts). */
  passwordHash: string;
  createdAt: Date;
  disabledAt: Date | null;
}

export interface ConsoleSessionRecord {
  /** The SHA-256 of the session token (the cookie's value is never stored). */
  tokenHash: string;
  operatorId: string;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
}

interface OperatorRow {
  id: string;
  project_id: string;
  email: string;
  role: string;
  password_hash: string;
  created_at: number | string;
  disabled_at: number | string | null;
}

function toOperator(row: OperatorRow): OperatorRecord {
  // A role no longer known reads as the least one: it can never widen what the operator may do.
  const role = isOperatorRole(row.role) ? row.role : 'viewer';
  return {
    id: row.id,
    projectId: row.project_id,
    email: row.email,
    role,
    passwordHash: row.password_hash,
    createdAt: new Date(Number(row.created_at)),
    disabledAt: row.disabled_at == null ? null : new Date(Number(row.disabled_at)),
  };
}

export function makeOperatorRepository(db: Knex) {
  return {
    async insert(o: OperatorRecord, trx: Knex = db): Promise<void> {
      await trx('operators').insert({
        id: o.id,
        project_id: o.projectId,
        email: o.email,
        role: o.role,
        password_hash: o.passwordHash,
        created_at: o.createdAt.getTime(),
        disabled_at: o.disabledAt?.getTime() ?? null,
      });
    },

    /** The operator with this (normalised) email, disabled or not (the email column is unique). */
    async findByEmail(email: string, trx: Knex = db): Promise<OperatorRecord | undefined> {
      const row = await trx<OperatorRow>('operators').where({ email }).first();
      return row && toOperator(row);
    },

    /** A project's operators (every project's when none is named), by project and email. */
    async list(projectId?: string, trx: Knex = db): Promise<OperatorRecord[]> {
      const query = trx<OperatorRow>('operators');
      if (projectId !== undefined) query.where({ project_id: projectId });
      const rows = await query.orderBy('project_id').orderBy('email');
      return rows.map(toOperator);
    },

    /** Marks the operator disabled (if it is not yet); true when it was changed. */
    async disable(id: string, at: Date, trx: Knex = db): Promise<boolean> {
      const updated = await trx('operators')
        .where({ id })
        .whereNull('disabled_at')
        .update({ disabled_at: at.getTime() });
      return updated > 0;
    },

    async insertSession(s: ConsoleSessionRecord, trx: Knex = db): Promise<void> {
      await trx('console_sessions').insert({
        token_hash: s.tokenHash,
        operator_id: s.operatorId,
        created_at: s.createdAt.getTime(),
        expires_at: s.expiresAt.getTime(),
        last_seen_at: s.lastSeenAt.getTime(),
      });
    },

    /** The session with this token hash and its operator, in one statement. */
    async findSession(
      tokenHash: string,
      trx: Knex = db,
    ): Promise<{ session: ConsoleSessionRecord; operator: OperatorRecord } | undefined> {
      const row = await trx('console_sessions as s')
        .join('operators as o', 'o.id', 's.operator_id')
        .where('s.token_hash', tokenHash)
        .first(
          's.token_hash',
          's.created_at as session_created_at',
          's.expires_at',
          's.last_seen_at',
          'o.id',
          'o.project_id',
          'o.email',
          'o.role',
          'o.password_hash',
          'o.created_at',
          'o.disabled_at',
        );
      if (!row) return undefined;
      return {
        session: {
          tokenHash: row.token_hash,
          operatorId: row.id,
          createdAt: new Date(Number(row.session_created_at)),
          expiresAt: new Date(Number(row.expires_at)),
          lastSeenAt: new Date(Number(row.last_seen_at)),
        },
        operator: toOperator(row as OperatorRow),
      };
    },

    async touchSession(tokenHash: string, at: Date, trx: Knex = db): Promise<void> {
      await trx('console_sessions').where({ token_hash: tokenHash }).update({ last_seen_at: at.getTime() });
    },

    async deleteSession(tokenHash: string, trx: Knex = db): Promise<void> {
      await trx('console_sessions').where({ token_hash: tokenHash }).delete();
    },

    /** Ends every session of the operator (disabled). */
    async deleteSessionsOf(operatorId: string, trx: Knex = db): Promise<number> {
      return trx('console_sessions').where({ operator_id: operatorId }).delete();
    },

    /** Sessions past their end, deleted whenever a login happens (a bounded table without a job of its own). */
    async deleteExpiredSessions(now: Date, trx: Knex = db): Promise<number> {
      return trx('console_sessions').where('expires_at', '<=', now.getTime()).delete();
    },
  };
}

export type OperatorRepository = ReturnType<typeof makeOperatorRepository>;
