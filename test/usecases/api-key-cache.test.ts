/** The API key → project cache on its own: expiry by the injected clock, its bound, and invalidation. */
import { fixedClock } from '../../src/clock';
import type { Project } from '../../src/storage/repositories/projects';
import { makeApiKeyCache, type KeyHolder } from '../../src/usecases/api-key-cache';

const project = (id: string): KeyHolder => ({ project: projectRecord(id), scope: 'full' });
const projectRecord = (id: string): Project => ({
  id,
  name: id,
  decisionThreshold: 0.8,
  linkScoreFloor: 0.1,
  groupsEnabled: false,
  webhookUrl: null,
  webhookSecretEncrypted: 'v1.x.y.z',
  webhookEvents: [],
  retentionSessionsDays: null,
  retentionVerificationMediaDays: null,
  retentionDeliveredWebhooksDays: null,
  demo: false,
  test: false,
  createdAt: new Date('2026-11-01T00:00:00Z'),
});

test('when an entry is older than the TTL, then it is gone; until then it is returned', () => {
  const clock = fixedClock('2026-11-20T12:00:00Z');
  const cache = makeApiKeyCache({ ttlMs: 5_000, clock });
  cache.set('h1', project('p1'), cache.generation());
  clock.advance(4_999);
  expect(cache.get('h1')?.project.id).toBe('p1');
  clock.advance(1);
  expect(cache.get('h1')).toBeUndefined();
});

test('when the TTL is 0, then nothing is kept', () => {
  const cache = makeApiKeyCache({ ttlMs: 0, clock: fixedClock('2026-11-20T12:00:00Z') });
  cache.set('h1', project('p1'), cache.generation());
  expect(cache.get('h1')).toBeUndefined();
});

test('when the cache is full, then expired entries go first, then the oldest', () => {
  const clock = fixedClock('2026-11-20T12:00:00Z');
  const cache = makeApiKeyCache({ ttlMs: 5_000, clock, maxEntries: 3 });
  cache.set('old', project('p-old'), cache.generation());
  clock.advance(3_000);
  cache.set('a', project('pa'), cache.generation());
  cache.set('b', project('pb'), cache.generation());
  clock.advance(2_000); // 'old' has expired
  cache.set('c', project('pc'), cache.generation());
  expect(['a', 'b', 'c'].map((h) => cache.get(h)?.project.id)).toEqual(['pa', 'pb', 'pc']);
  cache.set('d', project('pd'), cache.generation()); // none expired: 'a', the oldest, goes
  expect(['a', 'b', 'c', 'd'].map((h) => cache.get(h)?.project.id)).toEqual([undefined, 'pb', 'pc', 'pd']);
});

test('when a project is forgotten, then its entries go, and a lookup that began before is not kept', () => {
  const cache = makeApiKeyCache({ ttlMs: 5_000, clock: fixedClock('2026-11-20T12:00:00Z') });
  cache.set('k1', project('p1'), cache.generation());
  cache.set('k2', project('p2'), cache.generation());
  const during = cache.generation(); // a lookup of k3 starts
  cache.forgetProject('p1');
  cache.set('k3', project('p1'), during); // and ends after the rotation
  expect([cache.get('k1'), cache.get('k3')]).toEqual([undefined, undefined]);
  expect(cache.get('k2')?.project.id).toBe('p2');
});

test('when every project is forgotten, then every entry goes, and a lookup that began before is not kept', () => {
  const cache = makeApiKeyCache({ ttlMs: 5_000, clock: fixedClock('2026-11-20T12:00:00Z') });
  cache.set('k1', project('p1'), cache.generation());
  cache.set('k2', project('p2'), cache.generation());
  const during = cache.generation();
  cache.forgetAll();
  cache.set('k3', project('p3'), during);
  expect([cache.get('k1'), cache.get('k2'), cache.get('k3')]).toEqual([undefined, undefined, undefined]);
  cache.set('k3', project('p3'), cache.generation());
  expect(cache.get('k3')?.project.id).toBe('p3');
});
