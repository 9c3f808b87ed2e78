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
