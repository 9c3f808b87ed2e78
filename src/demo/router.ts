/**
 * The demo sign-up page at /demo: a form with the web SDK on it, and after submit what the
 * backend learns about the session, as a customer's backend would see it from the Session API.
 * It uses a project of its own (marked `demo`), so it never shows a customer's sessions; it is
 * off in production unless DEMO=true.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import { BadRequestError } from '../errors';
import type { Project } from '../storage/repositories/projects';
import type { Services } from '../services';
import { PACKAGE_ROOT } from '../spec';

const PUBLIC = path.join(PACKAGE_ROOT, 'src', 'demo', 'public');
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function makeDemoRouter(services: Services): Router {
  const router = express.Router();
  let project: Promise<Project> | undefined;
  const demoProject = () => {
    project ??= services.projects.ensureDemo();
    project.catch(() => (project = undefined));
    return project;
  };
  const page = fs.readFileSync(path.join(PUBLIC, 'index.html'), 'utf8');

  router.get('/demo', async (_req, res) => {
    const { id } = await demoProject();
    res.setHeader('Cache-Control', 'no-store');
    res.type('html').send(page.replace('{{PROJECT_ID}}', id));
  });
  router.use('/demo/assets', express.static(PUBLIC, { index: false, maxAge: '5m' }));

  /** The demo's backend: what GET /session/{session_id} returns for the demo project. */
  router.post('/demo/session', async (req, res) => {
    const sessionId: unknown = req.body?.session_id;
    if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) {
      throw new BadRequestError('session_id must be a lowercase UUID');
    }
    const session = await services.evaluation.get(await demoProject(), sessionId, req.requestId);
    res.json({ session });
  });
  return router;
}
