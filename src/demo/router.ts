/**
 * The demo sign-up page at /demo: a form with the web SDK on it, and after submit what the
 * backend learns about the session, as a customer's backend gets it from
 * POST /session/authenticate (the same use case, called in process).
 * It uses a project of its own (marked `demo`), so it never shows a customer's sessions; it is
 * off in production unless DEMO=true.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import { BadRequestError } from '../errors';
import { ICON_LINK } from '../http/home';
import { isText, TEXT_RULE } from '../http/text';
import type { Project } from '../storage/repositories/projects';
import type { EvaluationUseCases } from '../usecases/evaluation';
import type { ProjectUseCases } from '../usecases/projects';
import { PACKAGE_ROOT } from '../spec';

const PUBLIC = path.join(PACKAGE_ROOT, 'src', 'demo', 'public');
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface DemoDeps {
  /** The demo's own project, created on first use. */
  projects: Pick<ProjectUseCases, 'ensureDemo'>;
  evaluation: Pick<EvaluationUseCases, 'authenticate'>;
}

export function makeDemoRouter(deps: DemoDeps): Router {
  const router = express.Router();
  let project: Promise<Project> | undefined;
  const demoProject = () => {
    project ??= deps.projects.ensureDemo();
    project.catch(() => (project = undefined));
    return project;
  };
  const page = fs.readFileSync(path.join(PUBLIC, 'index.html'), 'utf8').replace('{{ICON}}', ICON_LINK);

  router.get('/demo', async (_req, res) => {
    const { id } = await demoProject();
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(page.replace('{{PROJECT_ID}}', id));
  });
  router.use('/demo/assets', express.static(PUBLIC, { index: false, maxAge: '5m' }));

  /**
   * The demo's backend, doing what a customer's sign-up handler does: authenticate the session
   * with the account being created (its id derived from the email, so signing up twice with one
   * address shows the account's history and links) and answer with the evaluation.
   */
  router.post('/demo/session', express.json({ limit: '16kb' }), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const sessionId = body.session_id;
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) {
      throw new BadRequestError('session_id must be a lowercase UUID');
    }
    const text = (name: string, max: number) => {
      const value = body[name];
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string' || value.length > max)
        throw new BadRequestError(`${name} must be a string of at most ${max} characters`);
      if (!isText(value)) throw new BadRequestError(`${name} ${TEXT_RULE}`);
      return value.trim();
    };
    const email = text('email', 320);
    const [first_name, ...rest] = (text('name', 256) ?? '').split(/\s+/).filter(Boolean);
    const account = {
      id: email ? `demo:${email.toLowerCase()}` : `demo:${sessionId}`,
      ...(email ? { email } : {}),
      ...(first_name ? { first_name } : {}),
      ...(rest.length ? { last_name: rest.join(' ') } : {}),
    };
    const evaluation = await deps.evaluation.authenticate(
      await demoProject(),
      { session_id: sessionId, account },
      { requestId: req.requestId, accountsLinked: true },
    );
    res.json({ evaluation });
  });
  return router;
}
