/** Published IP lists as fixtures, and a loopback server that serves them (as the Tor Project, Apple and GitHub would). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An address of an iCloud Private Relay egress range (Akamai's relay AS, 36183), inside RELAY_CSV. */
export const RELAY_IP = '172.224.226.7';
/** A Tor exit in TOR_LIST. */
export const TOR_IP = '185.220.100.9';
/** An address of a block in VPN_LIST. */
export const VPN_IP = '198.51.100.77';

/** The Tor Project's bulk exit list: one address a line (`count` of them). */
export function torList(count = 150): string {
  return (
    Array.from({ length: count }, (_, i) => `185.220.${100 + Math.floor(i / 250)}.${(i % 250) + 1}`).join('\n') + '\n'
  );
}

/** Apple's egress-ip-ranges.csv: range, country, region, city, (empty) postal code; IPv4 and IPv6. */
export function relayCsv(count = 1200): string {
  const lines = ['172.224.226.0/27,GB,GB-EN,London,'];
  for (let i = 1; i < count; i++) {
    lines.push(
      i % 2
        ? `172.225.${Math.floor(i / 8)}.${(i % 8) * 32}/27,US,US-CA,Los Angeles,`
        : `2a02:26f7:b3c0:${i.toString(16)}::/64,DE,DE-BE,Berlin,`,
    );
  }
  return lines.join('\n') + '\n';
}

/** X4BNet's lists_vpn output: one CIDR block a line. */
export function vpnList(count = 120): string {
  return (
    [
      '198.51.100.0/24',
      ...Array.from({ length: count - 1 }, (_, i) => `100.${64 + Math.floor(i / 200)}.${i % 200}.0/24`),
    ].join('\n') + '\n'
  );
}

export interface ListServer {
  /** The URL of a path on the server. */
  url(pathname: string): string;
  /** What each path answers from now on: a body (200), a status, or 'hang' (never answers). */
  serve(pathname: string, answer: string | number | 'hang'): void;
  close(): Promise<void>;
}

export async function listServer(): Promise<ListServer> {
  const answers = new Map<string, string | number>();
  const server = http.createServer((req, res) => {
    const answer = answers.get(req.url ?? '') ?? 404;
    if (answer === 'hang') return;
    if (typeof answer === 'number') return void res.writeHead(answer).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(answer);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (pathname) => `http://127.0.0.1:${port}${pathname}`,
    serve: (pathname, answer) => void answers.set(pathname, answer),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
