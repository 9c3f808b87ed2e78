/**
 * Work in flight, by key, in a registry that lives as long as the process: the calls waiting
 * for the SQLite thread's answers, the authenticates queued per account, the statements of a
 * traced request. Every request adds entries and removes them again.
 *
 * Not a `Map`, on purpose. When adds and deletes have filled a Map's table, V8 replaces the
 * table, and (as we understand it) the table it replaces keeps its entries and a link to its
 * successor, for iterators still walking it. Once one table of a long-lived Map has reached the old generation, every
 * young collection reaches each later table through those links, and through their entries
 * everything the requests they held had reached (their promises, their facts, their answers):
 * all of it survives, and the next young collection promotes it to the old generation, where only
 * a full collection frees it. Under authenticate's load that was 1.25 of the 1.4 MB each young
 * collection promoted (docs/pipeline.md, "Long-lived maps of short-lived entries"; `npm run
 * bench:in-flight` shows it on its own). An object's property dictionary keeps no such links.
 */
export interface InFlight<K extends string | number, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  readonly size: number;
  values(): V[];
  clear(): void;
}

export function makeInFlight<K extends string | number, V>(): InFlight<K, V> {
  // Each key is stored as a name that is never an array index ("k:12", not "12"): an object keeps
  // index-like keys in a separate array of elements, which grows by copying, and a copy left in
  // the old generation would keep the entries it held; names live in the object's dictionary.
  // No prototype: a name is never found on Object.prototype.
  let entries = Object.create(null) as Record<string, V>;
  let size = 0;
  const name = (key: K) => `k:${key}`;
  return {
    get: (key) => entries[name(key)],
    set(key, value) {
      const k = name(key);
      if (!(k in entries)) size++;
      entries[k] = value;
    },
    delete(key) {
      const k = name(key);
      if (!(k in entries)) return;
      size--;
      delete entries[k];
    },
    get size() {
      return size;
    },
    values: () => Object.values(entries),
    clear() {
      entries = Object.create(null) as Record<string, V>;
      size = 0;
    },
  };
}
