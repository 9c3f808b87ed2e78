/** The trustgate command, run as a real process against a real database. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from '../../src/cli/main';
import { systemClock } from '../../src/clock';
import { openIpLists, openStoredIpLists, type IpLists } from '../../src/geo/ip-lists';
import { makeIpListTexts } from '../../src/storage/repositories/ip-list-texts';
import { torList, TOR_IP } from '../helpers/list-server';
import { makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
let dataDir: string;
const SECRET_KEY = randomBytes(32).toString('base64');

beforeAll(async () => {
  testDb = await makeTestDb();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-cli-'));
});
afterAll(async () => {
  await testDb.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the command in-process with its own environment and captured output. */
async function trustgate(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const env: NodeJS.ProcessEnv = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  // PostgreSQL: every node of the database is given the same key (none is made).
  if (testDb.url) Object.assign(env, { DATABASE_URL: testDb.url, TRUSTGATE_SECRET_KEY: SECRET_KEY });
  // SQLite: the CLI opens DATA_DIR/trustgate.sqlite, which is the test's own file.
  else env.DATA_DIR = path.dirname(testDb.sqliteFile!);
  let stdout = '';
  let stderr = '';
  const code = await cli(args, { env, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { stdout, stderr, code };
}

describe('trustgate project', () => {
  it('when a project is created with --json, then it prints its id, key and secret, and the key is stored hashed', async () => {
    const r = await trustgate(
      'project',
      'create',
      '--name',
      'Shop',
      '--webhook-url',
      'https://hooks.shop.test/tg',
      '--groups',
      '--json',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ name: 'Shop', webhook_url: 'https://hooks.shop.test/tg', groups_enabled: true });
    expect(out.api_key).toMatch(/^tg_/);
    expect(out.webhook_secret).toMatch(/^whsec_/);
    const keys = await testDb.db('api_keys').where({ project_id: out.project_id });
    expect(keys).toHaveLength(1);
    expect(JSON.stringify(keys)).not.toContain(out.api_key);
    const project = await testDb.db('projects').where({ id: out.project_id }).first();
    expect(project.webhook_secret_encrypted).not.toContain(out.webhook_secret);
  });

  it('when projects are listed, rotated and re-pointed, then each change shows', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Blog', '--json')).stdout);
    const rotated = JSON.parse((await trustgate('project', 'rotate-key', created.project_id, '--json')).stdout);
    expect(rotated.api_key).not.toBe(created.api_key);
    expect((await trustgate('project', 'set-webhook', created.project_id, 'https://hooks.blog.test/x')).code).toBe(0);
    const list = JSON.parse((await trustgate('project', 'list', '--json')).stdout) as {
      project_id: string;
      webhook_url: string;
      api_keys: string[];
    }[];
    const blog = list.find((p) => p.project_id === created.project_id)!;
    expect(blog.webhook_url).toBe('https://hooks.blog.test/x');
    expect(blog.api_keys).toEqual([rotated.api_key.slice(0, 9) + '…']);
  });

  it('when the arguments are wrong, then usage and exit code 2; an unknown project, exit code 1', async () => {
    const usage = await trustgate('project', 'create');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--name/);
    const missing = await trustgate('project', 'rotate-key', '00000000-0000-4000-8000-000000000000');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not found/);
  });
});

