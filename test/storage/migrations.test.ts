/**
 * Migrations that move existing data, on the engine the suite runs on: the database is
 * migrated up to the one before, given rows as an earlier release left them, then migrated
 * to the latest.
 */
import type { Knex } from 'knex';
import { migrate } from '../../src/storage/db';
import { migrationSource } from '../../src/storage/migrations';
import { makeHistoryRepository } from '../../src/storage/repositories/history';
import { evaluatedAccountStatements, makeAccountRepository } from '../../src/storage/repositories/accounts';
import { runStatement } from '../../src/storage/statements';
import { rebuildIdentifierAccounts } from '../../src/storage/repositories/identifier-accounts';
import { makeListRepository } from '../../src/storage/repositories/lists';
import { makeSessionRepository, sessionRows, type StoredSession } from '../../src/storage/repositories/sessions';
import { deviceOf } from '../../src/domain/evaluation/uniques';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';
import type { EvaluatedSession } from '../../src/api-types';
import { insertProject, makeTestDb, type TestDb } from '../helpers/db';
import { example } from '../helpers/spec';

/** A session as releases before 0037 stored it: its rows without `device`. */
async function insertSessionBefore0037(db: Knex, s: StoredSession): Promise<void> {
  const { session, facts } = sessionRows(s);
  const { device: _, ...before } = session;
  await db('sessions').insert(before);
  await db('session_facts').insert(facts);
}

/** Every migration whose name sorts before `name`. */
async function migrateBefore(db: Knex, name: string): Promise<void> {
  await db.migrate.latest({
    migrationSource: {
      ...migrationSource,
      getMigrations: async () => (await migrationSource.getMigrations([])).filter((m) => m < name),
    },
  });
}

describe('0004_accounts_lists_evaluations', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when sessions were stored before, then each gets the block of its address as ipaddr.js 2.3.0 read it, and its network kind and country', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0004_accounts_lists_evaluations');
    await db('projects').insert({ id: 'p', name: 'p', webhook_secret_encrypted: 'x', created_at: 1_000 });
    // Every spelling ipaddr.js took (octal, hexadecimal, fewer parts, zones, IPv4 in IPv6) or
    // refused: the frozen copy of the block's rule must give each the same block as then.
    const blocks: [string, string | undefined][] = [
      ['81.2.69.160', '81.2.69.0/24'],
      ['0.0.0.0', '0.0.0.0/24'],
      ['255.255.255.255', '255.255.255.0/24'],
      ['256.1.1.1', undefined],
      ['1.2.3', '1.2.0.0/24'],
      ['1.2.65535', '1.2.255.0/24'],
      ['1.2.65536', undefined],
      ['1.16777215', '1.255.255.0/24'],
      ['3232235777', '192.168.1.0/24'],
      ['4294967296', undefined],
      ['0x7f.1', '127.0.0.0/24'],
      ['0X7F.0x0.0.0X1', '127.0.0.0/24'],
      ['010.1.1.1', '8.1.1.0/24'],
      ['08.1.1.1', undefined],
      ['00.1.1.1', '0.1.1.0/24'],
      [' 1.2.3.4', undefined],
      ['1.2.3.4 ', undefined],
      ['1.2.3.4.5', undefined],
      ['', undefined],
      ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3:8d3::/64'],
      ['2001:DB8::1', '2001:db8::/64'],
      ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::/64'],
      ['::', '::/64'],
      ['::1', '::/64'],
      ['1::', '1::/64'],
      ['1:0:0:1::', '1:0:0:1::/64'],
      ['0:0:1:0::', '0:0:1::/64'],
      ['fe80::1%eth0', 'fe80::/64'],
      ['fe80::1%', undefined],
      ['fe80::1%e-1', undefined],
      ['1:2:3:4:5:6:7:8', '1:2:3:4::/64'],
      ['1:2:3:4:5:6:7:8:9', undefined],
      ['1::2::3', undefined],
      ['1:2:3:4:5:6:7', undefined],
      ['12345::', undefined],
      ['::ffff:81.2.69.160', '81.2.69.0/24'],
      ['::FFFF:81.2.69.160', '81.2.69.0/24'],
      ['::ffff:5102:45a0', '81.2.69.0/24'],
      ['::81.2.69.160', '81.2.69.0/24'],
      ['::81.2.69.160%1', '81.2.69.0/24'],
      ['::ffff:0:81.2.69.160', '::/64'],
      ['64:ff9b::81.2.69.160', '64:ff9b::/64'],
      ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4::/64'],
      ['::ffff:0x51.2.69.160', '81.2.69.0/24'],
      ['::ffff:081.2.69.160', '81.2.69.0/24'],
      ['::ffff:1.2.3.256', undefined],
      ['2002:5102:45a0::1', '2002:5102:45a0::/64'],
      ['not an address', undefined],
    ];
    await db('sessions').insert(
      blocks.map(([ip], i) => ({
        id: `s${i}`,
        project_id: 'p',
        device_id: 'd',
        ip_address: ip,
        start_time: 2_000,
        updated_at: 2_000,
        facts:
          i === 0 ? JSON.stringify({ network: { connection_type: 'isp' }, location: { country_code: 'GB' } }) : '{}',
      })),
    );

    await migrateBefore(db, '0005_webhooks');
    const rows: { id: string; ip_block: string | null; connection_type: string | null; country_code: string | null }[] =
      await db('sessions').select('id', 'ip_block', 'connection_type', 'country_code');
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(blocks.map(([ip], i) => [ip, byId.get(`s${i}`)?.ip_block ?? undefined])).toEqual(blocks);
    expect(byId.get('s0')).toMatchObject({ connection_type: 'isp', country_code: 'GB' });
    expect(byId.get('s1')).toMatchObject({ connection_type: null, country_code: null });
  });
});

