/**
 * The checks of a rules document, beyond and including its JSON Schema (openapi.yaml
 * `RulesDocument`): the server's `PUT /rules` and `trustgate rules test` run the same ones.
 * Each error names the path (`rules[2].when.all[0].field`), the rule's id and what is wrong.
 * The structure is checked here too (not only by the request validator) so that a file
 * checked by the CLI, and a document read back from the database, pass the same gate.
 */
import type { RuleCondition, RulesDocument } from '../../api-types';
import { fieldKind, type FieldKind } from './fields';

export const MAX_RULES = 200;
/** How deep `all` / `any` / `not` may nest (a comparison at the top is depth 1). */
export const MAX_DEPTH = 8;
export const MAX_CHILDREN = 50;
export const MAX_LIST_VALUES = 500;
export const MAX_ACTION_ITEMS = 20;
const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const TAG = /^[a-z0-9][a-z0-9_.:-]{0,63}$/;
const LIST_NAME = /^[^\x00\uD800-\uDFFF]{1,64}$/u;
/** The contract's `Text`: no NUL (PostgreSQL cannot store it), no unpaired surrogate. */
const TEXT = /^[^\x00\uD800-\uDFFF]*$/u;
const DECISIONS = ['Real', 'Fake'];
export const OPS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'not_in',
  'contains',
  'exists',
  'not_exists',
] as const satisfies readonly NonNullable<RuleCondition['op']>[];
export type Op = (typeof OPS)[number];
/** Every op of the contract is handled (a new one breaks the build here). */
const _allOps: readonly Op[] = [] as NonNullable<RuleCondition['op']>[];

/** Which ops each kind of field takes. */
export const OPS_OF: Readonly<Record<FieldKind, readonly Op[]>> = {
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'exists', 'not_exists'],
  boolean: ['eq', 'neq', 'exists', 'not_exists'],
  string: ['eq', 'neq', 'in', 'not_in', 'contains', 'exists', 'not_exists'],
  strings: ['contains', 'exists', 'not_exists'],
  any: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'exists', 'not_exists'],
};

export interface RuleError {
  /** Where, as `rules[2].when.all[0].field`. */
  path: string;
  /** The id of the rule it is in, when it has one. */
  rule?: string;
  message: string;
}

/** One line: the path, the rule and what is wrong. */
export function describeError(e: RuleError): string {
  return `${e.path}${e.rule !== undefined ? ` (rule ${JSON.stringify(e.rule)})` : ''}: ${e.message}`;
}

