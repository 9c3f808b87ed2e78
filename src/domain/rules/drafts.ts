/**
 * Drafts of a rules document and their approval (docs/rules.md, "Drafts and four-eyes"): the
 * diff an approver reads, a draft's status as it stands against the current version, and the
 * four-eyes rule. Pure: the use case gathers the documents, the actors and the versions.
 */
import type { RuleChange, RuleDefinition, RuleDraftStatus } from '../../api-types';

/** A rule as a comparable text: members in a fixed order, `enabled` as evaluated (absent is true). */
function canonical(rule: RuleDefinition): string {
  const sorted = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
      );
    return value;
  };
  return JSON.stringify(sorted({ ...rule, enabled: rule.enabled ?? true }));
}

/**
 * The changes from `before` to `after`, rule by rule by id: removed rules in `before`'s order,
 * then `after`'s rules in its order, each added, changed (its definition differs) or moved (the
 * same definition, at another place among the rules both hold: order decides which decision
 * wins). Rules alike at the same place are not listed.
 */
export function diffRules(before: readonly RuleDefinition[], after: readonly RuleDefinition[]): RuleChange[] {
  const old = new Map(before.map((r) => [r.id, r]));
  const kept = new Set(after.map((r) => r.id));
  const common = (rules: readonly RuleDefinition[], other: Map<string, unknown> | Set<string>) =>
    rules.filter((r) => other.has(r.id)).map((r) => r.id);
  const placeBefore = new Map(common(before, kept).map((id, i) => [id, i]));
  const placeAfter = new Map(common(after, old).map((id, i) => [id, i]));
  const changes: RuleChange[] = before
    .filter((r) => !kept.has(r.id))
    .map((r) => ({ rule_id: r.id, change: 'removed', before: r, after: null }));
  for (const rule of after) {
    const was = old.get(rule.id);
    if (!was) changes.push({ rule_id: rule.id, change: 'added', before: null, after: rule });
    else if (canonical(was) !== canonical(rule))
      changes.push({ rule_id: rule.id, change: 'changed', before: was, after: rule });
    else if (placeBefore.get(rule.id) !== placeAfter.get(rule.id))
      changes.push({ rule_id: rule.id, change: 'moved', before: was, after: rule });
  }
  return changes;
}

/** What a draft stored as `stored` is now: a pending draft whose base the rules moved past is superseded. */
export function draftStatus(
  stored: Exclude<RuleDraftStatus, 'superseded'>,
  baseVersion: number,
  currentVersion: number,
): RuleDraftStatus {
  return stored === 'pending' && currentVersion !== baseVersion ? 'superseded' : stored;
}

/**
 * The four-eyes rule: the draft's author may not also approve it. Actors are compared as the
 * audit names them (`operator:<id>`, `api_key:<hash>`), so the same person under another role
 * or session is still the author. Undefined when `approver` may publish.
 */
export function fourEyesRefusal(author: string, approver: string): string | undefined {
  return author === approver
    ? `Four-eyes rule: ${author} proposed this draft and cannot also publish it; another admin must approve it`
    : undefined;
}
