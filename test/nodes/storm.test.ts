/**
 * A storm on one account over three nodes (three server processes on one PostgreSQL database,
 * behind a round-robin balancer): every authenticate is answered as one node answers them.
 */
import { systemRandom } from '../../src/clock';
import { makeServices } from '../../src/composition';
import { makeSecretBox } from '../../src/security/secrets';
import { makeTestDb, type TestDb } from '../helpers/db';
import { personSession } from '../helpers/evaluation';
import { multiNodeFile, startNodes, type Nodes } from '../helpers/nodes';
import { send } from '../helpers/processes';

const { onPostgres, secretKey, nodeEnv } = multiNodeFile();

onPostgres('90 authenticates of one account at once over three nodes', () => {
  let testDb: TestDb;
  let nodes: Nodes | undefined;
  afterAll(async () => {
    await nodes?.stop();
    await testDb?.destroy();
  });

  test('then all 90 are 200, and the account has the facts one node gives it', async () => {
    testDb = await makeTestDb();
    const services = makeServices({ db: testDb.db, secretBox: makeSecretBox(secretKey, systemRandom) });
    const project = await services.projects.create({ name: 'Storm' });
    nodes = await startNodes(3, {
      ...nodeEnv(testDb),
      RATE_LIMIT_PER_MINUTE: '100000',
      INGEST_RATE_LIMIT_PER_PROJECT: '100000',
      INGEST_RATE_LIMIT_PER_IP: '100000',
    });
    const key = { 'x-api-key': project.api_key };
    /** 90 sessions posted, then authenticated at once for `account` through `port`. */
    const storm = async (port: number, account: string) => {
      const sessions = Array.from({ length: 90 }, () => personSession());
      for (const s of sessions) {
        const posted = await send(port, 'POST', '/ingest/session', { 'x-project-id': project.project_id }, s);
        expect(posted.status).toBe(200);
      }
      const answers = await Promise.all(
        sessions.map((s) =>
          send(port, 'POST', '/session/authenticate', key, { session_id: s.session_id, account: { id: account } }),
        ),
      );
      return answers.map((a) => a.status);
    };

    expect(await storm(nodes.balancer.port, 'over-three')).toEqual(Array.from({ length: 90 }, () => 200));
    expect(await storm(nodes.nodes[0]!.port, 'on-one')).toEqual(Array.from({ length: 90 }, () => 200));
    const facts = async (account: string) => {
      const body = (await send(nodes!.balancer.port, 'GET', `/account/${account}`, key)).body as Record<
        string,
        unknown
      >;
      const { num_sessions, unique_devices, unique_networks, countries } = body;
      return { num_sessions, unique_devices, unique_networks, countries };
    };
    expect(await facts('over-three')).toEqual(await facts('on-one'));
    expect((await facts('over-three')).num_sessions).toBe(90);
  }, 180_000);
});
