/** Handlers of the `Rules` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type {
  RuleDraft,
  RuleDraftRejection,
  RuleDraftRequest,
  RuleDrafts,
  RuleFields,
  Rules,
  RulesDocument,
  RulesPreview,
  RulesPreviewRequest,
  RulesTestRequest,
  RulesTestResult,
} from '../../api-types';
import { ruleFieldCatalogue } from '../../domain/rules';
import { BacktestAbandoned, type RulesUseCases } from '../../usecases/rules';
import { actorOf, projectOf } from '../context';

type DraftRequest<Body = unknown> = Request<{ draft_id: string }, unknown, Body>;

/** An AbortSignal that aborts when the client leaves: a replay stops then, no one would read its answer. */
function whenClientLeaves(req: Request, res: Response): AbortSignal {
  const left = new AbortController();
  res.once('close', () => left.abort());
  if (res.destroyed || req.socket.destroyed) left.abort();
  return left.signal;
}

/** Answers the replay's result, or nothing when its client left (docs/rules.md). */
async function replayFor<T>(res: Response, replay: Promise<T>): Promise<void> {
  try {
    res.json(await replay);
  } catch (err) {
    if (!(err instanceof BacktestAbandoned)) throw err;
  }
}

export function makeRulesHandlers(rules: RulesUseCases) {
  // The catalogue is the same for every project and request: made once.
  const fields = ruleFieldCatalogue();
  return {
    async getRules(req: Request, res: Response) {
      const body: Rules = { request_id: req.requestId, ...(await rules.current(projectOf(req).id)) };
      res.json(body);
    },
    async testRules(req: Request<Record<string, string>, unknown, RulesTestRequest>, res: Response<RulesTestResult>) {
      const left = whenClientLeaves(req, res);
      await replayFor(res, rules.test(projectOf(req).id, req.body, req.requestId, left));
    },
    async previewRules(
      req: Request<Record<string, string>, unknown, RulesPreviewRequest>,
      res: Response<RulesPreview>,
    ) {
      const left = whenClientLeaves(req, res);
      await replayFor(res, rules.preview(projectOf(req).id, req.body, req.requestId, left));
    },
    async putRules(req: Request<Record<string, string>, unknown, RulesDocument>, res: Response) {
      // The key's hash or the console operator's id is recorded (actorOf), never the key.
      const stored = await rules.replace(projectOf(req).id, req.body, actorOf(req), req.requestId);
      const body: Rules = { request_id: req.requestId, ...stored };
      res.json(body);
    },
    listRuleFields(req: Request, res: Response) {
      const body: RuleFields = { request_id: req.requestId, fields };
      res.json(body);
    },
    async listRuleDrafts(req: Request, res: Response) {
      const limit = req.query.limit === undefined ? undefined : Number(req.query.limit);
      const body: RuleDrafts = { request_id: req.requestId, drafts: await rules.listDrafts(projectOf(req).id, limit) };
      res.json(body);
    },
    async createRuleDraft(req: Request<Record<string, string>, unknown, RuleDraftRequest>, res: Response) {
      const draft = await rules.createDraft(projectOf(req).id, req.body, actorOf(req), req.requestId);
      const body: RuleDraft = { request_id: req.requestId, ...draft };
      res.status(201).json(body);
    },
    async getRuleDraft(req: DraftRequest, res: Response) {
      const body: RuleDraft = {
        request_id: req.requestId,
        ...(await rules.getDraft(projectOf(req).id, req.params.draft_id)),
      };
      res.json(body);
    },
    async publishRuleDraft(req: DraftRequest, res: Response) {
      const draft = await rules.publishDraft(projectOf(req).id, req.params.draft_id, actorOf(req), req.requestId);
      const body: RuleDraft = { request_id: req.requestId, ...draft };
      res.json(body);
    },
    async rejectRuleDraft(req: DraftRequest<RuleDraftRejection>, res: Response) {
      const { draft_id } = req.params;
      const draft = await rules.rejectDraft(projectOf(req).id, draft_id, req.body.reason, actorOf(req), req.requestId);
      const body: RuleDraft = { request_id: req.requestId, ...draft };
      res.json(body);
    },
  };
}
