/**
 * `trustgate project …`: creating projects, their keys, webhook and settings, their audit, and
 * resetting their data. Settings changes are audited as made by `cli`.
 */
import { LINK_SCORE_FLOOR_RANGE } from '../domain/linking';
import { DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS } from '../usecases/projects';
import { mustExist, print, UsageError, ValueError, type CommandDeps, type Out } from './command';

/** The options `project …` reads (main.ts parses them with the other areas'). */
export interface ProjectOptions {
  json: boolean;
  name?: string;
  'webhook-url'?: string;
  groups: boolean;
  test: boolean;
  'read-only': boolean;
  clear: boolean;
  threshold?: string;
  'link-floor'?: string;
  'clear-webhook': boolean;
  'webhook-events'?: string;
  'retention-sessions-days'?: string;
  'retention-verification-media-days'?: string;
  'retention-delivered-webhooks-days'?: string;
  limit?: string;
  cursor?: string;
  'grace-seconds'?: string;
  'yes-delete-live-data': boolean;
}

/** What `project …` runs. */
type ProjectDeps = Pick<CommandDeps, 'projects' | 'projectExists'>;

type ProjectCommand = (rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out) => Promise<void>;

const COMMANDS: Record<string, ProjectCommand> = {
  create: createProject,
  list: listProjects,
  'rotate-key': rotateKey,
  'add-key': addKey,
  'set-webhook': setWebhook,
  set: setProject,
  audit: projectAudit,
  'rotate-webhook-secret': rotateWebhookSecret,
  reset: resetProject,
};

/** `trustgate project COMMAND …`, one function a command. */
export async function runProject(
  command: string | undefined,
  rest: string[],
  values: ProjectOptions,
  deps: ProjectDeps,
  out: Out,
): Promise<void> {
  // Own keys only: `project toString` is not a command.
  const run = command !== undefined && Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) throw new UsageError();
  return run(rest, values, deps, out);
}

async function createProject(_rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out): Promise<void> {
  if (!values.name) throw new UsageError('project create needs --name');
  const p = await deps.projects.create({
    name: values.name,
    webhookUrl: values['webhook-url'],
    groups: values.groups,
    test: values.test,
  });
  print(out, values.json, { ...p }, [
    `project_id:     ${p.project_id}${p.test ? '  (test project: docs/test-mode.md)' : ''}`,
    `api_key:        ${p.api_key}`,
    `webhook_secret: ${p.webhook_secret}`,
    `webhook_url:    ${p.webhook_url ?? '(none)'}`,
    `groups:         ${p.groups_enabled ? 'on' : 'off'}`,
    'The API key and webhook secret are shown only now; keep them safe.',
  ]);
}

async function listProjects(_rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out): Promise<void> {
  const all = await deps.projects.list();
  if (values.json) out(JSON.stringify(all, null, 2));
  else if (all.length === 0) out('no projects');
  else
    all.forEach((p) =>
      out(
        `${p.project_id}  ${p.name}${p.demo ? ' [demo]' : ''}${p.test ? ' [test]' : ''}  ` +
          `keys: ${p.api_keys.join(', ') || '(none)'}  webhook: ${p.webhook_url ?? '(none)'}  ` +
          `groups: ${p.groups_enabled ? 'on' : 'off'}  threshold: ${p.decision_threshold}`,
      ),
    );
}

async function rotateKey(rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out): Promise<void> {
  const [projectId] = rest;
  if (!projectId) throw new UsageError('project rotate-key needs a PROJECT_ID');
  const r = await deps.projects.rotateKey(projectId);
  print(out, values.json, { ...r }, [`api_key: ${r.api_key}`, 'The previous keys of this project no longer work.']);
}

async function addKey(rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out): Promise<void> {
  const [projectId, ...extra] = rest;
  if (!projectId || extra.length > 0) throw new UsageError('project add-key needs one PROJECT_ID');
  const r = await deps.projects.addKey(projectId, values['read-only'] ? 'read_only' : 'full');
  print(out, values.json, { ...r }, [
    `api_key: ${r.api_key}${r.scope === 'read_only' ? '  (read-only: GET requests only)' : ''}`,
    'The key is shown only now; keep it safe.',
  ]);
}

async function setWebhook(rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out): Promise<void> {
  const [projectId, url] = rest;
  const webhookUrl = values.clear ? null : url;
  if (!projectId || webhookUrl === undefined || webhookUrl === '')
    throw new UsageError('project set-webhook needs a PROJECT_ID and a URL (or --clear)');
  await deps.projects.setWebhook(projectId, webhookUrl);
  out(values.clear ? 'webhook URL cleared' : `webhook URL set to ${url}`);
}