describe('trustgate project set and audit', () => {
  it('when settings are set, then they are stored and the audit shows `cli` with before → after', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Forum', '--json')).stdout);
    const set = await trustgate(
      'project',
      'set',
      created.project_id,
      '--threshold',
      '0.6',
      '--groups',
      '--webhook-url',
      'https://hooks.forum.test/tg',
      '--json',
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      decision_threshold: 0.6,
      groups_enabled: true,
      webhook_url: 'https://hooks.forum.test/tg',
    });
    expect((await trustgate('project', 'set', created.project_id, '--clear-webhook')).code).toBe(0);
    const audit = JSON.parse((await trustgate('project', 'audit', created.project_id, '--json')).stdout);
    expect(audit.next_cursor).toBeNull();
    expect(audit.events).toHaveLength(2);
    expect(audit.events[0]).toMatchObject({
      actor: 'cli',
      changes: [{ field: 'webhook_url', before: 'https://hooks.forum.test/tg', after: null }],
    });
    expect(audit.events[1].changes).toContainEqual({ field: 'decision_threshold', before: 0.8, after: 0.6 });
    const text = await trustgate('project', 'audit', created.project_id);
    expect(text.stdout).toContain('decision_threshold: 0.8 → 0.6');
  });

  it('when retention periods are set, then they are kept and audited; `keep` clears one; a bad value exits naming the option or field', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Kept', '--json')).stdout);
    const set = await trustgate(
      'project',
      'set',
      created.project_id,
      '--retention-sessions-days',
      '395',
      '--retention-verification-media-days',
      '30',
      '--json',
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      retention_sessions_days: 395,
      retention_verification_media_days: 30,
      retention_delivered_webhooks_days: null,
    });
    const kept = await trustgate('project', 'set', created.project_id, '--retention-sessions-days', 'keep');
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('sessions keep, verification media 30 days, delivered webhooks keep');
    const audit = JSON.parse((await trustgate('project', 'audit', created.project_id, '--json')).stdout);
    expect(audit.events[0].changes).toEqual([{ field: 'retention_sessions_days', before: 395, after: null }]);
    const word = await trustgate('project', 'set', created.project_id, '--retention-delivered-webhooks-days', 'soon');
    expect(word.code).not.toBe(0);
    expect(word.stderr).toContain('--retention-delivered-webhooks-days must be a whole number of days or keep');
    const zero = await trustgate('project', 'set', created.project_id, '--retention-delivered-webhooks-days', '0');
    expect(zero.code).toBe(1);
    expect(zero.stderr).toContain('retention_delivered_webhooks_days must be a whole number of days from 1 to 36500');
  });

  it('when webhook events are set, then they are kept and audited as the CLI’s; an unknown one exits 1', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Hooks', '--json')).stdout);
    const set = await trustgate(
      'project',
      'set',
      created.project_id,
      '--webhook-events',
      'list.account_added, verification.id-check.completed',
      '--json',
    );
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout).webhook_events).toEqual(['verification.id-check.completed', 'list.account_added']);
    const bad = await trustgate('project', 'set', created.project_id, '--webhook-events', 'list.account_moved');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('webhook_events: "list.account_moved" is not an event type');
    const none = await trustgate('project', 'set', created.project_id, '--webhook-events', '', '--json');
    expect(JSON.parse(none.stdout).webhook_events).toEqual([]);
    const audit = JSON.parse((await trustgate('project', 'audit', created.project_id, '--json')).stdout);
    expect(
      audit.events.map((e: { actor: string; changes: { field: string }[] }) => [e.actor, e.changes[0]!.field]),
    ).toEqual([
      ['cli', 'webhook_events'],
      ['cli', 'webhook_events'],
    ]);
  });

  it('when an account is labelled, then the label is printed, kept and audited as the CLI’s; a wrong label exits 2, an unknown account 1', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Labels', '--json')).stdout);
    const now = Date.now();
    await testDb.db('accounts').insert({
      project_id: created.project_id,
      id: 'cli-account',
      expected_countries: '[]',
      metadata: '{}',
      created_at: now,
      updated_at: now,
    });
    const r = await trustgate(
      'account',
      'label',
      'cli-account',
      'fraud',
      '--note',
      'Chargeback',
      '--project',
      created.project_id,
      '--json',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      account_id: 'cli-account',
      id: expect.any(String),
      label: 'fraud',
      note: 'Chargeback',
      actor: 'cli',
      created_at: expect.any(String),
    });
    const text = await trustgate('account', 'label', 'cli-account', 'legit', '--project', created.project_id);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('account cli-account labelled legit');
    expect((await trustgate('project', 'audit', created.project_id)).stdout).toContain(
      'cli  account.labelled cli-account  label: "fraud" → "legit"',
    );
    const rows = await testDb.db('labels').where({ project_id: created.project_id }).orderBy('seq');
    expect(rows.map((l: { label: string; actor: string }) => `${l.label} ${l.actor}`)).toEqual([
      'fraud cli',
      'legit cli',
    ]);
    const audit = JSON.parse((await trustgate('project', 'audit', created.project_id, '--json')).stdout);
    expect(audit.events[0]).toMatchObject({
      actor: 'cli',
      action: 'account.labelled',
      account_id: 'cli-account',
      changes: [{ field: 'label', before: 'fraud', after: 'legit' }],
    });
    expect((await trustgate('account', 'label', 'cli-account', 'maybe', '--project', created.project_id)).code).toBe(2);
    const unknown = await trustgate('account', 'label', 'nobody', 'fraud', '--project', created.project_id);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('account nobody not found');
    expect(Number((await testDb.db('labels').where({ project_id: created.project_id }).count({ n: '*' }))[0]!.n)).toBe(
      2,
    );
  });

  it('when the webhook secret is rotated, then a new one is printed once, the old one signs until the grace ends, and it is audited', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Rota', '--json')).stdout);
    const r = await trustgate(
      'project',
      'rotate-webhook-secret',
      created.project_id,
      '--grace-seconds',
      '60',
      '--json',
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.webhook_secret).toMatch(/^whsec_/);
    expect(out.webhook_secret).not.toBe(created.webhook_secret);
    expect(out.previous_secret_valid_until).toEqual(expect.any(String));
    const audit = JSON.parse((await trustgate('project', 'audit', created.project_id, '--json')).stdout);
    expect(audit.events[0]).toMatchObject({ actor: 'cli', action: 'webhook_secret.rotated' });
    expect(JSON.stringify(audit)).not.toContain(out.webhook_secret);
    expect((await trustgate('project', 'rotate-webhook-secret', created.project_id, '--grace-seconds', 'x')).code).toBe(
      2,
    );
    expect(
      (await trustgate('project', 'rotate-webhook-secret', created.project_id, '--grace-seconds', '999999')).code,
    ).toBe(1);
  });

  it('when the arguments are wrong, then exit code 2 and nothing is written; a refused change, exit code 1', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Wiki', '--groups', '--json')).stdout);
    for (const args of [
      ['--threshold', '1.5'],
      ['--threshold', 'x'],
      [],
      ['--webhook-url', 'https://a.test', '--clear-webhook'],
    ]) {
      const r = await trustgate('project', 'set', created.project_id, ...args);
      expect(r.code).toBe(2);
    }
    const bad = await trustgate('project', 'set', created.project_id, '--webhook-url', 'ftp://a.test');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/webhook_url/);
    expect(await testDb.db('audit_events').where({ project_id: created.project_id })).toEqual([]);
  });
});