describe('0014_standard_lists', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when projects were made without their standard lists, then each gets the missing ones, dated from the project, and keeps the rest', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0014_standard_lists');
    const project = (id: string, createdAt: number) => ({
      id,
      name: id,
      webhook_secret_encrypted: 'x',
      created_at: createdAt,
    });
    await db('projects').insert([
      project('never-listed', 1_000),
      project('half-listed', 2_000),
      project('all-listed', 3_000),
    ]);
    await db('lists').insert([
      { project_id: 'half-listed', name: 'block', standard: true, created_at: 2_500 },
      { project_id: 'half-listed', name: 'vip', standard: false, created_at: 2_600 },
      ...['allow', 'block', 'main_account'].map((name) => ({
        project_id: 'all-listed',
        name,
        standard: true,
        created_at: 3_500,
      })),
    ]);

    await migrate(db);

    const rows = (await db('lists').orderBy(['project_id', 'name'])).map((r: Record<string, unknown>) => ({
      project: r.project_id,
      name: r.name,
      standard: Boolean(r.standard),
      at: Number(r.created_at),
    }));
    expect(rows).toEqual([
      { project: 'all-listed', name: 'allow', standard: true, at: 3_500 },
      { project: 'all-listed', name: 'block', standard: true, at: 3_500 },
      { project: 'all-listed', name: 'main_account', standard: true, at: 3_500 },
      { project: 'half-listed', name: 'allow', standard: true, at: 2_000 },
      { project: 'half-listed', name: 'block', standard: true, at: 2_500 },
      { project: 'half-listed', name: 'main_account', standard: true, at: 2_000 },
      { project: 'half-listed', name: 'vip', standard: false, at: 2_600 },
      { project: 'never-listed', name: 'allow', standard: true, at: 1_000 },
      { project: 'never-listed', name: 'block', standard: true, at: 1_000 },
      { project: 'never-listed', name: 'main_account', standard: true, at: 1_000 },
    ]);
  });
});

describe('0016_test_projects', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when projects were made before test projects existed, then every one of them is live', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0016_test_projects');
    await db('projects').insert([
      { id: 'older', name: 'older', webhook_secret_encrypted: 'x', created_at: 1_000, demo: false },
      { id: 'demo', name: 'demo', webhook_secret_encrypted: 'x', created_at: 2_000, demo: true },
    ]);
    await migrate(db);
    const rows = (await db('projects').orderBy('id')).map((r: Record<string, unknown>) => [r.id, Boolean(r.test)]);
    expect(rows).toEqual([
      ['demo', false],
      ['older', false],
    ]);
  });
});

