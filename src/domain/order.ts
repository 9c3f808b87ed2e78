/**
 * The order of identifiers and names wherever an answer depends on it (ties between equally
 * strong links, which of them the response keeps, a session's accounts): by UTF-16 code units,
 * as SQLite's BINARY collation orders text, the same on every machine. `localeCompare` follows
 * the process's locale (LANG): English puts `a` before `B`, Swedish puts `ä` after `z`, Danish
 * `aa` after `z`, so two servers of one deployment could order the same ties differently.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
