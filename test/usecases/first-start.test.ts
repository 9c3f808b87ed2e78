/**
 * What a first start creates once, whichever processes of one database race to create it: each
 * services instance here stands for a node starting on the same empty database.
 */
import { randomBytes } from 'node:crypto';
import { systemRandom } from '../../src/clock';
import { makeServices } from '../../src/composition';
import { makeSecretBox } from '../../src/security/secrets';
import { makeTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
beforeEach(async () => {
  testDb = await makeTestDb();
});
afterEach(() => testDb.destroy());

const nodes = (n: number) => {
  const secretBox = makeSecretBox(randomBytes(32), systemRandom);
  return Array.from({ length: n }, () => makeServices({ db: testDb.db, secretBox }));
};

describe('the first start on several nodes at once', () => {
  test('when three make sure of the default project at the same moment, then one is created and one of them is told its credentials', async () => {
    const created = await Promise.all(nodes(3).map((s) => s.projects.ensureDefault()));
    expect(created.filter((c) => c !== undefined)).toHaveLength(1);
    expect(await testDb.db('projects').where({ demo: false }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  test('when three visitors open the demo on three nodes at the same moment, then one demo project is made and all three get it', async () => {
    const demos = await Promise.all(nodes(3).map((s) => s.projects.ensureDemo()));
    expect(new Set(demos.map((d) => d.id)).size).toBe(1);
    expect(await testDb.db('projects').where({ demo: true }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });
});
