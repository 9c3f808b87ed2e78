/**
 * `trustgate webhooks list|replay|test`: the delivery records, replays, and one signed test event
 * to a project's receiver.
 */
import { NotFoundError } from '../errors';
import { mustExist, print, projectNamed, UsageError, type CommandDeps, type Out } from './command';

/** The options `webhooks …` reads (main.ts parses them with the other areas'). */
export interface WebhooksOptions {
  json: boolean;
  status?: string;
}

const STATUSES = ['pending', 'delivered', 'failed'] as const;

/** What `webhooks …` runs. */
export type WebhooksDeps = Pick<
  CommandDeps,
  'projects' | 'projectExists' | 'webhookDeliveries' | 'webhookLog' | 'sendTestWebhook'
>;

/** `trustgate webhooks …`: the delivery records, and replays. */
export async function runWebhooks(
  command: string | undefined,
  rest: string[],
  values: WebhooksOptions,
  deps: WebhooksDeps,
  out: Out,
): Promise<void> {
  if (command === 'test') return testWebhook(rest, values, deps, out);
  if (command === 'list') return listWebhooks(values, deps, out);
  const [requestId] = rest;
  if (command === 'replay' && requestId !== undefined && rest.length === 1)
    return replayWebhook(requestId, values, deps, out);
  throw new UsageError();
}

async function listWebhooks(values: WebhooksOptions, deps: WebhooksDeps, out: Out): Promise<void> {
  const status = values.status;
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
    throw new UsageError('--status is one of pending, delivered, failed');
  const outbox = deps.webhookLog;
  const rows = await outbox.list({ status: status as (typeof STATUSES)[number] | undefined });
  // A refused delivery's last answer says why (a receiver's `{"reason":"bad_signature"}`): one read each, undelivered only.
  const answers = await Promise.all(
    rows.map(async (w) => (w.status === 'delivered' ? undefined : (await outbox.attempts(w.requestId)).at(-1)?.answer)),
  );
  const view = rows.map((w, i) => ({
    request_id: w.requestId,
    session_id: w.sessionId,
    project_id: w.projectId,
    event_type: w.eventType,
    status: w.status,
    attempts: w.attempts,
    next_attempt: w.status === 'pending' ? w.runAt.toISOString() : null,
    last_error: w.lastError ?? null,
    last_answer: answers[i] ?? null,
    created_at: w.createdAt.toISOString(),
  }));
  if (!values.json && view.length === 0) {
    out(status ? `no ${status} webhooks` : 'no webhooks');
    return;
  }
  print(
    out,
    values.json,
    { webhooks: view },
    view.map(
      (w) =>
        `${w.request_id}  ${w.status}  attempts: ${w.attempts}  ${w.event_type}  session ${w.session_id}` +
        (w.last_error ? `  last error: ${w.last_error}` : '') +
        (w.last_answer ? `  answer: ${oneLine(w.last_answer)}` : ''),
    ),
  );
}

/** An answer on one line, its start: what a terminal's list shows of it (the console shows it whole). */
function oneLine(answer: string): string {
  const text = answer.replace(/\s+/g, ' ').trim();
  return text.length > ANSWER_SHOWN ? `${text.slice(0, ANSWER_SHOWN)}…` : text;
}
const ANSWER_SHOWN = 200;

async function replayWebhook(requestId: string, values: WebhooksOptions, deps: WebhooksDeps, out: Out): Promise<void> {
  try {
    await deps.webhookDeliveries.replay(undefined, requestId, 'cli', null);
  } catch (err) {
    if (err instanceof NotFoundError) throw new Error(`webhook ${requestId} not found`);
    throw err;
  }
  print(out, values.json, { request_id: requestId, status: 'pending' }, [`webhook ${requestId} queued again`]);
}

/** `trustgate webhooks test`: one signed test event to the project's endpoint, and the receiver's answer. */
async function testWebhook(rest: string[], values: WebhooksOptions, deps: WebhooksDeps, out: Out): Promise<void> {
  if (rest.length > 1) throw new UsageError('webhooks test takes at most one PROJECT_ID');
  const projectId = await projectNamed(rest[0], deps, 'webhooks test');
  await mustExist(projectId, deps);
  const r = await deps.sendTestWebhook(projectId);
  const sent = `POST ${r.url} (webhook.test, x-event-id ${r.requestId})`;
  if (r.outcome === 'no_url')
    throw new Error(
      `project ${projectId} has no webhook URL; set one with: trustgate project set-webhook ${projectId} URL`,
    );
  if (r.outcome === 'refused') {
    print(out, values.json, { ...r }, [sent, r.error]);
    throw new Error(
      `the webhook URL is refused by the target policy, and real deliveries to it fail the same way. For a receiver ` +
        `on this machine or your network, set WEBHOOK_ALLOW_PRIVATE=1 for this command and for the server (and any ` +
        `trustgate worker), restart the server, then send the failed ones again: trustgate webhooks list --status ` +
        `failed, trustgate webhooks replay REQUEST_ID`,
    );
  }
  if (r.outcome === 'failed') {
    print(out, values.json, { ...r }, [sent, `no answer: ${r.error}`]);
    throw new Error(`the receiver at ${r.url} did not answer`);
  }
  print(out, values.json, { ...r }, [sent, `answer: HTTP ${r.status}`, r.body === '' ? '(empty body)' : r.body]);
  if (r.status < 200 || r.status >= 300)
    throw new Error(`the receiver answered HTTP ${r.status}: only a 2xx acknowledges a webhook`);
}