describe('0017_list_descriptions_account_scores', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when lists and accounts were made before, then lists have no description and accounts no scores until set', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0017_list_descriptions_account_scores');
    await db('projects').insert({ id: 'p', name: 'p', webhook_secret_encrypted: 'x', created_at: 1_000 });
    await db('lists').insert({ project_id: 'p', name: 'vip', standard: false, created_at: 2_000 });
    await migrate(db);
    const lists = makeListRepository(db);
    expect(await lists.find('p', 'vip')).toMatchObject({ name: 'vip', description: undefined, standard: false });
    expect(await lists.create('p', 'US users', 'Customers in the US', new Date(3_000))).toBe(true);
    expect(await lists.create('p', 'vip', 'again', new Date(4_000))).toBe(false);
    expect((await lists.all('p')).map((l) => [l.name, l.description])).toEqual([
      ['US users', 'Customers in the US'],
      ['vip', undefined],
    ]);
    expect(Object.keys(await db('accounts').columnInfo())).toContain('scores');
  });
});

describe('0018_browser_device_links', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when links were kept in the old meaning (fingerprint as browser, stored id as device), then each row moves to the kind it now means', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0018_browser_device_links');
    const T = new Date('2026-11-20T12:00:00.000Z');
    await insertProject(db, 'p', 'p', T);
    const template = (await example<{ session: EvaluatedSession }>('AuthenticateResponseReal')).session;
    // Three browsers (stored ids), two fingerprints; one value is both a stored id and a
    // fingerprint of one account, so the swap meets a row with the key it is about to take.
    const stored = [
      { device_id: 'dev-1', browser_fingerprint: 'fp-1', accounts: ['acct-a', 'acct-b'] },
      { device_id: 'dev-2', browser_fingerprint: 'fp-1', accounts: ['acct-c'] },
      { device_id: 'same', browser_fingerprint: 'same', accounts: ['acct-d'] },
      { device_id: 'dev-3', accounts: ['acct-d'] },
    ];
    for (const [i, s] of stored.entries()) {
      const id = `00000000-0000-4000-8000-00000000000${i}`;
      const at = new Date(T.getTime() + i * 60_000);
      const { accounts, ...sdk } = s;
      await insertSessionBefore0037(db, {
        id,
        projectId: 'p',
        ipAddress: '81.2.69.160',
        startTime: at,
        updatedAt: at,
        facts: { ...structuredClone(template), device_id: s.device_id },
        sdk: { source: 'web', ...sdk },
      });
      for (const account of accounts) {
        await db('session_accounts').insert({
          session_id: id,
          project_id: 'p',
          account_id: account,
          created_at: at.getTime(),
          session_start: at.getTime(),
          ip_address: '81.2.69.160',
          ip_block: '81.2.69.0/24',
        });
        // As the previous release wrote them (storage/repositories/identifier-accounts.ts before 0018).
        const old = [
          { kind: 'device', value: s.device_id },
          ...(s.browser_fingerprint ? [{ kind: 'browser', value: s.browser_fingerprint }] : []),
        ];
        for (const row of old)
          await db('identifier_accounts')
            .insert({ project_id: 'p', ...row, account_id: account, created_at: at.getTime() })
            .onConflict(['project_id', 'kind', 'value', 'account_id'])
            .ignore();
      }
    }

    await migrate(db);

    const rows = async () =>
      (
        await db('identifier_accounts')
          .where({ project_id: 'p' })
          .orderBy(['kind', 'value', 'account_id'])
          .select('kind', 'value', 'account_id')
      ).map((r: { kind: string; value: string; account_id: string }) => `${r.kind} ${r.value} ${r.account_id}`);
    const migrated = await rows();
    expect(migrated).toEqual([
      'browser dev-1 acct-a',
      'browser dev-1 acct-b',
      'browser dev-2 acct-c',
      'browser dev-3 acct-d',
      'browser same acct-d',
      'device fp-1 acct-a',
      'device fp-1 acct-b',
      'device fp-1 acct-c',
      'device same acct-d',
    ]);
    // What the writes of this release keep, and what the link search reads.
    await rebuildIdentifierAccounts(db, 'p');
    expect(await rows()).toEqual(migrated);
    const history = makeHistoryRepository(db);
    expect(await history.accountsSharing('p', 'browser', 'dev-1', 'acct-a', 10)).toEqual(['acct-b']);
    expect((await history.accountsSharing('p', 'device', 'fp-1', 'acct-a', 10)).sort()).toEqual(['acct-b', 'acct-c']);
    expect(await history.accountsSharing('p', 'browser', 'fp-1', undefined, 10)).toEqual([]);
  });
});