export type Validated = { ok: true; document: RulesDocument } | { ok: false; errors: RuleError[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/** Checks a parsed document (JSON or YAML); the document as given when it passes. */
export function validateRules(input: unknown): Validated {
  const errors: RuleError[] = [];
  const fail = (path: string, message: string, rule?: string) =>
    errors.push({ path, message, ...(rule !== undefined ? { rule } : {}) });
  if (!isObject(input)) return { ok: false, errors: [{ path: 'document', message: 'must be an object' }] };
  for (const key of Object.keys(input))
    if (!['version', 'expected_version', 'rules'].includes(key)) fail(key, 'is not a member of a rules document');
  for (const key of ['version', 'expected_version'])
    if (input[key] !== undefined && !(Number.isInteger(input[key]) && (input[key] as number) >= 0))
      fail(key, 'must be an integer of at least 0');
  const rules = input.rules;
  if (!Array.isArray(rules)) {
    fail('rules', 'must be a list of rules');
    return { ok: false, errors };
  }
  if (rules.length > MAX_RULES) fail('rules', `must hold at most ${MAX_RULES} rules (has ${rules.length})`);
  const seen = new Map<string, number>();
  rules.slice(0, MAX_RULES).forEach((rule, i) => {
    const at = `rules[${i}]`;
    if (!isObject(rule)) return fail(at, 'must be an object');
    const id = typeof rule.id === 'string' ? rule.id : undefined;
    const err = (path: string, message: string) => fail(path, message, id);
    for (const key of Object.keys(rule))
      if (!['id', 'description', 'enabled', 'when', 'then'].includes(key))
        err(`${at}.${key}`, 'is not a member of a rule');
    if (id === undefined || !ID.test(id))
      err(`${at}.id`, 'is required: 1 to 64 letters, digits, `_`, `.` or `-`, starting with a letter or digit');
    else if (seen.has(id)) err(`${at}.id`, `must be unique: rules[${seen.get(id)}] has the same id`);
    else seen.set(id, i);
    if (
      rule.description !== undefined &&
      (typeof rule.description !== 'string' || rule.description.length > 1024 || !TEXT.test(rule.description))
    )
      err(
        `${at}.description`,
        'must be text of at most 1024 characters, without U+0000 (NUL) or an unpaired surrogate',
      );
    if (rule.enabled !== undefined && typeof rule.enabled !== 'boolean') err(`${at}.enabled`, 'must be true or false');
    if (rule.when === undefined) err(`${at}.when`, 'is required');
    else condition(rule.when, `${at}.when`, 1, err);
    if (rule.then === undefined) err(`${at}.then`, 'is required');
    else actions(rule.then, `${at}.then`, err);
  });
  return errors.length ? { ok: false, errors } : { ok: true, document: input as RulesDocument };
}

type Report = (path: string, message: string) => void;

function condition(c: unknown, at: string, depth: number, err: Report): void {
  if (depth > MAX_DEPTH) return err(at, `nests deeper than ${MAX_DEPTH} levels`);
  if (!isObject(c)) return err(at, 'must be an object: {all}, {any}, {not} or {field, op, value}');
  const keys = Object.keys(c);
  for (const group of ['all', 'any'] as const) {
    if (!(group in c)) continue;
    if (keys.length !== 1) return err(at, `holds \`${group}\` and must hold nothing else`);
    const list = c[group];
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CHILDREN)
      return err(`${at}.${group}`, `must be a list of 1 to ${MAX_CHILDREN} conditions`);
    list.forEach((child, i) => condition(child, `${at}.${group}[${i}]`, depth + 1, err));
    return;
  }
  if ('not' in c) {
    if (keys.length !== 1) return err(at, 'holds `not` and must hold nothing else');
    return condition(c.not, `${at}.not`, depth + 1, err);
  }
  comparison(c, at, err);
}

function comparison(c: Record<string, unknown>, at: string, err: Report): void {
  for (const key of Object.keys(c))
    if (!['field', 'op', 'value'].includes(key)) return err(`${at}.${key}`, 'is not a member of a comparison');
  if (typeof c.field !== 'string') return err(`${at}.field`, 'is required: the path of one of the evaluation’s fields');
  const kind = fieldKind(c.field);
  if (!kind)
    return err(
      `${at}.field`,
      `unknown field ${JSON.stringify(c.field)}; docs/rules.md lists the fields rules can name`,
    );
  if (typeof c.op !== 'string' || !(OPS as readonly string[]).includes(c.op))
    return err(`${at}.op`, `must be one of ${OPS.join(', ')}`);
  const op = c.op as Op;
  if (!OPS_OF[kind].includes(op))
    return err(`${at}.op`, `${op} does not apply to ${c.field} (${kind}); it takes ${OPS_OF[kind].join(', ')}`);
  const value = c.value;
  if (op === 'exists' || op === 'not_exists') {
    if (value !== undefined) err(`${at}.value`, `must be absent with ${op}`);
    return;
  }
  if (op === 'in' || op === 'not_in') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST_VALUES)
      return err(`${at}.value`, `must be a list of 1 to ${MAX_LIST_VALUES} values with ${op}`);
    value.forEach((v, i) => scalar(v, kind, `${at}.value[${i}]`, err));
    return;
  }
  if (value === undefined) return err(`${at}.value`, `is required with ${op}`);
  if (['gt', 'gte', 'lt', 'lte'].includes(op)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) err(`${at}.value`, `must be a number with ${op}`);
    return;
  }
  scalar(value, kind === 'strings' ? 'string' : kind, `${at}.value`, err);
}

function scalar(v: unknown, kind: FieldKind, at: string, err: Report): void {
  if (!isScalar(v)) return err(at, 'must be a number, text or true/false');
  if (typeof v === 'string' && (v.length > 256 || !TEXT.test(v)))
    return err(at, 'must be at most 256 characters, without U+0000 (NUL) or an unpaired surrogate');
  if (kind === 'any' || kind === 'strings') return;
  if (typeof v !== kind) err(at, `must be ${kind === 'string' ? 'text' : `a ${kind}`}: the field is one`);
}

function actions(t: unknown, at: string, err: Report): void {
  if (!isObject(t)) return err(at, 'must be an object of actions');
  for (const key of Object.keys(t))
    if (!['decision', 'add_to_lists', 'remove_from_lists', 'tags', 'open_case'].includes(key))
      err(`${at}.${key}`, 'is not an action: decision, add_to_lists, remove_from_lists, tags or open_case');
  if (t.open_case !== undefined && typeof t.open_case !== 'boolean') err(`${at}.open_case`, 'must be true or false');
  if (t.decision !== undefined && !DECISIONS.includes(t.decision as string))
    err(`${at}.decision`, 'must be Real or Fake');
  const items = (key: string, pattern: RegExp, what: string) => {
    const list = t[key];
    if (list === undefined) return;
    if (!Array.isArray(list) || list.length > MAX_ACTION_ITEMS)
      return err(`${at}.${key}`, `must be a list of at most ${MAX_ACTION_ITEMS} ${what}`);
    list.forEach((v, i) => {
      if (typeof v !== 'string' || !pattern.test(v)) err(`${at}.${key}[${i}]`, `must be ${describePattern(what)}`);
    });
  };
  items('add_to_lists', LIST_NAME, 'list names');
  items('remove_from_lists', LIST_NAME, 'list names');
  items('tags', TAG, 'tags');
}

function describePattern(what: string): string {
  return what === 'tags'
    ? 'a tag: 1 to 64 lower-case letters, digits, `_`, `.`, `:` or `-`, starting with a letter or digit'
    : 'a list name: text of 1 to 64 characters, without U+0000 (NUL) or an unpaired surrogate';
}