/** `trustgate project set`: the settings PATCH /project changes, audited as the CLI's. */
async function setProject(rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out): Promise<void> {
  const [projectId, ...extra] = rest;
  if (!projectId || extra.length > 0) throw new UsageError('project set needs one PROJECT_ID');
  if (values['webhook-url'] !== undefined && values['clear-webhook'])
    throw new UsageError('project set takes --webhook-url or --clear-webhook, not both');
  const change = {
    name: values.name,
    decisionThreshold: unitNumber('--threshold', values.threshold, 0),
    linkScoreFloor: unitNumber('--link-floor', values['link-floor'], LINK_SCORE_FLOOR_RANGE.min),
    groupsEnabled: values.groups ? true : undefined,
    webhookUrl: values['clear-webhook'] ? null : values['webhook-url'],
    webhookEvents: values['webhook-events']
      ?.split(',')
      .map((e) => e.trim())
      .filter(Boolean),
    retentionSessionsDays: retentionDays(values, 'retention-sessions-days'),
    retentionVerificationMediaDays: retentionDays(values, 'retention-verification-media-days'),
    retentionDeliveredWebhooksDays: retentionDays(values, 'retention-delivered-webhooks-days'),
  };
  if (Object.values(change).every((v) => v === undefined))
    throw new UsageError(
      'project set needs at least one of --name, --threshold, --link-floor, --groups, --webhook-url, --clear-webhook, ' +
        '--webhook-events, --retention-*-days',
    );
  const p = await deps.projects.update(projectId, change, 'cli');
  const settings = {
    project_id: p.id,
    name: p.name,
    decision_threshold: p.decisionThreshold,
    link_score_floor: p.linkScoreFloor,
    groups_enabled: p.groupsEnabled,
    webhook_url: p.webhookUrl,
    webhook_events: p.webhookEvents,
    retention_sessions_days: p.retentionSessionsDays,
    retention_verification_media_days: p.retentionVerificationMediaDays,
    retention_delivered_webhooks_days: p.retentionDeliveredWebhooksDays,
  };
  const days = (d: number | null) => (d === null ? 'keep' : `${d} days`);
  print(out, values.json, settings, [
    `project_id:         ${p.id}`,
    `name:               ${p.name}`,
    `decision_threshold: ${p.decisionThreshold}`,
    `link_score_floor:   ${p.linkScoreFloor}`,
    `groups:             ${p.groupsEnabled ? 'on' : 'off'}`,
    `webhook_url:        ${p.webhookUrl ?? '(none)'}`,
    `webhook_events:     ${p.webhookEvents.join(', ') || '(none)'}`,
    `retention:          sessions ${days(p.retentionSessionsDays)}, ` +
      `verification media ${days(p.retentionVerificationMediaDays)}, ` +
      `delivered webhooks ${days(p.retentionDeliveredWebhooksDays)}`,
  ]);
}

/** `--threshold`, `--link-floor`: a number from `min` to 1, checked here so that a mistyped one is a usage error. */
function unitNumber(option: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > 1)
    throw new ValueError(`${option} must be a number between ${min} and 1, not ${JSON.stringify(raw)}`);
  return value;
}

type RetentionOption =
  'retention-sessions-days' | 'retention-verification-media-days' | 'retention-delivered-webhooks-days';

/** A `--retention-*-days` option: a whole number of days, or `keep` (null); the range is the settings' rule (nextSettings). */
function retentionDays(values: ProjectOptions, option: RetentionOption): number | null | undefined {
  const raw = values[option];
  if (raw === undefined) return undefined;
  if (raw === 'keep') return null;
  if (!/^[0-9]{1,6}$/.test(raw))
    throw new ValueError(`--${option} must be a whole number of days or keep, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** `trustgate project audit`: a page of the project's settings changes, newest first. */
async function projectAudit(rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out): Promise<void> {
  const [projectId, ...extra] = rest;
  if (!projectId || extra.length > 0) throw new UsageError('project audit needs one PROJECT_ID');
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    throw new ValueError(`--limit must be an integer from 1 to 200, not ${JSON.stringify(values.limit)}`);
  if (values.cursor !== undefined && !/^[1-9][0-9]{0,14}$/.test(values.cursor))
    throw new ValueError(`--cursor must be the next_cursor of a previous page, not ${JSON.stringify(values.cursor)}`);
  await mustExist(projectId, deps);
  const page = await deps.projects.auditEvents(projectId, limit, values.cursor);
  if (values.json) return out(JSON.stringify(page, null, 2));
  if (page.events.length === 0) out('no changes');
  for (const e of page.events) {
    const changes = e.changes.map((c) => `${c.field}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`);
    const account = e.account_id === undefined ? '' : ` ${e.account_id}`;
    out(`${e.created_at}  ${e.actor}  ${e.action}${account}  ${changes.join(', ')}`);
  }
  if (page.next_cursor) out(`more: --cursor ${page.next_cursor}`);
}

async function rotateWebhookSecret(rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out): Promise<void> {
  const [projectId, ...extra] = rest;
  if (!projectId || extra.length > 0) throw new UsageError('project rotate-webhook-secret needs one PROJECT_ID');
  const raw = values['grace-seconds'];
  const grace = raw === undefined ? DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS : Number(raw);
  if (raw !== undefined && !/^[0-9]{1,7}$/.test(raw))
    throw new ValueError(`--grace-seconds must be a whole number of seconds, not ${JSON.stringify(raw)}`);
  const r = await deps.projects.rotateWebhookSecret(projectId, grace, 'cli');
  print(out, values.json, { ...r }, [
    `webhook_secret: ${r.webhook_secret}`,
    r.previous_secret_valid_until
      ? `The previous secret also signs every delivery until ${r.previous_secret_valid_until}.`
      : 'The previous secret no longer signs deliveries.',
    'The new secret is shown only now; keep it safe.',
  ]);
}

/** `trustgate project reset`: a project's gathered data deleted, in one transaction. */
async function resetProject(rest: string[], values: ProjectOptions, deps: ProjectDeps, out: Out): Promise<void> {
  const [projectId, ...extra] = rest;
  if (!projectId || extra.length > 0) throw new UsageError('project reset needs one PROJECT_ID');
  const r = await deps.projects.reset(projectId, { allowLive: values['yes-delete-live-data'] });
  const counts = Object.entries(r.deleted).filter(([, n]) => n > 0);
  print(out, values.json, { ...r }, [
    `project ${projectId} reset (${r.test ? 'test' : 'live'} project): its keys, webhook and lists are kept`,
    ...(counts.length ? counts.map(([table, n]) => `  ${table}: ${n} deleted`) : ['  it had no data']),
  ]);
}
