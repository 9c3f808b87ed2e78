/** Handlers of the `Rules` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { Rules, RulesDocument, RulesTestRequest, RulesTestResult } from '../../api-types';
import { BacktestAbandoned, type RulesUseCases } from '../../usecases/rules';
import { actorOf, projectOf } from '../context';

export function makeRulesHandlers(rules: RulesUseCases) {
  return {
    async getRules(req: Request, res: Response) {
      const body: Rules = { request_id: req.requestId, ...(await rules.current(projectOf(req).id)) };
      res.json(body);
    },
    async testRules(req: Request<Record<string, string>, unknown, RulesTestRequest>, res: Response<RulesTestResult>) {
      // The replay stops when its client leaves: no one would read the answer (docs/rules.md).
      const left = new AbortController();
      res.once('close', () => left.abort());
      if (res.destroyed || req.socket.destroyed) left.abort();
      try {
        res.json(await rules.test(projectOf(req).id, req.body, req.requestId, left.signal));
      } catch (err) {
        if (!(err instanceof BacktestAbandoned)) throw err;
      }
    },
    async putRules(req: Request<Record<string, string>, unknown, RulesDocument>, res: Response) {
      // The key's hash or the console operator's id is recorded (actorOf), never the key.
      const stored = await rules.replace(projectOf(req).id, req.body, actorOf(req), req.requestId);
      const body: Rules = { request_id: req.requestId, ...stored };
      res.json(body);
    },
  };
}
