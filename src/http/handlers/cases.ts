/** Handlers of the `Cases` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { CaseClose, CaseInput, CaseNoteInput, CaseUpdate } from '../../api-types';
import type { CaseQuery, CaseUseCases } from '../../usecases/cases';
import { actorOf, projectOf } from '../context';

type ById<Body = unknown> = Request<{ case_id: string }, unknown, Body>;

export function makeCaseHandlers(cases: CaseUseCases) {
  return {
    async listCases(req: Request, res: Response) {
      res.json(await cases.list(projectOf(req).id, req.query as CaseQuery, req.requestId));
    },
    async openCase(req: Request<Record<string, never>, unknown, CaseInput>, res: Response) {
      res.status(201).json(await cases.open(projectOf(req).id, req.body, actorOf(req), req.requestId));
    },
    async getCase(req: ById, res: Response) {
      res.json(await cases.get(projectOf(req).id, req.params.case_id));
    },
    async updateCase(req: ById<CaseUpdate>, res: Response) {
      res.json(await cases.update(projectOf(req).id, req.params.case_id, req.body, actorOf(req), req.requestId));
    },
    async closeCase(req: ById<CaseClose>, res: Response) {
      res.json(await cases.close(projectOf(req), req.params.case_id, req.body, actorOf(req), req.requestId));
    },
    async addCaseNote(req: ById<CaseNoteInput>, res: Response) {
      const note = await cases.addNote(
        projectOf(req).id,
        req.params.case_id,
        req.body.text,
        actorOf(req),
        req.requestId,
      );
      res.status(201).json(note);
    },
  };
}
