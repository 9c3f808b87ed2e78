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

/**
 * Work in flight keyed by integers handed out in order (the SQLite thread's numbered calls): a
 * ring of slots, an entry at its number modulo the ring's length (a power of two), so that an
 * entry is found by arithmetic rather than by a key string (about 3 % of the request thread's
 * time under authenticate's load went to making and hashing `k:12`). Entries in flight at once
 * are few and their numbers close, so slots rarely collide. When one is taken by another number,
 * the ring doubles if it is half full, and otherwise the entry goes to a `makeInFlight` beside it
 * (a call answered late while later ones come and go, or numbers far apart). The ring is replaced
 * only when it doubles, and holds nothing once its entries are deleted.
 */
export function makeNumberedInFlight<V>(): InFlight<number, V> {
  // An empty slot's number is NaN (equal to no key).
  let keys: number[] = new Array<number>(16).fill(NaN);
  let entries: (V | undefined)[] = new Array<V | undefined>(16).fill(undefined);
  let inRing = 0;
  const aside = makeInFlight<number, V>();
  const slot = (key: number) => key & (keys.length - 1);
  const grow = () => {
    const [oldKeys, oldEntries] = [keys, entries];
    keys = new Array<number>(oldKeys.length * 2).fill(NaN);
    entries = new Array<V | undefined>(oldKeys.length * 2).fill(undefined);
    // (Two numbers that shared a slot may share one again: the later goes aside.)
    oldKeys.forEach((key, i) => {
      if (Number.isNaN(key)) return;
      if (Number.isNaN(keys[slot(key)])) {
        keys[slot(key)] = key;
        entries[slot(key)] = oldEntries[i];
      } else {
        inRing--;
        aside.set(key, oldEntries[i]!);
      }
    });
  };
  return {
    get(key) {
      const s = slot(key);
      if (keys[s] === key) return entries[s];
      return aside.size > 0 ? aside.get(key) : undefined;
    },
    set(key, value) {
      if (!Number.isSafeInteger(key)) throw new Error(`makeNumberedInFlight: ${key} is not an integer`);
      for (;;) {
        const s = slot(key);
        if (keys[s] === key) {
          entries[s] = value;
          return;
        }
        if (aside.size > 0 && aside.get(key) !== undefined) {
          aside.set(key, value);
          return;
        }
        if (Number.isNaN(keys[s])) {
          keys[s] = key;
          entries[s] = value;
          inRing++;
          return;
        }
        if (inRing < keys.length / 2) {
          aside.set(key, value);
          return;
        }
        grow();
      }
    },
    delete(key) {
      const s = slot(key);
      if (keys[s] !== key) {
        if (aside.size > 0) aside.delete(key);
        return;
      }
      keys[s] = NaN;
      entries[s] = undefined;
      inRing--;
    },
    get size() {
      return inRing + aside.size;
    },
    values: () => [...(entries.filter((_, i) => !Number.isNaN(keys[i])) as V[]), ...aside.values()],
    clear() {
      keys.fill(NaN);
      entries.fill(undefined);
      inRing = 0;
      aside.clear();
    },
  };
}
