/** Handlers of the `List` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { ListUseCases } from '../../usecases/lists';
import { projectOf } from '../context';

type ByName = Request<{ list_name: string }>;
type ByNameAndAccount = Request<{ list_name: string; account_id: string }>;

export function makeListHandlers(lists: ListUseCases) {
  return {
    async getLists(req: Request, res: Response) {
      res.json(await lists.all(projectOf(req).id));
    },
    async getList(req: ByName, res: Response) {
      const q = req.query as { limit?: number; after?: string };
      res.json(await lists.get(projectOf(req).id, req.params.list_name, q.limit ?? 100, q.after));
    },
    async createList(req: ByName, res: Response) {
      res.json(await lists.create(projectOf(req).id, req.params.list_name));
    },
    async deleteList(req: ByName, res: Response) {
      await lists.delete(projectOf(req).id, req.params.list_name);
      res.status(204).end();
    },
    async addAccountToList(req: ByNameAndAccount, res: Response) {
      await lists.addAccount(projectOf(req).id, req.params.list_name, req.params.account_id);
      res.status(204).end();
    },
    async removeAccountFromList(req: ByNameAndAccount, res: Response) {
      await lists.removeAccount(projectOf(req).id, req.params.list_name, req.params.account_id);
      res.status(204).end();
    },
  };
}
