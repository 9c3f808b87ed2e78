/**
 * Rows as the SQLite thread answers them: the columns' names, then every row's values one after
 * the other in one array. Objects cross between threads as structured clones, made property by
 * property on both sides, and so do arrays with holes (better-sqlite3's rows are such arrays);
 * one array of plain values built by appending has none, and is copied whole. The request thread
 * makes them objects again (`objectsOf`) before anything else sees them.
 */
export interface PackedRows {
  columns: string[];
  values: unknown[];
}

/** Rows packed: their columns' names and their values one after the other. */
export function packRows(columns: string[], rows: readonly (readonly unknown[])[]): PackedRows {
  const values: unknown[] = [];
  for (const row of rows) for (let i = 0; i < columns.length; i++) values.push(row[i]);
  return { columns, values };
}

/**
 * Packed rows as objects, every column an own key. A row is built key by key: an object literal
 * compiled per list of columns builds one several times faster, but what that saves an
 * authenticate is within bench:authenticate's noise, so the plain loop stays. A `__proto__`
 * column (which an assignment would take for the prototype) is made an own key by
 * Object.fromEntries instead.
 */
export function objectsOf({ columns, values }: PackedRows): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const width = columns.length;
  if (values.length === 0 || width === 0) return out;
  if (columns.includes('__proto__')) {
    for (let at = 0; at < values.length; at += width)
      out.push(Object.fromEntries(columns.map((c, i) => [c, values[at + i]])));
    return out;
  }
  for (let at = 0; at < values.length; at += width) {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < width; i++) row[columns[i]!] = values[at + i];
    out.push(row);
  }
  return out;
}
