/**
 * Migration 0013 backfills the link search's aggregates from what is stored: on a database
 * without them (0013 rolled back, and 0018 after it), sessions linked as before; after 0013 (in
 * the meaning of its time: the stored id as `device`) and 0018 (which swaps that), identifier_accounts
 * holds what a rebuild from the sessions and links holds, and every link carries its session's address.
 */
import { randomUUID } from 'node:crypto';
import type { EvaluatedSession } from '../../src/api-types';
import { migrationSource } from '../../src/storage/migrations';
import { makeSessionRepository } from '../../src/storage/repositories/sessions';
import { rebuildIdentifierAccounts } from '../../src/storage/repositories/identifier-accounts';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';
import { example } from '../helpers/spec';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await makeTestDb();
});
afterAll(() => testDb.destroy());

test('when 0013 runs on stored sessions and links, then the identifiers and addresses are backfilled as the writes would keep them', async () => {
  const db = testDb.db;
  // 0035's and 0042's triggers read the links' copied address and block, which 0013 adds: rolled
  // back first, run again last.
  await db.migrate.down({ migrationSource, name: '0042_network_accounts' });
  await db.migrate.down({ migrationSource, name: '0035_account_uniques' });
  await db.migrate.down({ migrationSource, name: '0018_browser_device_links' });
  await db.migrate.down({ migrationSource, name: '0013_link_aggregates' });
  expect(await db.schema.hasTable('identifier_accounts')).toBe(false);

  const projectId = randomUUID();
  const T = new Date('2026-11-20T12:00:00.000Z');
  await insertProject(db, projectId, 'backfill', T);
  const template = (await example<{ session: EvaluatedSession }>('AuthenticateResponseReal')).session;
  const sessions = makeSessionRepository(db);
  const links: [number, string][] = [];
  for (let i = 0; i < 12; i++) {
    const id = randomUUID();
    const ip = `198.51.100.${i % 4}`;
    const startTime = new Date(T.getTime() + i * 60_000);
    await sessions.insert({
      id,
      projectId,
      ipAddress: ip,
      startTime,
      updatedAt: startTime,
      facts: {
        ...structuredClone(template),
        device_id: `dev-${i % 3}`,
        network: { ...template.network, ip_address: ip },
      },
      sdk: { source: 'web', device_id: `dev-${i % 3}`, ...(i % 2 ? { browser_fingerprint: `fp-${i % 5}` } : {}) },
    });
    // Linked as before 0013: no address on the link.
    for (const account of i % 4 === 3 ? [] : [`acct-${i % 5}`, ...(i === 0 ? ['acct-9'] : [])]) {
      await db('session_accounts').insert({
        session_id: id,
        project_id: projectId,
        account_id: account,
        created_at: startTime.getTime() + 1000,
        session_start: startTime.getTime(),
      });
      links.push([i, account]);
    }
  }

  await db.migrate.up({ migrationSource, name: '0013_link_aggregates' });
  // 0013 kept the stored id as a device, the fingerprint as a browser.
  const deviceRows = await db('identifier_accounts').where({ project_id: projectId, kind: 'device' }).pluck('value');
  expect(new Set(deviceRows)).toEqual(new Set(['dev-0', 'dev-1', 'dev-2']));
  await db.migrate.up({ migrationSource, name: '0018_browser_device_links' });

  const rows = async () =>
    db('identifier_accounts')
      .where({ project_id: projectId })
      .orderBy(['kind', 'value', 'account_id'])
      .select('kind', 'value', 'account_id', 'created_at');
  const backfilled = await rows();
  expect(backfilled.length).toBeGreaterThan(5);
  await rebuildIdentifierAccounts(db, projectId);
  expect(await rows()).toEqual(backfilled);
  expect(backfilled.filter((r) => r.kind === 'browser' && r.value === 'dev-0').map((r) => r.account_id)).toEqual([
    'acct-0',
    'acct-1',
    'acct-4',
    'acct-9',
  ]);

  const joined = await db('session_accounts as sa')
    .join('sessions as s', 's.id', 'sa.session_id')
    .where('sa.project_id', projectId)
    .select('sa.ip_address as copied', 's.ip_address as ip', 'sa.ip_block as copiedBlock', 's.ip_block as block');
  expect(joined).toHaveLength(links.length);
  for (const r of joined) expect([r.copied, r.copiedBlock]).toEqual([r.ip, r.block]);
  await db.migrate.up({ migrationSource, name: '0035_account_uniques' });
  await db.migrate.up({ migrationSource, name: '0042_network_accounts' });
});
