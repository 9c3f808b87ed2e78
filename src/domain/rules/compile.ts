/**
 * A valid rules document compiled once per version into plain functions (no eval, no
 * expression language: a closed set of ops over a closed set of fields), and applied to one
 * evaluation. Applying reads nothing but the subject: no clock, no I/O.
 *
 * Order: rules are applied in the document's order; every enabled rule whose `when` holds
 * matches. The first matching rule with a `decision` decides; the list actions of every
 * matching rule apply in order (a later rule's removal undoes an earlier one's addition);
 * tags are gathered, each once; the first matching rule with `open_case` opens the case.
 */
import type { Decision, RuleActions, RuleCondition, RulesDocument } from '../../api-types';
import { listsAfter } from '../lists';
import { fieldKind, fieldReader, type RuleSubject } from './fields';

type Test = (subject: RuleSubject) => boolean;

export interface CompiledRule {
  id: string;
  description?: string;
  test: Test;
  then: RuleActions;
}

export interface CompiledRules {
  version: number;
  rules: CompiledRule[];
}

/** A project without rules. */
export const NO_RULES: CompiledRules = { version: 0, rules: [] };

/** One change to the account's lists a matching rule makes. */
export interface ListAction {
  action: 'add' | 'remove';
  list: string;
  /** The id of the rule that took it. */
  rule: string;
}

export interface RulesOutcome {
  version: number;
  /** The matching rules' ids, in the document's order. */
  matched: string[];
  /** The rule that set the decision, and the decision. */
  decidedBy?: string;
  decision?: Decision;
  listActions: ListAction[];
  tags: string[];
  /** The first matching rule with `open_case`, and the case's reason: its description, or its id. */
  openCase?: { rule: string; reason: string };
}

/** Compiles a document that validateRules passed (a document that did not is a programming error: it throws). */
export function compileRules(document: RulesDocument, version: number): CompiledRules {
  const reads = new Map<string, SharedRead>();
  return {
    version,
    rules: document.rules
      .filter((r) => r.enabled !== false)
      .map((r) => ({
        id: r.id,
        ...(r.description ? { description: r.description } : {}),
        test: compileCondition(r.when, reads),
        then: r.then,
      })),
  };
}

/**
 * One field's reader, shared by every comparison of a document that names the field: what it
 * read of a subject is kept with the subject (weakly: nothing of an evaluation outlives it), and
 * a list is made a set once for `contains`. A document naming one field thousands of times reads
 * it, and walks the linked accounts for it, once per evaluation, and each `contains` is a lookup
 * rather than a scan of the list.
 */
interface SharedRead {
  value(subject: RuleSubject): unknown;
  /** The value as a set when it is a list. */
  set(subject: RuleSubject): ReadonlySet<unknown> | undefined;
}

function sharedRead(reads: Map<string, SharedRead>, field: string): SharedRead {
  const known = reads.get(field);
  if (known) return known;
  const read = fieldReader(field);
  const seen = new WeakMap<RuleSubject, { value: unknown; set?: Set<unknown> }>();
  const entry = (s: RuleSubject) => {
    let e = seen.get(s);
    if (!e) seen.set(s, (e = { value: read(s) }));
    return e;
  };
  const shared: SharedRead = {
    value: (s) => entry(s).value,
    set(s) {
      const e = entry(s);
      if (!Array.isArray(e.value)) return undefined;
      return (e.set ??= new Set(e.value));
    },
  };
  reads.set(field, shared);
  return shared;
}

/** A condition that validateRules passed: exactly one of all, any, not, or a comparison. */
function compileCondition(c: RuleCondition, reads: Map<string, SharedRead>): Test {
  if (c.all) {
    const tests = c.all.map((child) => compileCondition(child, reads));
    return (s) => tests.every((t) => t(s));
  }
  if (c.any) {
    const tests = c.any.map((child) => compileCondition(child, reads));
    return (s) => tests.some((t) => t(s));
  }
  if (c.not) {
    const test = compileCondition(c.not, reads);
    return (s) => !test(s);
  }
  return compileComparison(c, reads);
}

const isNumber = (v: unknown): v is number => typeof v === 'number';

function compileComparison(c: RuleCondition, reads: Map<string, SharedRead>): Test {
  if (c.field === undefined || !fieldKind(c.field) || c.op === undefined)
    throw new Error(`rules: not a comparison: ${JSON.stringify(c)} (validate before compiling)`);
  const shared = sharedRead(reads, c.field);
  const read = shared.value;
  const value = c.value;
  const has = (s: RuleSubject) => read(s) !== undefined;
  // Every comparison but not_exists is false on a field the evaluation does not have.
  const on =
    (f: (v: unknown) => boolean): Test =>
    (s) => {
      const v = read(s);
      return v !== undefined && f(v);
    };
  const number =
    (f: (a: number, b: number) => boolean): Test =>
    (s) => {
      const v = read(s);
      return isNumber(v) && isNumber(value) && f(v, value);
    };
  switch (c.op) {
    case 'exists':
      return has;
    case 'not_exists':
      return (s) => !has(s);
    case 'eq':
      return on((v) => v === value);
    case 'neq':
      return on((v) => v !== value);
    case 'gt':
      return number((a, b) => a > b);
    case 'gte':
      return number((a, b) => a >= b);
    case 'lt':
      return number((a, b) => a < b);
    case 'lte':
      return number((a, b) => a <= b);
    case 'in': {
      const set = new Set(Array.isArray(value) ? value : [value]);
      return on((v) => set.has(v as never));
    }
    case 'not_in': {
      const set = new Set(Array.isArray(value) ? value : [value]);
      return on((v) => !set.has(v as never));
    }
    case 'contains':
      return (s) => {
        const v = read(s);
        if (Array.isArray(v)) return shared.set(s)!.has(value);
        return typeof v === 'string' && typeof value === 'string' && v.includes(value);
      };
  }
}

/** The rules applied to one evaluation. */
export function applyRules(rules: CompiledRules, subject: RuleSubject): RulesOutcome {
  const outcome: RulesOutcome = { version: rules.version, matched: [], listActions: [], tags: [] };
  const tags = new Set<string>();
  for (const rule of rules.rules) {
    if (!rule.test(subject)) continue;
    outcome.matched.push(rule.id);
    const t = rule.then;
    if (t.decision && outcome.decision === undefined) {
      outcome.decision = t.decision;
      outcome.decidedBy = rule.id;
    }
    for (const list of t.add_to_lists ?? []) outcome.listActions.push({ action: 'add', list, rule: rule.id });
    for (const list of t.remove_from_lists ?? []) outcome.listActions.push({ action: 'remove', list, rule: rule.id });
    for (const tag of t.tags ?? []) tags.add(tag);
    if (t.open_case && !outcome.openCase)
      outcome.openCase = { rule: rule.id, reason: rule.description ?? `Rule ${rule.id} matched` };
  }
  outcome.tags = [...tags];
  return outcome;
}

/** The account's lists after the rules' list actions, in order (an added standard list replaces the other two, as a request's does). */
export function listsAfterActions(lists: readonly string[], actions: readonly ListAction[]): string[] {
  let out = [...lists];
  for (const a of actions) out = a.action === 'add' ? listsAfter(out, [a.list]) : out.filter((l) => l !== a.list);
  return out.sort();
}
