/**
 * Several nodes of one service, as a multi-node deployment runs them: server processes on one
 * PostgreSQL database, each with a data folder and a port of its own, behind a round-robin
 * balancer (a real HTTP proxy on loopback).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestDb } from './db';
import { compileSources, databaseEnv, killAll, startServer, type ServerProcess } from './processes';

/**
 * A file of multi-node tests: on PostgreSQL only (the way to run several nodes; skipped without
 * DATABASE_URL), the sources compiled once before and every process killed after, and what each
 * node is given: the database and one secret key, with no webhook worker and no analysis models
 * (each node gets a DATA_DIR of its own from startNodes).
 */
export function multiNodeFile(): {
  onPostgres: jest.Describe;
  secretKey: Buffer;
  nodeEnv(testDb: TestDb): NodeJS.ProcessEnv;
} {
  const secretKey = randomBytes(32);
  beforeAll(() => {
    if (process.env.DATABASE_URL) compileSources();
  }, 120_000);
  afterAll(() => {
    killAll();
  });
  return {
    onPostgres: process.env.DATABASE_URL ? describe : describe.skip,
    secretKey,
    nodeEnv: (testDb) => ({
      ...databaseEnv(testDb, '/nonexistent', secretKey),
      WEBHOOK_WORKER: 'off',
      ANALYSIS_ENGINE: 'off',
    }),
  };
}

export interface Balancer {
  port: number;
  close(): Promise<void>;
}

/**
 * Hands each request to the next of `ports` in turn, on a connection of its own, and passes the
 * answer back unchanged; a node that cannot be reached answers 502.
 */
export async function roundRobin(ports: readonly number[]): Promise<Balancer> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const port = ports[next++ % ports.length]!;
    const upstream = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Nodes {
  nodes: ServerProcess[];
  /** Each node's DATA_DIR, in the order of `nodes`. */
  dataDirs: string[];
  balancer: Balancer;
  /** SIGTERM to every node still running, the balancer closed, the data folders removed. */
  stop(): Promise<void>;
}

/**
 * `count` nodes started at once with `env` (which names the database), each with a DATA_DIR of
 * its own and what `own(i)` adds for node i (a setting one node has differently).
 */
export async function startNodes(
  count: number,
  env: NodeJS.ProcessEnv,
  own: (i: number) => NodeJS.ProcessEnv = () => ({}),
): Promise<Nodes> {
  const dataDirs = Array.from({ length: count }, () => fs.mkdtempSync(path.join(os.tmpdir(), 'tg-node-')));
  const nodes = await Promise.all(dataDirs.map((dir, i) => startServer({ ...env, DATA_DIR: dir, ...own(i) })));
  const balancer = await roundRobin(nodes.map((n) => n.port));
  return {
    nodes,
    dataDirs,
    balancer,
    async stop() {
      await balancer.close();
      for (const n of nodes) if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGTERM');
      await Promise.all(nodes.map((n) => n.exited));
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
