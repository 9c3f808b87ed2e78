/** The settings added for several processes: their defaults and what they refuse. */
import os from 'node:os';
import { ConfigError, DEFAULT_API_KEY_CACHE_TTL_MS, loadConfig } from '../src/config';

test('when nothing is set, then one process, limits counted in the database, keys kept for a few seconds', () => {
  expect(loadConfig({})).toMatchObject({ webConcurrency: 1, rateLimitStore: 'database', apiKeyCacheTtlMs: DEFAULT_API_KEY_CACHE_TTL_MS });
  expect(DEFAULT_API_KEY_CACHE_TTL_MS).toBe(5_000);
});

test('when WEB_CONCURRENCY is auto or a number, then that many processes; anything else is refused', () => {
  expect(loadConfig({ WEB_CONCURRENCY: 'auto' }).webConcurrency).toBe(os.availableParallelism());
  expect(loadConfig({ WEB_CONCURRENCY: '3' }).webConcurrency).toBe(3);
  for (const bad of ['0', '-1', '1.5', 'all']) expect(() => loadConfig({ WEB_CONCURRENCY: bad })).toThrow(ConfigError);
});

test('when RATE_LIMIT_STORE or API_KEY_CACHE_TTL_MS is out of range, then start-up refuses it', () => {
  expect(loadConfig({ RATE_LIMIT_STORE: 'memory', API_KEY_CACHE_TTL_MS: '0' })).toMatchObject({ rateLimitStore: 'memory', apiKeyCacheTtlMs: 0 });
  expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(ConfigError);
  expect(() => loadConfig({ API_KEY_CACHE_TTL_MS: '-1' })).toThrow(ConfigError);
});
