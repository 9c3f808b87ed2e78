/** What the rules' use cases are built from (makeRulesUseCases). */
import type { Clock, Random } from '../../clock';
import type { BacktestLimits } from '../../config';
import type { Logger } from '../../logger';
import type { Db } from '../../storage/db';
import type { AccountRepository } from '../../storage/repositories/accounts';
import type { AuditEventRepository } from '../../storage/repositories/audit-events';
import type { ReceiptRepository } from '../../storage/repositories/receipts';
import type { RuleDraftRepository } from '../../storage/repositories/rule-drafts';
import type { RulesRepository } from '../../storage/repositories/rules';

/** A backtest's bounds (config/backtest.ts), and how much work it does between two turns of the event loop. */
export interface BacktestSettings extends BacktestLimits {
  /** Comparisons made between two yields to the event loop (at least one evaluation each time). */
  chunkWork: number;
}

export interface RulesDeps {
  db: Db;
  clock: Clock;
  random: Random;
  logger: Logger;
  rules: RulesRepository;
  ruleDrafts: RuleDraftRepository;
  auditEvents: AuditEventRepository;
  receipts: ReceiptRepository;
  accounts: Pick<AccountRepository, 'findMany'>;
  /** The backtests' bounds; those not given are config/backtest.ts's defaults and BACKTEST_CHUNK_WORK. */
  backtest?: Partial<BacktestSettings>;
  /**
   * Runs a change to the project's rules in a transaction that announces it: every process's key
   * cache drops the project, whose cached copy carries the rules (usecases/projects/change.ts).
   */
  changeProject<T>(projectId: string, work: (trx: Db) => Promise<T>): Promise<T>;
}
