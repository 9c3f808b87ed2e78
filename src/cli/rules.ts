/**
 * `trustgate rules pull|push|test`: a project's rules document (docs/rules.md) kept as a file
 * in the team's own repository. A file is YAML when its name ends in `.yaml` or `.yml`, JSON
 * otherwise. `test` runs the server's checks (domain/rules) without a database; `push` runs
 * them too, printing every error, and stores the document as `PUT /rules` does (audited as `cli`).
 */
import fs from 'node:fs';
import { parse, stringify } from 'yaml';
import { describeError, validateRules } from '../domain/rules';
import type { RulesUseCases } from '../usecases/rules';
import { UsageError, type CommandDeps, type Out } from './command';

const isYaml = (file: string) => /\.ya?ml$/i.test(file);

/** The file's document, parsed (not yet checked). */
export function readRulesFile(file: string): unknown {
  const text = fs.readFileSync(file, 'utf8');
  try {
    return isYaml(file) ? parse(text) : JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid ${isYaml(file) ? 'YAML' : 'JSON'}: ${(err as Error).message}`);
  }
}

/** The errors of the file's document, one line each (path, rule, what is wrong); none when it passes. */
export function rulesFileErrors(document: unknown): string[] {
  const checked = validateRules(document);
  return checked.ok ? [] : checked.errors.map(describeError);
}

/** `trustgate rules test FILE`: 0 when the document passes, 1 (errors printed) when not. */
export function testRulesFile(file: string, out: Out, err: Out): number {
  const document = readRulesFile(file);
  const errors = rulesFileErrors(document);
  if (errors.length === 0) {
    const rules = (document as { rules: unknown[] }).rules;
    out(`${file}: ${rules.length} rule${rules.length === 1 ? '' : 's'}, valid`);
    return 0;
  }
  err(`${file}: ${errors.length} error${errors.length === 1 ? '' : 's'}`);
  errors.forEach((e) => err(`  ${e}`));
  return 1;
}

/** `trustgate rules pull PROJECT_ID [FILE]`: the current document with its version, to the file or stdout (JSON). */
export async function pullRules(
  rules: Pick<RulesUseCases, 'current'>,
  projectId: string,
  file: string | undefined,
  out: Out,
) {
  const current = await rules.current(projectId);
  const document = { version: current.version, rules: current.rules };
  if (!file) return out(JSON.stringify(document, null, 2));
  fs.writeFileSync(file, isYaml(file) ? stringify(document) : JSON.stringify(document, null, 2) + '\n');
  out(`${file}: version ${current.version}, ${current.rules.length} rule${current.rules.length === 1 ? '' : 's'}`);
}

/** `trustgate rules push PROJECT_ID FILE [--expected-version N]`: checked, then stored as the next version. */
export async function pushRules(
  rules: Pick<RulesUseCases, 'replace'>,
  projectId: string,
  file: string,
  expectedVersion: number | undefined,
  out: Out,
) {
  const document = readRulesFile(file);
  const errors = rulesFileErrors(document);
  if (errors.length > 0)
    throw new Error(
      `${file}: ${errors.length} error${errors.length === 1 ? '' : 's'}, nothing stored\n  ${errors.join('\n  ')}`,
    );
  const body =
    expectedVersion === undefined ? document : { ...(document as object), expected_version: expectedVersion };
  const stored = await rules.replace(projectId, body, 'cli');
  out(`rules stored as version ${stored.version} (${stored.rules.length} rule${stored.rules.length === 1 ? '' : 's'})`);
}

/** `trustgate rules test FILE` (cli() runs it before loading the configuration: it needs no database). */
export function runRulesTest(argv: string[], out: Out, err: Out): number {
  if (argv.length !== 3) throw new UsageError('rules test needs one FILE');
  return testRulesFile(argv[2]!, out, err);
}

/** `trustgate rules pull|push`. */
export async function runRules(
  command: string | undefined,
  rest: string[],
  values: { 'expected-version'?: string },
  { rules }: Pick<CommandDeps, 'rules'>,
  out: Out,
): Promise<void> {
  const [projectId, file, ...extra] = rest;
  const expected = values['expected-version'];
  if (command === 'pull' && projectId && extra.length === 0 && expected === undefined)
    return pullRules(rules, projectId, file, out);
  if (command === 'push' && projectId && file && extra.length === 0) {
    if (expected !== undefined && !/^[0-9]{1,9}$/.test(expected))
      throw new UsageError(`--expected-version must be a version number, not ${JSON.stringify(expected)}`);
    return pushRules(rules, projectId, file, expected === undefined ? undefined : Number(expected), out);
  }
  throw new UsageError(
    `rules ${command ?? ''} needs ${command === 'push' ? 'a PROJECT_ID and a FILE' : 'a PROJECT_ID'}`,
  );
}
