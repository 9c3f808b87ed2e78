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
 * The functions that make a packed row an object, one per list of columns: an object literal
 * compiled from the names (written as JSON strings). Setting a row's keys one by one from the
 * names makes megamorphic keyed stores and a chain of shapes per row, several times slower on the
 * hot path's reads than a literal, which V8 builds from one boilerplate. The lists are the hot
 * path's statements' (a few dozen); past MAX_ROW_MAKERS the rest are made without one. A
 * `__proto__` column (which a literal would take for the prototype) is made without one too.
 */
const MAX_ROW_MAKERS = 256;
type RowMaker = (values: readonly unknown[], at: number) => Record<string, unknown>;
const rowMakers = new Map<string, RowMaker>();
function rowMakerOf(columns: readonly string[]): RowMaker {
  const key = columns.join('\u0000');
  let make = rowMakers.get(key);
  if (make === undefined) {
    if (columns.includes('__proto__') || rowMakers.size >= MAX_ROW_MAKERS)
      // Every column an own key (`__proto__` too), the last of a name twice as in a literal.
      return (values, at) => Object.fromEntries(columns.map((c, i) => [c, values[at + i]]));
    const fields = columns.map((n, i) => `${JSON.stringify(n)}: v[at + ${i}]`).join(', ');
    make = new Function('v', 'at', `return { ${fields} };`) as RowMaker;
    rowMakers.set(key, make);
  }
  return make;
}

/** Packed rows as objects, every column an own key. */
export function objectsOf({ columns, values }: PackedRows): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (values.length === 0 || columns.length === 0) return out;
  const make = rowMakerOf(columns);
  for (let at = 0; at < values.length; at += columns.length) out.push(make(values, at));
  return out;
}
