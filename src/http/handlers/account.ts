/** Handlers of the `Account` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { AccountLabelInput, AccountUpdate, RingBlockRequest } from '../../api-types';
import type { AccountUseCases } from '../../usecases/accounts';
import type { LabelUseCases } from '../../usecases/labels';
import type { RingUseCases } from '../../usecases/ring';
import { actorOf, projectOf } from '../context';
import { checkMetadataSize } from '../limits';
import { readAccount } from '../loose-account';

type ById = Request<{ account_id: string }>;

export function makeAccountHandlers(accounts: AccountUseCases, labels: LabelUseCases, ring: RingUseCases) {
  return {
    async getAccount(req: ById, res: Response) {
      res.json(await accounts.get(projectOf(req), req.params.account_id, req.requestId));
    },
    async putAccount(req: Request<{ account_id: string }, unknown, AccountUpdate>, res: Response) {
      const account = readAccount(req.body);
      checkMetadataSize(account.metadata, 'metadata');
      res.json(await accounts.put(projectOf(req), req.params.account_id, account, actorOf(req), req.requestId));
    },
    async deleteAccount(req: ById, res: Response) {
      res.json(await accounts.delete(projectOf(req), req.params.account_id, actorOf(req), req.requestId));
    },
    async getAccountSessions(req: ById, res: Response) {
      const limit = (req.query as { limit?: number }).limit ?? 50;
      res.json(await accounts.sessions(projectOf(req), req.params.account_id, limit, req.requestId));
    },
    async listAccountVerifications(req: ById, res: Response) {
      const limit = (req.query as { limit?: number }).limit ?? 20;
      res.json(await accounts.verifications(projectOf(req), req.params.account_id, limit, req.requestId));
    },
    async getAccountLinkedAccounts(req: ById, res: Response) {
      res.json(await accounts.linked(projectOf(req), req.params.account_id, req.requestId));
    },
    async getAccountRing(req: ById, res: Response) {
      const hops = (req.query as { hops?: number }).hops === 1 ? 1 : 2;
      res.json(await ring.get(projectOf(req), req.params.account_id, hops, req.requestId));
    },
    async blockAccountRing(req: Request<{ account_id: string }, unknown, RingBlockRequest>, res: Response) {
      res.json(await ring.block(projectOf(req), req.params.account_id, req.body, actorOf(req), req.requestId));
    },
    async labelAccount(req: Request<{ account_id: string }, unknown, AccountLabelInput>, res: Response) {
      const { label, note } = req.body;
      const input = { label, ...(note === undefined ? {} : { note }) };
      const labelled = await labels.label(projectOf(req).id, req.params.account_id, input, actorOf(req), req.requestId);
      res.status(201).json(labelled);
    },
    async listAccountLabels(req: ById, res: Response) {
      const q = req.query as { limit?: number; cursor?: string };
      res.json(await labels.list(projectOf(req).id, req.params.account_id, q.limit ?? 50, q.cursor, req.requestId));
    },
    async getLabelReport(req: Request, res: Response) {
      const q = req.query as { from?: string; to?: string };
      res.json(await labels.report(projectOf(req).id, q, req.requestId));
    },
  };
}
