/** The standard lists, and an account's lists once a request's are applied. Pure. */

/** In every project, mutually exclusive, never deleted: allow (forces Real), block (forces Fake), main_account. */
export const STANDARD_LISTS: readonly string[] = ['allow', 'block', 'main_account'];

/** What each standard list does, as the List API describes it. */
export const STANDARD_LIST_DESCRIPTIONS: Readonly<Record<string, string>> = {
  allow: 'Accounts on this list are decided Real, whatever their scores.',
  block: 'Accounts on this list are decided Fake, whatever their scores.',
  main_account: 'Accounts on this list have a multiple_accounts score of 0.',
};

/** The lists of an account on `current` after `added` are applied: a standard list replaces the other two. Sorted. */
export function listsAfter(current: readonly string[], added: readonly string[]): string[] {
  const out = new Set(current);
  for (const name of added) {
    if (STANDARD_LISTS.includes(name)) for (const other of STANDARD_LISTS) out.delete(other);
    out.add(name);
  }
  return [...out].sort();
}

/**
 * One step of changing an account's lists, in order: create the custom lists named (those that
 * do not exist yet), add the account to a list, or take it off lists. Storage runs each as one
 * statement; a step that finds the membership as it would leave it changes nothing.
 */
export type MembershipStep =
  { op: 'create'; lists: readonly string[] } | { op: 'add'; list: string } | { op: 'remove'; lists: readonly string[] };

/** The steps that put an account on `names`, in order: a standard list first takes it off the other two. */
export function stepsToAdd(names: readonly string[]): MembershipStep[] {
  const custom = names.filter((n) => !STANDARD_LISTS.includes(n));
  const steps: MembershipStep[] = custom.length > 0 ? [{ op: 'create', lists: custom }] : [];
  for (const list of names) {
    if (STANDARD_LISTS.includes(list)) steps.push({ op: 'remove', lists: STANDARD_LISTS.filter((s) => s !== list) });
    steps.push({ op: 'add', list });
  }
  return steps;
}

/** The step that takes an account off `names` (none for no list). */
export function stepsToRemove(names: readonly string[]): MembershipStep[] {
  return names.length === 0 ? [] : [{ op: 'remove', lists: names }];
}