describe('0028_retention', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when projects, sessions and verifications were made before, then every project keeps everything (no period) and nothing is erased', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0028_retention');
    await insertProject(db, 'p1', 'older', new Date(1_000));
    const facts = (await example<{ session: EvaluatedSession }>('AuthenticateResponseReal')).session;
    await insertSessionBefore0037(db, {
      id: 's1',
      projectId: 'p1',
      ipAddress: facts.network.ip_address,
      startTime: new Date(2_000),
      updatedAt: new Date(2_000),
      facts,
    });
    await db('verification_sessions').insert({
      id: 'v1',
      project_id: 'p1',
      type: 'face-match',
      token_hash: 'x'.repeat(64),
      state: 'ended',
      outcome: 'success',
      result: 'sealed',
      created_at: 3_000,
      expires_at: 4_000,
      ended_at: 3_000,
    });
    await migrate(db);
    expect(
      await db('projects').first(
        'retention_sessions_days',
        'retention_verification_media_days',
        'retention_delivered_webhooks_days',
      ),
    ).toEqual({
      retention_sessions_days: null,
      retention_verification_media_days: null,
      retention_delivered_webhooks_days: null,
    });
    expect(await db('sessions').pluck('id')).toEqual(['s1']);
    expect(await db('verification_sessions').first('result', 'media_erased_at')).toEqual({
      result: 'sealed',
      media_erased_at: null,
    });
  });
});

describe('0034_domain_blocked_counts', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  /** Each project's domains with block-listed accounts, as kept. */
  const kept = async (db: Knex) =>
    (await db('email_domains').where('num_blocked', '>', 0).orderBy(['project_id', 'domain'])).map(
      (r: { project_id: string; domain: string; num_blocked: number | string }) => [
        r.project_id,
        r.domain,
        Number(r.num_blocked),
      ],
    );

  it('when accounts were block-listed before, then each domain counts its accounts and block-listed accounts, and later writes keep the counts', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0034_domain_blocked_counts');
    const accounts = makeAccountRepository(db);
    const lists = makeListRepository(db);
    const at = new Date(1_000);
    for (const p of ['p1', 'p2']) await insertProject(db, p, p, at);
    // Written as releases of then wrote them: today's repository writes columns added since.
    const account = (projectId: string, id: string, domain?: string) => ({
      project_id: projectId,
      id,
      ...(domain ? { email: `${id}@${domain}`, email_key: `${id}@${domain}`, email_domain: domain } : {}),
      expected_countries: '[]',
      metadata: '{}',
      created_at: at.getTime(),
      updated_at: at.getTime(),
      num_sessions: 0,
      countries: '[]',
      version: 0,
    });
    for (const [p, id, domain, list] of [
      ['p1', 'a', 'acme.example', 'block'],
      ['p1', 'b', 'acme.example', 'block'],
      ['p1', 'c', 'acme.example', 'allow'],
      ['p1', 'd', 'bolt.example', 'block'],
      ['p1', 'e', undefined, 'block'],
      ['p2', 'a', 'acme.example', 'block'],
      ['p2', 'f', 'crane.example', 'vip'],
    ] as const) {
      await db('accounts').insert(account(p, id, domain));
      await lists.add(p, list, id, at);
    }

    // The account counts as they may have been left: one that drifted (acme.example, one too
    // many) and the others missing (the rows above were written without them).
    await db('email_domains').insert({ project_id: 'p1', domain: 'acme.example', num_accounts: 4 });

    await migrate(db);
    expect(await kept(db)).toEqual([
      ['p1', 'acme.example', 2],
      ['p1', 'bolt.example', 1],
      ['p2', 'acme.example', 1],
    ]);
    expect(
      (await db('email_domains').orderBy(['project_id', 'domain'])).map(
        (r: { project_id: string; domain: string; num_accounts: number | string }) => [
          r.project_id,
          r.domain,
          Number(r.num_accounts),
        ],
      ),
    ).toEqual([
      ['p1', 'acme.example', 3],
      ['p1', 'bolt.example', 1],
      ['p2', 'acme.example', 1],
      ['p2', 'crane.example', 1],
    ]);
    await lists.remove('p1', ['block'], 'a');
    await lists.add('p2', 'block', 'f', at);
    expect(await kept(db)).toEqual([
      ['p1', 'acme.example', 1],
      ['p1', 'bolt.example', 1],
      ['p2', 'acme.example', 1],
      ['p2', 'crane.example', 1],
    ]);

    // Rolled back: the column and the triggers go, and the writes that fired them still work.
    await db.migrate.down({ migrationSource, name: '0034_domain_blocked_counts' });
    expect(await db.schema.hasColumn('email_domains', 'num_blocked')).toBe(false);
    await lists.add('p1', 'block', 'c', at);
    await db.transaction((trx) => accounts.delete('p1', 'd', trx));
  });
});

