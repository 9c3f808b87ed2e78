/**
 * What the command modules of `trustgate` share: how they print, how they refuse what they were
 * given, and how they find the project a command is about.
 */
import type { Runtime } from '../composition';

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
export async function projectNamed(projectId: string | undefined, runtime: Runtime, command: string): Promise<string> {
  if (projectId !== undefined) return projectId;
  const customers = (await runtime.services.projects.list()).filter((p) => !p.demo);
  if (customers.length === 1) return customers[0]!.project_id;
  throw new UsageError(
    `${command} needs a PROJECT_ID: there are ${customers.length} projects (trustgate project list)`,
  );
}

/** Fails with the same message wherever a command is given a project that does not exist. */
export async function mustExist(projectId: string, runtime: Runtime): Promise<void> {
  if (!(await runtime.services.repos.projects.findById(projectId))) throw new Error(`project ${projectId} not found`);
}
