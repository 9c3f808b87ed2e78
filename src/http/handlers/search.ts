/** Handlers of the `Search` tag, named after their operationIds (docs/api-search.md). */
import type { Request, Response } from 'express';
import type {
  AccountExportQuery,
  AccountSearchQuery,
  AccountSummary,
  SessionExportQuery,
  SessionSearchQuery,
  SessionSummary,
} from '../../api-types';
import type { Logger } from '../../logger';
import type { SearchUseCases } from '../../usecases/search';
import { projectOf } from '../context';
import { streamExport, type Columns } from '../export';

const ACCOUNT_COLUMNS: Columns<AccountSummary> = [
  ['account_id', (a) => a.account.id],
  ['email', (a) => a.account.email],
  ['first_name', (a) => a.account.first_name],
  ['last_name', (a) => a.account.last_name],
  ['decision', (a) => a.decision],
  ['account_score', (a) => a.account_score],
  ['num_sessions', (a) => a.num_sessions],
  ['first_seen', (a) => a.first_seen],
  ['last_seen', (a) => a.last_seen],
  ['country', (a) => a.country],
  ['lists', (a) => a.lists],
  ['created_at', (a) => a.created_at],
  ['updated_at', (a) => a.updated_at],
  // Added after the others: a reader that takes the columns by position keeps working.
  ['label', (a) => a.label],
];

const SESSION_COLUMNS: Columns<SessionSummary> = [
  ['session_id', (s) => s.session_id],
  ['account_ids', (s) => s.account_ids],
  ['start_time', (s) => s.start_time],
  ['source', (s) => s.source],
  ['device_id', (s) => s.device_id],
  ['ip_address', (s) => s.ip_address],
  ['country_code', (s) => s.country_code],
  ['decision', (s) => s.decision],
  ['account_score', (s) => s.account_score],
  ['risk_signals', (s) => s.risk_signals],
];

/** The query as the validator checked (and coerced) it against the operation's parameters. */
const queryOf = <Q>(req: Request) => req.query as unknown as Q;

export function makeSearchHandlers(search: SearchUseCases, logger: Logger) {
  return {
    async listAccounts(req: Request, res: Response) {
      res.json(await search.accounts(projectOf(req).id, queryOf<AccountSearchQuery>(req), req.requestId));
    },
    async listSessions(req: Request, res: Response) {
      res.json(await search.sessions(projectOf(req).id, queryOf<SessionSearchQuery>(req), req.requestId));
    },
    async exportAccounts(req: Request, res: Response) {
      const { format, ...q } = queryOf<AccountExportQuery>(req);
      const batches = search.exportAccounts(projectOf(req).id, q);
      await streamExport(res, logger, { format, filename: 'accounts', columns: ACCOUNT_COLUMNS, batches });
    },
    async exportSessions(req: Request, res: Response) {
      const { format, ...q } = queryOf<SessionExportQuery>(req);
      const batches = search.exportSessions(projectOf(req).id, q);
      await streamExport(res, logger, { format, filename: 'sessions', columns: SESSION_COLUMNS, batches });
    },
  };
}
