/**
 * SQL text shared by the repositories.
 */

/**
 * A LIMIT clause with its count written into the statement. SQLite plans a bound `LIMIT ?` less
 * well inside a subquery or a common table expression (the session-and-history read and the
 * identifier searches run several times slower with it). The count is always the service's own
 * integer, never input, and each count is one more statement text (prepared once).
 */
export function limit(count: number): string {
  if (!Number.isSafeInteger(count) || count < 0) throw new Error(`LIMIT takes a non-negative integer, got ${count}`);
  return `LIMIT ${count}`;
}

/**
 * A statement's text kept by a key that names everything it is made of (a compound statement's
 * parts, each of whose texts its name fixes): the same string at every call, so that the
 * prepared-statement cache finds it by the hash V8 keeps in a string once computed. A text built
 * afresh is joined and hashed afresh: on the SQLite thread, hashing the compound reads' texts (a
 * few KB each) at every call is work for nothing. At most MAX_TEXTS are kept; past that, texts are built.
 */
const MAX_TEXTS = 512;
const texts = new Map<string, string>();
export function textOf(key: string, build: () => string): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = build();
    if (texts.size < MAX_TEXTS) texts.set(key, text);
  }
  return text;
}

/** Whether a write failed on a unique key (PostgreSQL's 23505, SQLite's constraint error). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT' || /UNIQUE constraint failed/.test(e?.message ?? '');
}