describe('trustgate rules', () => {
  const YAML_RULES = [
    'rules:',
    '  - id: tor-fake',
    '    description: Tor exits are not customers.',
    '    when:',
    '      all:',
    '        - { field: session.risk_signals.tor, op: eq, value: true }',
    '        - not: { field: lists, op: contains, value: allow }',
    '    then:',
    '      decision: Fake',
    '      add_to_lists: [review]',
    '      tags: [tor]',
    '',
  ].join('\n');
  const file = (name: string, text: string) => {
    const at = path.join(dataDir, name);
    fs.writeFileSync(at, text);
    return at;
  };

  it('when a YAML file is tested, pushed and pulled, then it is checked, stored as the next version (audited as cli) and comes back', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Rules', '--json')).stdout);
    const rulesFile = file('rules.yaml', YAML_RULES);
    const tested = await trustgate('rules', 'test', rulesFile);
    expect(tested).toMatchObject({ code: 0, stdout: `${rulesFile}: 1 rule, valid\n` });
    const pushed = await trustgate('rules', 'push', created.project_id, rulesFile);
    expect(pushed.code).toBe(0);
    expect(pushed.stdout).toBe('rules stored as version 1 (1 rule)\n');
    const pulledFile = path.join(dataDir, 'pulled.json');
    expect((await trustgate('rules', 'pull', created.project_id, pulledFile)).code).toBe(0);
    const pulled = JSON.parse(fs.readFileSync(pulledFile, 'utf8'));
    expect(pulled.version).toBe(1);
    expect(pulled.rules[0]).toMatchObject({ id: 'tor-fake', then: { decision: 'Fake', add_to_lists: ['review'] } });
    // A pulled file pushes back as it is (its version is ignored), over the version it was pulled at.
    expect((await trustgate('rules', 'push', created.project_id, pulledFile, '--expected-version', '1')).code).toBe(0);
    const stale = await trustgate('rules', 'push', created.project_id, pulledFile, '--expected-version', '1');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('expected_version is 1 but the rules are at version 2');
    const stdout = JSON.parse((await trustgate('rules', 'pull', created.project_id)).stdout);
    expect(stdout).toEqual({ ...pulled, version: 2 });
    const audit = JSON.parse((await trustgate('project', 'audit', created.project_id, '--json')).stdout);
    expect(audit.events.map((e: { actor: string; action: string }) => [e.actor, e.action])).toEqual([
      ['cli', 'rules.updated'],
      ['cli', 'rules.updated'],
    ]);
  });

  it('when a file has errors, then test and push print each with its path and rule, exit 1 and store nothing', async () => {
    const created = JSON.parse((await trustgate('project', 'create', '--name', 'Bad rules', '--json')).stdout);
    const bad = file(
      'bad.json',
      JSON.stringify({
        rules: [
          { id: 'a', when: { field: 'session.tor', op: 'eq', value: true }, then: {} },
          { id: 'b', when: { field: 'bot', op: 'gt', value: 'high' }, then: { decision: 'Block' } },
        ],
      }),
    );
    const tested = await trustgate('rules', 'test', bad);
    expect(tested.code).toBe(1);
    expect(tested.stderr).toContain(`${bad}: 3 errors`);
    expect(tested.stderr).toContain('rules[0].when.field (rule "a"): unknown field "session.tor"');
    expect(tested.stderr).toContain('rules[1].when.value (rule "b"): must be a number with gt');
    expect(tested.stderr).toContain('rules[1].then.decision (rule "b"): must be Real or Fake');
    const pushed = await trustgate('rules', 'push', created.project_id, bad);
    expect(pushed.code).toBe(1);
    expect(pushed.stderr).toContain('3 errors, nothing stored');
    expect(await testDb.db('project_rules').where({ project_id: created.project_id })).toEqual([]);
    const notYaml = await trustgate('rules', 'test', file('broken.yaml', 'rules: [\n'));
    expect(notYaml.code).toBe(1);
    expect(notYaml.stderr).toContain('is not valid YAML');
    expect((await trustgate('rules', 'push', created.project_id)).code).toBe(2);
    expect((await trustgate('rules', 'test')).code).toBe(2);
  });
});

