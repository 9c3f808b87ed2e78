/**
 * What the command modules of `trustgate` share: how they print, how they refuse what they were
 * given, and how they find the project a command is about.
 */
import type { LabelUseCases } from '../usecases/labels';
import type { OperatorUseCases } from '../usecases/operators';
import type { ProjectUseCases } from '../usecases/projects';
import type { RulesUseCases } from '../usecases/rules';
import type { WebhookDeliveryUseCases } from '../usecases/webhook-deliveries';
import type { ResealCount } from '../storage/reseal';
import type { Outbox } from '../webhooks/outbox';
import type { TestEventResult } from '../webhooks/test-event';

/**
 * What the commands run: the use cases they call and the few ports they read, each named (cli()
 * takes them from the runtime). Each command module takes the part it needs.
 */
export interface CommandDeps {
  projects: ProjectUseCases;
  /** Whether a project of this id exists. */
  projectExists(projectId: string): Promise<boolean>;
  labels: Pick<LabelUseCases, 'label'>;
  rules: Pick<RulesUseCases, 'current' | 'replace'>;
  operators: Pick<OperatorUseCases, 'add' | 'list' | 'disable'>;
  webhookDeliveries: Pick<WebhookDeliveryUseCases, 'replay'>;
  /** Every project's webhooks and their attempts (`webhooks list`). */
  webhookLog: Pick<Outbox, 'list' | 'attempts'>;
  /** One signed test event to the project's webhook URL, under the configuration's target policy. */
  sendTestWebhook(projectId: string): Promise<TestEventResult>;
  /** `secret-key reseal`: what a previous key sealed, sealed with the current one; each place's count as it is done. */
  resealSecrets(onCount: (count: ResealCount) => void): Promise<ResealCount[]>;
}

/** Writes one line of a command's output (cli() adds the newline). */
export type Out = (line: string) => void;

/** A command given wrongly: cli() prints the message (if any), then the usage text, on stderr and exits 2. */
export class UsageError extends Error {}

/** A value given wrongly (exit 2 too): its message says all there is, so no usage text follows it. */
export class ValueError extends UsageError {}

/** With --json the value as JSON, else the lines for a person. */
export function print(out: Out, json: boolean, value: Record<string, unknown>, lines: string[]): void {
  if (json) out(JSON.stringify(value, null, 2));
  else lines.forEach((l) => out(l));
}

/** The project a command names, or the only customer project when it names none. */
export async function projectNamed(
  projectId: string | undefined,
  deps: { projects: Pick<ProjectUseCases, 'list'> },
  command: string,
): Promise<string> {
  if (projectId !== undefined) return projectId;
  const customers = (await deps.projects.list()).filter((p) => !p.demo);
  if (customers.length === 1) return customers[0]!.project_id;
  throw new UsageError(
    `${command} needs a PROJECT_ID: there are ${customers.length} projects (trustgate project list)`,
  );
}

/** Fails with the same message wherever a command is given a project that does not exist. */
export async function mustExist(projectId: string, deps: Pick<CommandDeps, 'projectExists'>): Promise<void> {
  if (!(await deps.projectExists(projectId))) throw new Error(`project ${projectId} not found`);
}
