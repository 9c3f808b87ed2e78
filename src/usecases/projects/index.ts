/**
 * Projects: creation with their first key and webhook secret, key rotation, settings and their
 * audit. Each use case is a function of its own module taking the project context first;
 * `makeProjectUseCases` gives them the context once (with-deps.ts).
 */
import { makeApiKeyCache } from '../api-key-cache';
import type { Db } from '../../storage/db';
import { withDeps } from '../../with-deps';
import { addKey, authenticate, knownKey, rotateKey } from './api-keys';
import { changeProject, forgetAllProjects, forgetProject } from './change';
import { create, ensureDefault, ensureDemo } from './create';
import type { ProjectContext, ProjectDeps } from './deps';
import { list } from './list';
import { auditEvents, stats } from './overview';
import { reset } from './reset';
import { setWebhook, update } from './update';
import { rotateWebhookSecret, webhookSecret, webhookTarget } from './webhook-secret';

export type { ProjectDeps } from './deps';
export { DEFAULT_DECISION_THRESHOLD, type NewProject, type ProjectCredentials } from './create';
export type { ProjectSummary } from './list';
export type { ProjectSettingsChange } from './settings';
export { DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS } from './webhook-secret';

export function makeProjectUseCases(deps: ProjectDeps) {
  const ctx: ProjectContext = {
    ...deps,
    keyCache: makeApiKeyCache({ ttlMs: deps.apiKeyCacheTtlMs ?? 0, clock: deps.clock }),
  };
  const given = withDeps(ctx);
  return {
    create: given(create),
    list: given(list),
    addKey: given(addKey),
    rotateKey: given(rotateKey),
    reset: given(reset),
    setWebhook: given(setWebhook),
    update: given(update),
    rotateWebhookSecret: given(rotateWebhookSecret),
    forgetProject: given(forgetProject),
    forgetAllProjects: given(forgetAllProjects),
    /** Runs a change to the project in a transaction that announces it; every process's key cache drops it (change.ts). */
    changeProject: <T>(projectId: string, work: (trx: Db) => Promise<T>) => changeProject(ctx, projectId, work),
    stats: given(stats),
    auditEvents: given(auditEvents),
    knownKey: given(knownKey),
    authenticate: given(authenticate),
    webhookSecret: given(webhookSecret),
    webhookTarget: given(webhookTarget),
    ensureDefault: given(ensureDefault),
    ensureDemo: given(ensureDemo),
  };
}

export type ProjectUseCases = ReturnType<typeof makeProjectUseCases>;