describe('trustgate iplist', () => {
  /** On SQLite the lists are IP_LISTS_DIR's files (no database needed); on PostgreSQL they live in the database. */
  const onPostgres = () => testDb.dialect === 'postgresql';
  async function iplist(
    env: NodeJS.ProcessEnv,
    ...args: string[]
  ): Promise<{ stdout: string; stderr: string; code: number }> {
    let stdout = '';
    let stderr = '';
    const code = await cli(['iplist', ...args], {
      env: { LOG_LEVEL: 'silent', ...(testDb.url ? { DATABASE_URL: testDb.url } : {}), ...env },
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
    });
    return { stdout, stderr, code };
  }
  /** The lists a server would load now, from where they live. */
  async function serverLists(dir: string): Promise<IpLists> {
    if (!onPostgres()) return openIpLists({ dir });
    return openStoredIpLists(makeIpListTexts(testDb.db, systemClock), {});
  }
  beforeEach(() => testDb.db('ip_list_texts').delete());

  it('when an address is added, shown and removed, then the list follows and repeats change nothing', async () => {
    const dir = path.join(dataDir, 'lists-a');
    const env = { IP_LISTS_DIR: dir };
    const added = await iplist(env, 'add', 'vpn', '203.0.113.9/24', '--json');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({
      list: 'vpn',
      entry: '203.0.113.0/24',
      added: true,
      ...(onPostgres()
        ? { database: 'database table ip_list_texts (operator/vpn)' }
        : { file: path.join(dir, 'vpn.txt') }),
    });
    expect((await iplist(env, 'add', 'vpn', '203.0.113.0/24')).stdout).toBe('203.0.113.0/24 is already on vpn\n');
    expect((await iplist(env, 'add', 'vpn', '2001:DB8::1')).stdout).toMatch(/^added 2001:db8::1\/128 to vpn/);

    const shown = JSON.parse((await iplist(env, 'show', 'vpn', '--json')).stdout);
    expect(shown).toMatchObject({ list: 'vpn', entries: ['203.0.113.0/24', '2001:db8::1/128'], invalid_lines: [] });
    expect((await iplist(env, 'show', 'vpn')).stdout).toBe('203.0.113.0/24\n2001:db8::1/128\n');

    // What the command writes is what a running server reads; on PostgreSQL no file is written.
    const lists = await serverLists(dir);
    expect(lists.lookup('203.0.113.200')).toEqual([{ list: 'vpn', source: 'operator', entry: '203.0.113.0/24' }]);
    lists.close();
    expect(fs.existsSync(path.join(dir, 'vpn.txt'))).toBe(!onPostgres());

    const removed = await iplist(env, 'remove', 'vpn', '203.0.113.0/24', '--json');
    expect(JSON.parse(removed.stdout)).toMatchObject({ entry: '203.0.113.0/24', removed: true });
    expect((await iplist(env, 'remove', 'vpn', '203.0.113.0/24')).stdout).toBe('203.0.113.0/24 is not on vpn\n');
    expect((await iplist(env, 'show', 'vpn')).stdout).toBe('2001:db8::1/128\n');
    expect((await iplist(env, 'show', 'tor')).stdout).toMatch(/^tor: no entries/);
  });

  it('when IP_LISTS_DIR is not set and there is no DATABASE_URL, then the lists live in DATA_DIR/ip-lists', async () => {
    const r = await iplist({ DATA_DIR: dataDir, DATABASE_URL: '' }, 'add', 'fraud', '198.51.100.7');
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(dataDir, 'ip-lists', 'fraud.txt'), 'utf8')).toMatch(/^198\.51\.100\.7\/32$/m);
  });

  it('when the list or the address is wrong, then usage and exit code 2, and nothing is written', async () => {
    const dir = path.join(dataDir, 'lists-b');
    const env = { IP_LISTS_DIR: dir };
    const unknownList = await iplist(env, 'add', 'bots', '192.0.2.1');
    expect(unknownList.code).toBe(2);
    expect(unknownList.stderr).toMatch(/tor, vpn, proxy, datacenter, fraud/);
    const badAddress = await iplist(env, 'add', 'tor', 'exit.example.org');
    expect(badAddress.code).toBe(2);
    expect(badAddress.stderr).toMatch(/not an IP address or CIDR block: exit\.example\.org/);
    expect((await iplist(env, 'remove', 'tor')).code).toBe(2);
    expect((await iplist(env, 'list', 'tor')).code).toBe(2);
    expect(fs.existsSync(dir)).toBe(false);
    expect(await testDb.db('ip_list_texts').select('list')).toEqual([]);
  });

  it('when a list is synced from a mirror, then its text with its source and time is where the server reads it', async () => {
    const dir = path.join(dataDir, 'lists-c');
    const mirror = path.join(dataDir, 'tor-mirror.txt');
    fs.writeFileSync(mirror, torList(120));
    const r = await iplist({ IP_LISTS_DIR: dir, IPLIST_SOURCE_TOR: mirror }, 'sync', 'tor');
    expect(r).toMatchObject({ code: 0, stdout: `tor: 120 entries from ${mirror}\n` });
    const lists = await serverLists(dir);
    expect(lists.lookup(TOR_IP)).toEqual([{ list: 'tor', source: 'synced', entry: `${TOR_IP}/32` }]);
    expect(lists.status().find((s) => s.list === 'tor')?.synced).toMatchObject({ source: mirror, entries: 120 });
    lists.close();
    expect(fs.existsSync(path.join(dir, 'synced', 'tor.txt'))).toBe(!onPostgres());
  });

  // SQLite: the files are where the lists live; there is nothing to import.
  (process.env.DATABASE_URL ? it : it.skip)(
    'when on PostgreSQL the database holds no list yet, then the files of IP_LISTS_DIR are imported once',
    async () => {
      const dir = path.join(dataDir, 'lists-d');
      fs.mkdirSync(path.join(dir, 'synced'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'fraud.txt'), '192.0.2.66\n');
      fs.writeFileSync(path.join(dir, 'synced', 'relay.txt'), '172.224.226.0/27\n');
      expect((await iplist({ IP_LISTS_DIR: dir }, 'show', 'fraud')).stdout).toBe('192.0.2.66/32\n');
      expect(await testDb.db('ip_list_texts').orderBy('list').select('list', 'source')).toEqual([
        { list: 'fraud', source: 'operator' },
        { list: 'relay', source: 'synced' },
      ]);
      // Once: a file changed later is not imported again over what the database holds.
      fs.writeFileSync(path.join(dir, 'fraud.txt'), '192.0.2.67\n');
      expect((await iplist({ IP_LISTS_DIR: dir }, 'show', 'fraud')).stdout).toBe('192.0.2.66/32\n');
    },
  );
});

