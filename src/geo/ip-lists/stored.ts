/**
 * The lists from a store of texts (store.ts; the database's table on PostgreSQL), reloaded when
 * they change: every node polls the store's versions (one small query) at the watch interval and
 * reads again only the texts whose version moved, so a list edited on one node (or by
 * `trustgate iplist` anywhere) is in effect on every node within one interval.
 */
import { loadShipped, makeLoadedLists, type IpLists, type IpListsOptions } from './open';
import { IP_LIST_NAMES, SHIPPED_IP_LISTS_DIR } from './names';
import { listKey, STORED_LIST_SOURCES, type IpListTexts } from './store';

export async function openStoredIpLists(texts: IpListTexts, options: Omit<IpListsOptions, 'dir'>): Promise<IpLists> {
  const report = (where: string, error?: Error) => options.onReload?.(where, error);
  const loaded = makeLoadedLists(report);
  loadShipped(loaded, options.shippedDir ?? SHIPPED_IP_LISTS_DIR, report);
  /** The version of each text as loaded; absent: none loaded. */
  const current = new Map<string, string>();

  /** Reads again each text whose version differs from the one loaded; `initial`: nothing is reported as a reload. */
  async function refresh(initial: boolean): Promise<void> {
    const versions = await texts.versions();
    for (const source of STORED_LIST_SOURCES) {
      for (const list of IP_LIST_NAMES) {
        const key = listKey(list, source);
        if (versions.get(key) === current.get(key)) continue;
        const stored = await texts.read(list, source);
        const where = texts.where(list, source);
        const clean = loaded.set(list, source, stored?.text, where);
        if (stored) current.set(key, stored.version);
        else current.delete(key);
        if (clean && !initial) report(where);
      }
    }
  }

  await refresh(true);
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return; // a slow database: one poll at a time
    polling = true;
    refresh(false)
      .catch((err: Error) => report('database', err))
      .finally(() => (polling = false));
  }, options.watchIntervalMs ?? 5000);
  timer.unref();

  return {
    lookup: loaded.lookup,
    status: loaded.status,
    close: () => clearInterval(timer),
  };
}
