/**
 * Several nodes, one service: three server processes (each with a DATA_DIR and a port of its
 * own) on one PostgreSQL database, behind a round-robin balancer, as a multi-node deployment
 * runs them (docs/deploy.md, *Several nodes*). PostgreSQL only: it is the way to run several.
 */
import fs from 'node:fs';
import path from 'node:path';
import { makeTestDb, type TestDb } from '../helpers/db';
import { multiNodeFile, startNodes, type Nodes } from '../helpers/nodes';

const { onPostgres, nodeEnv } = multiNodeFile();

onPostgres('three nodes started at once on an empty database', () => {
  let testDb: TestDb;
  let nodes: Nodes | undefined;
  afterAll(async () => {
    await nodes?.stop();
    await testDb?.destroy();
  });

  test('then they migrate it once and make one default project, whose credentials file is on the node that made it, which says so', async () => {
    testDb = await makeTestDb({ migrate: false });
    nodes = await startNodes(3, nodeEnv(testDb));

    const projects = await testDb.db('projects').where({ demo: false }).select('id');
    expect(projects).toHaveLength(1);
    const files = nodes.dataDirs.map((dir) => path.join(dir, 'default-project.json')).filter((f) => fs.existsSync(f));
    expect(files).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(files[0]!, 'utf8'))).toMatchObject({ project_id: projects[0].id });
    const said = nodes.nodes.flatMap((n) =>
      n.lines.filter((l) => String(l.msg).startsWith('created a default project')),
    );
    expect(said).toEqual([
      expect.objectContaining({ projectId: projects[0].id, file: files[0], host: expect.any(String) }),
    ]);
  }, 120_000);
});
