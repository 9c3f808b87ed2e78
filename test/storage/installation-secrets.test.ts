import { makeInstallationSecrets } from '../../src/storage/repositories/installation-secrets';
import { makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await makeTestDb();
});
afterAll(() => testDb.destroy());

const at = new Date('2026-12-07T08:00:00.000Z');

describe('installation secrets', () => {
  test('when several create one name at once, then one sealed text is kept and every one of them gets it', async () => {
    const secrets = makeInstallationSecrets(testDb.db);
    const got = await Promise.all(['a', 'b', 'c'].map((s) => secrets.create('raced', `sealed-${s}`, at)));
    const kept = await secrets.read('raced');
    expect(['sealed-a', 'sealed-b', 'sealed-c']).toContain(kept);
    expect(got).toEqual([kept, kept, kept]);
  });

  test('when a sealed text is replaced, then only the holder of the current one replaces it', async () => {
    const secrets = makeInstallationSecrets(testDb.db);
    await secrets.create('rotated', 'under-old', at);
    expect(await secrets.replace('rotated', 'under-old', 'under-new', at)).toBe(true);
    expect(await secrets.replace('rotated', 'under-old', 'under-other', at)).toBe(false);
    expect(await secrets.read('rotated')).toBe('under-new');
    expect(await secrets.read('absent')).toBeUndefined();
  });
});
