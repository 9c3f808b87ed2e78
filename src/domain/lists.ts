/** The standard lists, and an account's lists once a request's are applied. Pure. */

/** In every project, mutually exclusive, never deleted: allow (forces Real), block (forces Fake), main_account. */
export const STANDARD_LISTS: readonly string[] = ['allow', 'block', 'main_account'];

/** The lists of an account on `current` after `added` are applied: a standard list replaces the other two. Sorted. */
export function listsAfter(current: readonly string[], added: readonly string[]): string[] {
  const out = new Set(current);
  for (const name of added) {
    if (STANDARD_LISTS.includes(name)) for (const other of STANDARD_LISTS) out.delete(other);
    out.add(name);
  }
  return [...out].sort();
}
