/**
 * `trustgate user add|list|disable`: the console's operators (docs/console-auth.md). The password
 * of `user add` is read from the terminal without echo, or from the first line of stdin when it
 * is not a terminal (`printf '%s\n' "$PW" | trustgate user add …`); never from the arguments,
 * which other users of the machine can read in the process list.
 */
import { parseArgs } from 'node:util';
import type { Runtime } from '../composition';

export type ReadSecret = (prompt: string) => Promise<string>;

/** Reads a secret from the process's stdin: a hidden prompt on a terminal, else its first line. */
export const readSecretFromStdin: ReadSecret = (prompt) =>
  new Promise((resolve, reject) => {
    const stdin = process.stdin;
    let text = '';
    const tty = stdin.isTTY === true;
    if (tty) {
      process.stderr.write(prompt);
      stdin.setRawMode(true);
    }
    stdin.setEncoding('utf8');
    const done = (value: string) => {
      stdin.off('data', onData).off('end', onEnd).off('error', reject);
      if (tty) {
        stdin.setRawMode(false);
        process.stderr.write('\n');
      }
      stdin.pause();
      resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\n' || ch === '\r') return done(text);
        if (tty && ch === '\u0003') {
          stdin.setRawMode(false);
          return reject(new Error('interrupted'));
        }
        if (tty && (ch === '\u007f' || ch === '\b')) text = text.slice(0, -1);
        else text += ch;
      }
    };
    const onEnd = () => done(text);
    stdin.on('data', onData).on('end', onEnd).on('error', reject);
    stdin.resume();
  });

export const USER_USAGE = `  trustgate user add --project PROJECT_ID --email EMAIL --role (viewer | analyst | admin) [--json]
      adds an operator of the console; its password (at least 12 characters) is read from
      the terminal without echo, or from the first line of stdin (never from the arguments)
  trustgate user list [--project PROJECT_ID] [--json]
  trustgate user disable EMAIL
      the operator can no longer sign in, and its sessions end at once
`;

export class UserUsageError extends Error {}

export async function runUser(
  argv: string[],
  runtime: Runtime,
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
      json: { type: 'boolean', default: false },
    },
  });
  const [, command, ...rest] = positionals;
  const operators = runtime.services.operators;
  if (command === 'add' && rest.length === 0) {
    if (!values.project || !values.email || !values.role)
      throw new UserUsageError('user add needs --project, --email and --role\n' + USER_USAGE);
    const password = await readSecret(`password for ${values.email}: `);
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
