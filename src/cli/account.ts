/** `trustgate account label`: a label set by the CLI (audited as `cli`), as POST /account/{account_id}/label. */
import { mustExist, print, projectNamed, UsageError, type CommandDeps, type Out } from './command';

/** The options `account …` reads (main.ts parses them with the other areas'). */
export interface AccountOptions {
  json: boolean;
  note?: string;
  project?: string;
}

export async function runAccount(
  command: string | undefined,
  rest: string[],
  values: AccountOptions,
  deps: Pick<CommandDeps, 'projects' | 'projectExists' | 'labels'>,
  out: Out,
): Promise<void> {
  if (command !== 'label') throw new UsageError();
  const [accountId, label, ...extra] = rest;
  if (!accountId || extra.length > 0 || (label !== 'fraud' && label !== 'legit'))
    throw new UsageError('account label needs an ACCOUNT_ID and fraud or legit');
  const projectId = await projectNamed(values.project, deps, 'account label');
  await mustExist(projectId, deps);
  const input = { label, ...(values.note === undefined ? {} : { note: values.note }) } as const;
  const { request_id: _none, ...labelled } = await deps.labels.label(projectId, accountId, input, 'cli');
  print(out, values.json, labelled, [
    `account ${accountId} labelled ${labelled.label} (label ${labelled.id}, ${labelled.created_at}, by cli)`,
  ]);
}
