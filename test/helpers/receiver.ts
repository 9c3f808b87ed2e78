/** A webhook receiver on loopback: records every request and answers as told (200 by default). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Each request gets the next behaviour: a status code, or 'hang' (never answer); then 200. */
export async function webhookReceiver(behaviours: (number | 'hang')[] = []): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = behaviours.shift() ?? 200;
      if (next === 'hang') return;
      res.writeHead(next, next === 429 ? { 'retry-after': '7' } : {}).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
