/**
 * IP lists and data files the same on every node: three server processes on one PostgreSQL
 * database behind a round-robin balancer (docs/deploy.md, *Several nodes*). A list changed with
 * `trustgate iplist` is in effect on every node; a node started with other IP data files is
 * shown as differing by the others, and it shows them. PostgreSQL only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataFileHealth, Health } from '../../src/api-types';
import { systemRandom } from '../../src/clock';
import { makeServices } from '../../src/composition';
import { makeSecretBox } from '../../src/security/secrets';
import { makeTestDb, type TestDb } from '../helpers/db';
import { personSession } from '../helpers/evaluation';
import { TOR_IP } from '../helpers/list-server';
import { multiNodeFile, startNodes, type Nodes } from '../helpers/nodes';
import { runCli, send, until } from '../helpers/processes';

const { onPostgres, secretKey, nodeEnv } = multiNodeFile();

onPostgres('three nodes on one database, the third with its own hosting-ASN file', () => {
  let testDb: TestDb;
  let nodes: Nodes | undefined;
  let folder: string;
  afterAll(async () => {
    await nodes?.stop();
    await testDb?.destroy();
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  const health = async (port: number) => (await send(port, 'GET', '/healthz')).body as Health;
  const hostingOf = async (port: number): Promise<DataFileHealth> =>
    (await health(port)).data!.files.find((f) => f.file === 'hosting_asns')!;

  test('then the old list files are imported once, a Tor exit added with trustgate iplist is flagged by every node, and the node with other files is named', async () => {
    testDb = await makeTestDb();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-nodes-lists-'));
    const hostingFile = path.join(folder, 'hosting-asns.txt');
    fs.writeFileSync(hostingFile, '# one more hosting network\n64496\n');
    const services = makeServices({ db: testDb.db, secretBox: makeSecretBox(secretKey, systemRandom) });
    const project = await services.projects.create({ name: 'Lists' });
    const env = {
      ...nodeEnv(testDb),
      TRUST_PROXY: 'loopback',
      IPLIST_WATCH_MS: '200',
    };
    // The first node has list files from before (an installation moving to several nodes): they are imported once.
    const oldLists = path.join(folder, 'old-lists');
    fs.mkdirSync(oldLists);
    fs.writeFileSync(path.join(oldLists, 'fraud.txt'), '192.0.2.66\n198.51.100.0/24\n');
    nodes = await startNodes(3, env, (i) =>
      i === 0 ? { IP_LISTS_DIR: oldLists } : i === 2 ? { HOSTING_ASNS_FILE: hostingFile } : {},
    );
    const ports = nodes.nodes.map((n) => n.port);
    const imported = nodes.nodes.flatMap((n) =>
      n.lines.filter((l) => String(l.msg).startsWith('imported the IP list')),
    );
    expect(imported).toEqual([expect.objectContaining({ dir: oldLists, lists: ['operator/fraud'] })]);
    expect(nodes.nodes[0]!.lines).toContainEqual(expect.objectContaining({ msg: imported[0]!.msg }));

    const added = await runCli(['iplist', 'add', 'tor', TOR_IP], { ...env, DATA_DIR: folder });
    expect(added).toMatchObject({
      code: 0,
      stdout: `added ${TOR_IP}/32 to tor (database table ip_list_texts (operator/tor))\n`,
    });

    for (const port of ports) {
      await until(
        async () => (await health(port)).data!.ip_lists.find((l) => l.list === 'tor')!.entries === 1,
        `node on ${port} to load the tor list`,
      );
      expect((await health(port)).data!.ip_lists.find((l) => l.list === 'fraud')!.entries).toBe(2);
      const session = personSession();
      const posted = await send(
        port,
        'POST',
        '/ingest/session',
        { 'x-project-id': project.project_id, 'x-forwarded-for': TOR_IP },
        session,
      );
      expect(posted.status).toBe(200);
      const evaluated = await send(
        port,
        'POST',
        '/session/unauthenticated',
        { 'x-api-key': project.api_key },
        { session_id: session.session_id },
      );
      expect(evaluated.status).toBe(200);
      expect((evaluated.body as { session: { risk_signals: { tor: boolean } } }).session.risk_signals.tor).toBe(true);
    }

    const [first, second, third] = await Promise.all(ports.map(hostingOf));
    expect(first!.sha256).toBe(second!.sha256);
    expect(third!.sha256).not.toBe(first!.sha256);
    await until(async () => (await hostingOf(ports[0]!)).differing_nodes.length === 1, 'node 1 to see node 3 differ');
    await until(
      async () => (await hostingOf(ports[2]!)).differing_nodes.length === 2,
      'node 3 to see the others differ',
    );
    expect((await hostingOf(ports[0]!)).differing_nodes).toEqual([{ node: expect.any(String), sha256: third!.sha256 }]);
    expect((await hostingOf(ports[1]!)).differing_nodes).toEqual([{ node: expect.any(String), sha256: third!.sha256 }]);
    expect((await hostingOf(ports[2]!)).differing_nodes.map((n) => n.sha256)).toEqual([first!.sha256, first!.sha256]);
    // The city and ASN files are the same everywhere.
    for (const port of ports) {
      const files = (await health(port)).data!.files.filter((f) => f.file !== 'hosting_asns');
      expect(files.map((f) => [f.file, f.differing_nodes])).toEqual([
        ['city', []],
        ['asn', []],
      ]);
    }
    const warned = nodes.nodes[0]!.lines.filter(
      (l) => l.msg === 'other nodes loaded different IP data files (GET /healthz data.files)',
    );
    expect(warned).toHaveLength(1);
  }, 180_000);
});
