/**
 * API key → project and the key's scope, kept in this process's memory for a few seconds (API_KEY_CACHE_TTL_MS), so
 * that a request with a known key makes no database query.
 *
 * - Keyed by the key's SHA-256 (hashApiKey): keys are never held in the clear. Finding an entry
 *   compares hashes as strings, not in constant time; what that could reveal is a stored key's
 *   hash, which is useless without a preimage of SHA-256 (the database's index lookup is no
 *   different).
 * - Only keys that were found are kept. Unknown keys are not: each would be an entry an attacker
 *   can make by sending random keys, and a full cache would push the real keys out. An unknown
 *   key costs its one indexed lookup every time, as it did before the cache.
 * - Bounded (maxEntries, by default far above the number of active keys of any installation):
 *   when full, expired entries go first, then the oldest.
 * - A change to a project's keys, settings or rules drops the project's entries: made by this
 *   process, at once after its commit; made by another (`trustgate project rotate-key`, another
 *   server), on PostgreSQL when its notification arrives (composition/listener.ts), which also
 *   empties the cache whenever the listener (re)connects, since notifications sent meanwhile
 *   are lost. A lookup that was under way when entries were dropped is not kept. The TTL is the
 *   fallback: on SQLite (no channel between processes) and while the listener is not connected,
 *   another process's change shows here after at most the TTL.
 */
import type { Clock } from '../clock';
import type { ApiKeyScope, Project } from '../storage/repositories/projects';

/** What a key stands for: its project (with its rules) and what it may do (read only or everything). */
export interface KeyHolder {
  project: Project;
  scope: ApiKeyScope;
}

export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

export interface ApiKeyCache {
  get(keyHash: string): KeyHolder | undefined;
  /** Taken before a lookup and given to `set`: a lookup that overlapped `forgetProject` is not kept. */
  generation(): number;
  set(keyHash: string, holder: KeyHolder, generation: number): void;
  forgetProject(projectId: string): void;
  /** Drops every entry (a lookup under way is not kept either). */
  forgetAll(): void;
}

export function makeApiKeyCache(options: { ttlMs: number; clock: Clock; maxEntries?: number }): ApiKeyCache {
  const { ttlMs, clock } = options;
  const maxEntries = options.maxEntries ?? API_KEY_CACHE_MAX_ENTRIES;
  const entries = new Map<string, { holder: KeyHolder; expiresAt: number }>();
  let generation = 0;

  function makeRoom(now: number): void {
    for (const [hash, entry] of entries) if (entry.expiresAt <= now) entries.delete(hash);
    for (const hash of entries.keys()) {
      if (entries.size < maxEntries) break;
      entries.delete(hash);
    }
  }

  return {
    get(keyHash) {
      const entry = entries.get(keyHash);
      if (!entry) return undefined;
      if (entry.expiresAt > clock.now().getTime()) return entry.holder;
      entries.delete(keyHash);
      return undefined;
    },
    generation: () => generation,
    set(keyHash, holder, since) {
      if (ttlMs <= 0 || since !== generation) return;
      const now = clock.now().getTime();
      entries.delete(keyHash);
      if (entries.size >= maxEntries) makeRoom(now);
      entries.set(keyHash, { holder, expiresAt: now + ttlMs });
    },
    forgetProject(projectId) {
      generation++;
      for (const [hash, entry] of entries) if (entry.holder.project.id === projectId) entries.delete(hash);
    },
    forgetAll() {
      generation++;
      entries.clear();
    },
  };
}
