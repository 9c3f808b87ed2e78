/**
 * How a webhook reaches its receiver: one POST over node:http(s), connected only to addresses
 * that passed the target policy.
 *
 * A name is resolved once per connection, inside the socket's own `lookup`: every address of
 * the answer is checked and the socket connects to those addresses and no others. There is no
 * second look-up between the check and the connection for a name to answer differently
 * (DNS rebinding). An address written in the URL (WHATWG URL has already read `2130706433`,
 * `0177.0.0.1` and `0x7f.0.0.1` as `127.0.0.1`) is checked before connecting. Keep-alive
 * connections are pooled per transport, so a pooled socket was always opened under this
 * transport's policy. Redirects are not followed.
 *
 * The policy: the address must be public (`isPublicIp`: not private, loopback, link-local,
 * reserved, nor a 6to4, Teredo or NAT64 address carrying such an IPv4, nor `::/96`), and the
 * name must not be `localhost` or under `.localhost`, unless `allowPrivate`
 * (WEBHOOK_ALLOW_PRIVATE, for local use and tests). Cloud metadata endpoints are refused even
 * then: a webhook URL is never a way to read the machine's credentials.
 */
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isPublicIp, normaliseIp } from '../domain/enrichment/ip';

/** The addresses a name resolves to (dns.lookup with `all: true` at the edge; tests inject theirs). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (host) => dns.lookup(host, { all: true, verbatim: true });

/** A target the policy refuses: the webhook fails at once, without a request and without retries. */
export class RefusedTargetError extends Error {}

export interface WebhookResponse {
  status: number;
  retryAfter: string | null;
  /** The answer's body (UTF-8, at most `keepBody` bytes), when the caller asked for it. */
  body?: string;
}

export type PostWebhook = (
  url: string,
  init: {
    headers: Record<string, string>;
    body: string;
    signal: AbortSignal;
    /** Keep up to this many bytes of the answer's body (`trustgate webhooks test` prints it); deliveries discard it. */
    keepBody?: number;
  },
) => Promise<WebhookResponse>;

/** Cloud metadata services (AWS, GCP, Azure, Alibaba, ECS), by name and by address. */
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
]);
const METADATA_ADDRESSES = new Set([
  '169.254.169.254',
  'fd00:ec2::254',
  '169.254.170.2',
  '169.254.170.23',
  'fd00:ec2::23',
  '168.63.129.16',
  '100.100.100.200',
]);

const ALLOW_HINT = '(set WEBHOOK_ALLOW_PRIVATE=1 to allow)';

/** Why a host name (lower case, no trailing dot) is refused before any look-up; undefined when it is not. */
export function refusedName(name: string, allowPrivate: boolean): string | undefined {
  if (METADATA_NAMES.has(name)) return `refused: ${name} is a cloud metadata service`;
  if (!allowPrivate && (name === 'localhost' || name.endsWith('.localhost')))
    return `refused: ${name} is this machine ${ALLOW_HINT}`;
  return undefined;
}

/** Why an address is refused; undefined when it is not. `host` names it in the message (the URL's name, or the address itself). */
export function refusedAddress(host: string, address: string, allowPrivate: boolean): string | undefined {
  const what = host === address ? address : `${host} resolves to ${address}, which`;
  if (METADATA_ADDRESSES.has(normaliseIp(address))) return `refused: ${what} is a cloud metadata service`;
  if (!allowPrivate && !isPublicIp(address))
    return `refused: ${what} is a private, loopback, link-local or reserved address ${ALLOW_HINT}`;
  return undefined;
}

/** What a failed post says in a delivery record or on the console: the time limit, or the error with its code. */
export function describePostError(err: unknown, timeoutMs: number): string {
  const e = err as Error & { code?: string };
  if (e.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  return `${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`;
}

export function makeWebhookTransport(options: { allowPrivate: boolean; resolve?: Resolve }) {
  const { allowPrivate } = options;
  const resolve = options.resolve ?? systemResolve;
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  /** The socket's look-up: one resolution, every address checked, only those handed to the connection. */
  const lookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (answer) => {
        for (const { address } of answer) {
          const refused = refusedAddress(hostname, address, allowPrivate);
          if (refused) return callback(new RefusedTargetError(refused), '', 0);
        }
        const wanted = lookupOptions.family ? answer.filter((a) => a.family === lookupOptions.family) : answer;
        const [first] = wanted;
        if (first === undefined)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        if (lookupOptions.all) return callback(null, wanted);
        callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };

  const send: PostWebhook = (url, { headers, body, signal, keepBody = 0 }) => {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return Promise.reject(new RefusedTargetError(`refused: ${target.protocol} is not http or https`));
    const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const refused = net.isIP(host)
      ? refusedAddress(host, host, allowPrivate)
      : refusedName(host.replace(/\.+$/, ''), allowPrivate);
    if (refused) return Promise.reject(new RefusedTargetError(refused));
    const secure = target.protocol === 'https:';
    return new Promise<WebhookResponse>((settle, reject) => {
      const request = (secure ? https : http).request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: secure ? agents.https : agents.http,
          lookup,
          signal,
        },
        (response) => {
          const kept: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size >= keepBody) return;
            kept.push(chunk.subarray(0, keepBody - size));
            size += chunk.length;
          });
          response.on('end', () => {
            const retryAfter = response.headers['retry-after'];
            settle({
              status: response.statusCode ?? 0,
              retryAfter: retryAfter ?? null,
              ...(keepBody > 0 ? { body: Buffer.concat(kept).toString('utf8') } : {}),
            });
          });
          response.on('error', (err) => reject(signal.aborted ? signal.reason : err));
        },
      );
      // Aborted by the time limit: the limit's own TimeoutError, as fetch reports it.
      request.on('error', (err) =>
        reject(signal.aborted ? signal.reason : Object.assign(err, { reusedSocket: request.reusedSocket })),
      );
      request.end(body);
    });
  };

  /**
   * A kept-alive connection the receiver closed as it went idle fails when it is reused, before
   * the request is read (a server's keep-alive timeout, 5 s in Node's, races the reuse): sent
   * once more, on a fresh connection, as Node's documentation advises, instead of failing the
   * attempt and waiting out a retry. The receiver closed it without an answer; one that had read
   * the request sees the event id twice, which at-least-once delivery allows (`x-event-id`).
   */
  const post: PostWebhook = (url, options) =>
    send(url, options).catch((err: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
      if (err.reusedSocket === true && err.code === 'ECONNRESET' && !options.signal.aborted) return send(url, options);
      throw err;
    });

  return {
    post,
    /** Closes the pooled keep-alive connections. */
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export type WebhookTransport = ReturnType<typeof makeWebhookTransport>;
