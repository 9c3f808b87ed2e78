/** Handlers of the `Account` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { AccountUpdate } from '../../api-types';
import type { AccountUseCases } from '../../usecases/accounts';
import { projectOf } from '../context';
import { checkMetadataSize } from '../limits';
import { accountOfUpdate } from '../loose-account';

type ById = Request<{ account_id: string }>;

export function makeAccountHandlers(accounts: AccountUseCases) {
  return {
    async getAccount(req: ById, res: Response) {
      res.json(await accounts.get(projectOf(req), req.params.account_id, req.requestId));
    },
    async putAccount(req: Request<{ account_id: string }, unknown, AccountUpdate>, res: Response) {
      const account = accountOfUpdate(req.body);
      checkMetadataSize(account.metadata, 'metadata');
      res.json(await accounts.put(projectOf(req), req.params.account_id, account, req.requestId));
    },
    async deleteAccount(req: ById, res: Response) {
      res.json(await accounts.delete(projectOf(req), req.params.account_id, req.requestId));
    },
    async getAccountSessions(req: ById, res: Response) {
      const limit = (req.query as { limit?: number }).limit ?? 50;
      res.json(await accounts.sessions(projectOf(req), req.params.account_id, limit, req.requestId));
    },
    async getAccountLinkedAccounts(req: ById, res: Response) {
      res.json(await accounts.linked(projectOf(req), req.params.account_id, req.requestId));
    },
  };
}
