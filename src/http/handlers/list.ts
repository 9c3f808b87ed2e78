/** Handlers of the `List` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { CreateListRequest } from '../../api-types';
import type { ListUseCases } from '../../usecases/lists';
import { actorOf, projectOf } from '../context';

type ByName = Request<{ list_name: string }>;
type ByNameAndAccount = Request<{ list_name: string; account_id: string }>;

export function makeListHandlers(lists: ListUseCases) {
  return {
    async getLists(req: Request, res: Response) {
      res.json(await lists.all(projectOf(req).id, req.requestId));
    },
    async getList(req: ByName, res: Response) {
      const q = req.query as { limit?: number; after?: string };
      res.json(await lists.get(projectOf(req).id, req.params.list_name, q.limit ?? 100, q.after, req.requestId));
    },
    async createList(req: Request<{ list_name: string }, unknown, CreateListRequest | undefined>, res: Response) {
      const description = req.body?.list_description;
      res.json(await lists.create(projectOf(req).id, req.params.list_name, description, req.requestId));
    },
    async deleteList(req: ByName, res: Response) {
      res.json(await lists.delete(projectOf(req).id, req.params.list_name, req.requestId));
    },
    async addAccountToList(req: ByNameAndAccount, res: Response) {
      const { list_name, account_id } = req.params;
      res.json(await lists.addAccount(projectOf(req), list_name, account_id, actorOf(req), req.requestId));
    },
    async removeAccountFromList(req: ByNameAndAccount, res: Response) {
      const { list_name, account_id } = req.params;
      res.json(await lists.removeAccount(projectOf(req), list_name, account_id, actorOf(req), req.requestId));
    },
  };
}
