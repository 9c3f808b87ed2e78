/**
 * GET /metrics of a cluster (WEB_CONCURRENCY=2), the compiled server as a real process: whichever
 * worker a scrape lands on, it answers every worker's metrics, summed by the primary.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { makeTestDb, type TestDb } from '../helpers/db';
import {
  compileSources,
  databaseEnv,
  killAll,
  send,
  startServer,
  until,
  type ServerProcess,
} from '../helpers/processes';
import { parseMetrics, valueOf } from '../helpers/prometheus';

const secretKey = randomBytes(32);
let dataDir: string;
let testDb: TestDb;

beforeAll(() => {
  compileSources();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tg-cluster-metrics-'));
}, 120_000);
afterAll(async () => {
  killAll();
  await testDb?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** GET /metrics on a connection of its own (so that either worker may take it). */
function scrape(port: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/metrics', agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      })
      .on('error', reject);
  });
}

/** The pids of the processes that logged a request since line `from`. */
const servedBy = (server: ServerProcess, from: number) =>
  server.lines
    .slice(from)
    .filter((l) => l.msg === 'request')
    .map((l) => l.pid);

describe('GET /metrics with WEB_CONCURRENCY=2', () => {
  test('when requests land on both workers, then every scrape, on either worker, counts them all', async () => {
    testDb = await makeTestDb();
    const server = await startServer(
      { ...databaseEnv(testDb, dataDir, secretKey), WEB_CONCURRENCY: '2', ANALYSIS_ENGINE: 'off' },
      2,
    );
    const workers = new Set(server.lines.filter((l) => l.msg === 'listening').map((l) => l.pid));
    expect(workers.size).toBe(2);

    const from = server.lines.length;
    const REQUESTS = 12;
    for (let i = 0; i < REQUESTS; i++) expect((await send(server.port, 'GET', '/healthz')).status).toBe(200);
    await until(() => servedBy(server, from).length === REQUESTS, 'the request log lines');
    // node:cluster hands connections to the workers in turn: both served some.
    expect(new Set(servedBy(server, from))).toEqual(workers);

    const scrapedBy = new Set<unknown>();
    for (let i = 0; i < 8 && scrapedBy.size < 2; i++) {
      const before = server.lines.length;
      const res = await scrape(server.port);
      expect(res.status).toBe(200);
      const metrics = parseMetrics(res.text);
      expect(
        valueOf(metrics, 'trustgate_http_request_duration_seconds', { operation: 'getHealth', status: '200' }),
      ).toBe(REQUESTS);
      await until(() => servedBy(server, before).length > 0, 'the scrape log line');
      scrapedBy.add(servedBy(server, before)[0]);
    }
    expect(scrapedBy).toEqual(workers);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);
});