describe('trustgate webhooks', () => {
  it('when webhooks are listed and one is replayed, then the list shows them and the replayed one is due again', async () => {
    const project = JSON.parse((await trustgate('project', 'create', '--name', 'Hooks', '--json')).stdout);
    const requestId = '0d6f1c2e-8b3a-4f5d-9e7c-1a2b3c4d5e6f';
    await testDb.db('webhooks').insert({
      request_id: requestId,
      project_id: project.project_id,
      session_id: '6f1d3b58-9a2c-4e7d-b4f6-8c0e2a4b6d8f',
      event_type: 'verification.face-match.completed',
      body: '{}',
      status: 'failed',
      attempts: 25,
      run_at: 0,
      last_error: 'HTTP 503; no retries left',
      created_at: 1,
    });
    const failed = JSON.parse((await trustgate('webhooks', 'list', '--status', 'failed', '--json')).stdout);
    expect(failed.webhooks).toEqual([
      expect.objectContaining({
        request_id: requestId,
        status: 'failed',
        attempts: 25,
        last_error: 'HTTP 503; no retries left',
      }),
    ]);
    expect((await trustgate('webhooks', 'list')).stdout).toContain(`${requestId}  failed  attempts: 25`);

    const replay = await trustgate('webhooks', 'replay', requestId);
    expect(replay.code).toBe(0);
    const row = await testDb.db('webhooks').where({ request_id: requestId }).first();
    expect(row.status).toBe('pending');
    // Audited in the webhook's project, by the CLI, without a request.
    const audited = await testDb
      .db('audit_events')
      .where({ project_id: row.project_id, action: 'webhook.replayed' })
      .select('actor', 'request_id', 'changes');
    expect(audited).toEqual([
      {
        actor: 'cli',
        request_id: null,
        changes: JSON.stringify([
          { field: 'webhook_request_id', before: requestId, after: requestId },
          { field: 'webhook_status', before: 'failed', after: 'pending' },
        ]),
      },
    ]);
    expect(JSON.parse((await trustgate('webhooks', 'list', '--status', 'failed', '--json')).stdout).webhooks).toEqual(
      [],
    );

    expect((await trustgate('webhooks', 'replay', '00000000-0000-4000-8000-000000000000')).code).toBe(1);
    expect((await trustgate('webhooks', 'list', '--status', 'lost')).code).toBe(2);
  });
});

describe('trustgate worker', () => {
  it('when --poll-ms is not a whole number of milliseconds above 0, or an option is unknown, then usage and exit code 2', async () => {
    for (const bad of ['0', '-5', '1.5', 'soon']) {
      const r = await trustgate('worker', `--poll-ms=${bad}`);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--poll-ms is a whole number of milliseconds above 0, not ${bad}`);
    }
    const unknown = await trustgate('worker', '--poll', '5');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown option '--poll'/);
  });
});
