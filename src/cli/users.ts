/**
 * `trustgate user add|list|disable`: the console's operators (docs/console-auth.md). The password
 * of `user add` is read from the terminal without echo, or from the first line of stdin when it
 * is not a terminal (`printf '%s\n' "$PW" | trustgate user add …`); never from the arguments,
 * which other users of the machine can read in the process list.
 */
import { parseArgs } from 'node:util';
import type { CommandDeps } from './command';

export type ReadSecret = (prompt: string) => Promise<string>;

/** What a secret is read from: stdin (a terminal, or a pipe) and where the prompt goes. */
export interface SecretInput {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  prompt: { write(text: string): unknown };
}

/** Reads a secret: on a terminal a prompt and the keys typed without echo, else the input's first line. */
export function makeReadSecret(input: SecretInput): ReadSecret {
  return (prompt) =>
    new Promise((resolve, reject) => {
      const { stdin } = input;
      const raw = stdin.isTTY === true && typeof stdin.setRawMode === 'function';
      let text = '';
      if (raw) {
        input.prompt.write(prompt);
        stdin.setRawMode!(true);
      }
      stdin.setEncoding('utf8');
      const finish = (error?: Error) => {
        stdin.removeListener('data', onData).removeListener('end', onEnd).removeListener('error', finish);
        if (raw) {
          stdin.setRawMode!(false);
          input.prompt.write('\n');
        }
        stdin.pause();
        if (error) reject(error);
        else resolve(text);
      };
      const onData = (chunk: string | Buffer) => {
        for (const ch of String(chunk)) {
          if (ch === '\n' || ch === '\r') return finish();
          if (raw && ch === '\u0003') return finish(new Error('interrupted'));
          if (raw && (ch === '\u007f' || ch === '\b')) text = text.slice(0, -1);
          else text += ch;
        }
      };
      const onEnd = () => finish();
      stdin.on('data', onData).on('end', onEnd).on('error', finish);
      stdin.resume();
    });
}

/** The process's stdin, prompting on stderr (stdout stays the command's output). */
export const readSecretFromStdin: ReadSecret = (prompt) =>
  makeReadSecret({ stdin: process.stdin, prompt: process.stderr })(prompt);

export const USER_USAGE = `  trustgate user add --project PROJECT_ID --email EMAIL --role (viewer | analyst | admin) [--sso-only] [--json]
      adds an operator of the console; its password (at least 12 characters) is read from
      the terminal without echo, or from the first line of stdin (never from the arguments);
      with --sso-only it has none and signs in through OpenID Connect only (OIDC_ISSUER)
  trustgate user list [--project PROJECT_ID] [--json]
  trustgate user disable EMAIL
      the operator can no longer sign in, and its sessions end at once
`;

export class UserUsageError extends Error {}

export async function runUser(
  argv: string[],
  { operators }: Pick<CommandDeps, 'operators'>,
  out: (line: string) => void,
  readSecret: ReadSecret,
): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      project: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      'sso-only': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const [, command, ...rest] = positionals;
  if (command === 'add' && rest.length === 0) {
    if (!values.project || !values.email || !values.role)
      throw new UserUsageError('user add needs --project, --email and --role\n' + USER_USAGE);
    const password = values['sso-only'] ? null : await readSecret(`password for ${values.email}: `);
    const added = await operators.add({
      projectId: values.project,
      email: values.email,
      role: values.role,
      password,
    });
    if (values.json) out(JSON.stringify(added, null, 2));
    else out(`operator ${added.email} (${added.role}) added to project ${added.project_id}: ${added.id}`);
    return;
  }
  if (command === 'list' && rest.length === 0) {
    const all = await operators.list(values.project);
    if (values.json) out(JSON.stringify(all, null, 2));
    else if (all.length === 0) out('no operators');
    else all.forEach((o) => out(`${o.email}  ${o.role}  project ${o.project_id}${o.disabled ? '  [disabled]' : ''}`));
    return;
  }
  if (command === 'disable' && rest.length === 1) {
    const changed = await operators.disable(rest[0]!);
    out(changed ? `operator ${rest[0]} disabled; its sessions have ended` : `operator ${rest[0]} was already disabled`);
    return;
  }
  throw new UserUsageError(USER_USAGE);
}