describe('0037_session_device', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it("when sessions were stored before, then each gets the device deviceOf gives, and the accounts' devices are counted from it", async () => {
    const { db } = testDb;
    await migrateBefore(db, '0037_session_device');
    const T = new Date('2026-12-01T12:00:00.000Z');
    await insertProject(db, 'p', 'p', T);
    const template = (await example<{ session: EvaluatedSession }>('AuthenticateResponseReal')).session;
    // A fingerprint; none (a native app's vendor id, else the stored id); empty ones are none.
    const sdks: SdkFacts[] = [
      { source: 'web', device_id: 'dev-1', browser_fingerprint: 'fp-1' },
      { source: 'ios', device_id: 'dev-2', mobile: { mobile_id: 'mob-2' } },
      { source: 'web', device_id: 'dev-3' },
      { source: 'web', device_id: 'dev-4', browser_fingerprint: '', mobile: { mobile_id: '' } },
    ];
    for (const [i, sdk] of sdks.entries()) {
      const id = `00000000-0000-4000-8000-00000000000${i}`;
      const at = new Date(T.getTime() + i * 60_000);
      const facts = { ...structuredClone(template), device_id: sdk.device_id };
      await insertSessionBefore0037(db, {
        id,
        projectId: 'p',
        ipAddress: '81.2.69.160',
        startTime: at,
        updatedAt: at,
        facts,
        sdk,
      });
    }

    await migrate(db);

    const expected = sdks.map((sdk) =>
      deviceOf({
        browserFingerprint: sdk.browser_fingerprint,
        mobileId: sdk.mobile?.mobile_id,
        deviceId: sdk.device_id,
      }),
    );
    expect(expected).toEqual(['fp-1', 'mob-2', 'dev-3', 'dev-4']);
    expect(await db('sessions').where({ project_id: 'p' }).orderBy('id').pluck('device')).toEqual(expected);
    // The link trigger, made again over the column, counts a linked session's device.
    await makeSessionRepository(db).addAccount('p', '00000000-0000-4000-8000-000000000001', 'acct', T);
    expect(await db('account_uniques').where({ project_id: 'p', kind: 'device' }).pluck('value')).toEqual(['mob-2']);
  });
});

describe('0047_account_score', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await makeTestDb({ migrate: false });
  });
  afterAll(() => testDb.destroy());

  it('when accounts were evaluated before, then each gets its scores JSON’s account_score in the column, and the unevaluated null', async () => {
    const { db } = testDb;
    await migrateBefore(db, '0047_account_score');
    await insertProject(db, 'p', 'p', new Date(1_000));
    const scores = (accountScore: number) =>
      JSON.stringify({ account_score: accountScore, bot: 0.1, multiple_accounts: 0, risk_signals: 0 });
    for (const [id, json] of [
      ['a', scores(0.8123456789012345)],
      ['b', scores(0)],
      ['c', null],
    ] as const)
      await db('accounts').insert({
        project_id: 'p',
        id,
        expected_countries: '[]',
        metadata: '{}',
        decision: json ? 'Real' : null,
        scores: json,
        created_at: 1_000,
        updated_at: 1_000,
        num_sessions: 0,
        countries: '[]',
        version: 0,
      });
    await migrate(db);
    const rows = await db('accounts').where({ project_id: 'p' }).orderBy('id').select('id', 'account_score');
    expect(rows.map((r: { id: string; account_score: number | null }) => [r.id, r.account_score])).toEqual([
      ['a', 0.8123456789012345],
      ['b', 0],
      ['c', null],
    ]);
    // The evaluation's write keeps it: the account's new scores move the column with them.
    const a = (await makeAccountRepository(db).find('p', 'a'))!;
    for (const st of evaluatedAccountStatements({ ...a, scores: { ...a.scores!, account_score: 0.25 } }, a))
      await expect(runStatement(db, st)).resolves.toHaveLength(1);
    await expect(db('accounts').where({ project_id: 'p', id: 'a' }).first('account_score')).resolves.toEqual({
      account_score: 0.25,
    });
  });
});
