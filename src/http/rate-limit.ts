/**
 * Rate limits (express-rate-limit): requests per minute per API key (the key's hash names the
 * bucket, so keys are not kept in the clear; requests without a key are limited per client
 * address; exports and webhook replays also per key in a lower limit of their own, `bulk`),
 * failed authentications per client address (an unknown key has a bucket of its
 * own in the per-key limit, so random keys would never meet it), and the public routes (the
 * SDK's posts, the public verification link) per client address and per project. Which of them
 * a request meets follows from its operation: operation-limits.ts.
 *
 * The counts are kept in the database by default, so that every process on it (the workers of
 * one machine, several machines on one PostgreSQL) shares one limit: fixed 60-second windows,
 * an upsert that returns the window's count (one per request and limiter for a key seen now and
 * then, one per lease of a busy key: makeSharedCounters), past windows dropped once a window by
 * each process. `RATE_LIMIT_STORE=memory` keeps them per process instead
 * (express-rate-limit's MemoryStore: no write per request, but N processes allow N times the
 * limits).
 */
import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type Options, type Store } from 'express-rate-limit';
import type { ErrorBody } from '../api-types';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { normaliseEmail } from '../domain/operators';
import type { Logger } from '../logger';
import { hashApiKey } from '../security/secrets';
import type { RateLimitRepository } from '../storage/repositories/rate-limits';

export const RATE_LIMIT_WINDOW_MS = 60_000;

/** The fixed window that holds `now` (milliseconds since the epoch). */
function windowAt(now: number): { start: number; end: number } {
  const start = now - (now % RATE_LIMIT_WINDOW_MS);
  return { start, end: start + RATE_LIMIT_WINDOW_MS };
}

export interface RateLimitDeps {
  store: Config['rateLimitStore'];
  counters: RateLimitRepository;
  clock: Clock;
  logger: Logger;
}

/**
 * A lease: hits of one key and window that this process has already counted in the database
 * (the window's count went from `last - size` to `last`) and hands out one by one, `next` the
 * next of them. Its ordinals are this process's alone, so whatever the processes do with their
 * leases no two hits share an ordinal, and a limit allows exactly the hits whose ordinal is
 * within it.
 */
interface Lease {
  next: number;
  last: number;
  size: number;
  /** When it was taken (ms): how fast the key's hits came, for the size of the next. */
  takenAt: number;
}

/** The traffic one lease is meant to cover: what this process saw of the key in this long. */
export const LEASE_SPAN_MS = 100;
/** The most hits one lease takes. */
export const MAX_LEASE = 1000;
/** A lease takes at most this fraction of what is left of the limit (1 / LEASE_SHARE). */
export const LEASE_SHARE = 16;
/**
 * The most keys a process keeps leases of in a window (about 250 bytes each). The keys are the
 * clients' (an address, a project id header), so without a bound a crowd of addresses would
 * grow the map for the rest of the minute; past it, a key not yet held is counted one write a
 * hit, as if there were no leases.
 */
export const MAX_LEASED_KEYS = 10_000;

/**
 * How many hits the next lease of a key takes: one, unless the key's last lease went fast
 * (then as many as this process saw of it in LEASE_SPAN_MS at that pace), and never more than
 * 1/LEASE_SHARE of what the window's count left of the limit (`limit` undefined: one, always).
 * A key near its limit, a small limit, or a key seen now and then is counted one hit at a time,
 * as if there were no leases.
 */
export function leaseSize(previous: Lease | undefined, now: number, limit: number | undefined): number {
  if (previous === undefined || limit === undefined) return 1;
  const wanted = Math.ceil((previous.size * LEASE_SPAN_MS) / Math.max(1, now - previous.takenAt));
  const room = Math.floor((limit - previous.last) / LEASE_SHARE);
  return Math.max(1, Math.min(wanted, room, MAX_LEASE));
}

/**
 * The database's counters, shared by the limiters of one app. At the first hit of each window
 * the windows before the previous one are deleted (the previous one stays for processes whose
 * clocks lag); that delete is not awaited by the request.
 *
 * A busy key is counted in leases (`Lease`, `leaseSize`): one upsert counts the next several
 * hits, and this process hands them out without writing, so a project's key hit a thousand
 * times a second by each of N processes costs each about ten writes a second, not a thousand (on
 * PostgreSQL each write also waits for the row's lock behind every other). Each hit still gets
 * its own ordinal in the window's shared count, so a limit is never exceeded; what a lease
 * took and this process did not use before the window ended counted against the key, so a busy
 * key can meet its limit early by at most N leases (each under 1/16 of what was left), never
 * late. Once this process knows a key is past its limit, its further hits in the window are
 * counted here only: refused requests write nothing.
 */
export function makeSharedCounters({ counters, clock, logger }: RateLimitDeps) {
  let cleanedFor = -1;
  let leases = new Map<string, Lease | Promise<Lease>>();
  const current = () => windowAt(clock.now().getTime());
  /** The window's count after one more hit of `bucket`: from a lease, or a new one taken. */
  async function hit(bucket: string, limit: number | undefined): Promise<{ totalHits: number; resetTime: Date }> {
    for (;;) {
      const now = clock.now().getTime();
      const window = windowAt(now);
      if (window.start !== cleanedFor) {
        cleanedFor = window.start;
        leases = new Map();
        counters
          .deleteBefore(window.start - RATE_LIMIT_WINDOW_MS)
          .catch((err: Error) => logger.warn({ err: err.message }, 'past rate-limit windows could not be deleted'));
      }
      const resetTime = new Date(window.end);
      const held = leases.get(bucket);
      if (held instanceof Promise) {
        // Another request of this process is taking the key's next lease: take from that one.
        await held.catch(() => undefined);
        continue;
      }
      if (held && held.next <= held.last) return { totalHits: held.next++, resetTime };
      if (held && limit !== undefined && held.last >= limit) {
        held.next = ++held.last + 1;
        return { totalHits: held.last, resetTime };
      }
      // Without a limit a lease is one hit and tells nothing: nothing to keep. Nor past the bound.
      if (held === undefined && (limit === undefined || leases.size >= MAX_LEASED_KEYS))
        return { totalHits: await counters.hit(bucket, window.start), resetTime };
      const size = leaseSize(held, now, limit);
      const map = leases;
      const taking = counters
        .hit(bucket, window.start, size)
        .then((last): Lease => ({ next: last - size + 1, last, size, takenAt: now }));
      map.set(bucket, taking);
      let lease: Lease;
      try {
        lease = await taking;
      } catch (err) {
        if (map.get(bucket) === taking) map.delete(bucket);
        throw err;
      }
      if (map.get(bucket) === taking) map.set(bucket, lease);
      // This request takes the lease's first hit; other requests of this process the rest.
      return { totalHits: lease.next++, resetTime };
    }
  }
  return {
    hit,
    async get(bucket: string) {
      const window = current();
      return { totalHits: await counters.hits(bucket, window.start), resetTime: new Date(window.end) };
    },
    unhit(bucket: string) {
      leases.delete(bucket);
      return counters.unhit(bucket, current().start);
    },
    reset(bucket: string) {
      leases.delete(bucket);
      return counters.reset(bucket, current().start);
    },
  };
}

/**
 * An express-rate-limit Store on the shared counters; `name` keeps the limiters' buckets apart.
 * The limiter tells the store its limit (`init`), which sizes the leases; a store used without
 * one (the console's sign-ins, the failed authentications) counts each hit with its own write.
 */
function databaseStore(shared: ReturnType<typeof makeSharedCounters>, name: string): Store {
  // A fixed-size bucket whatever the key (a project id header can be long), and no client address in the clear.
  const bucket = (key: string) => createHash('sha256').update(`${name}\n${key}`, 'utf8').digest('hex');
  let limit: number | undefined;
  return {
    localKeys: false,
    prefix: `${name}:`,
    init(options) {
      limit = typeof options.limit === 'number' ? options.limit : undefined;
    },
    increment: (key) => shared.hit(bucket(key), limit),
    get: (key) => shared.get(bucket(key)),
    decrement: (key) => shared.unhit(bucket(key)),
    resetKey: (key) => shared.reset(bucket(key)),
  };
}

export function tooManyRequests(res: Response, retryAfterSeconds: number, message: string): void {
  res.setHeader('Retry-After', String(retryAfterSeconds));
  const body: ErrorBody = { statusCode: 429, message };
  res.status(429).json(body);
}

/** The failed-authentication limit of one app (makeRateLimits().authFailures). */
export interface AuthFailureLimit {
  /** Before the validator: 429 for a key this process does not know, from an address past its limit. */
  guard: RequestHandler;
  /** Counts one failed authentication of the request's address. */
  failed(req: Request): Promise<void>;
}

/** Seconds until a window that ends at `resetTime` is over (at least 1). */
const secondsLeft = (resetTime: Date | undefined, now: number) =>
  Math.max(1, Math.ceil(((resetTime?.getTime() ?? now + RATE_LIMIT_WINDOW_MS) - now) / 1000));

/** What the limits of one app are built from: its deps, a store by name, and a limiter on one. */
interface Limiters {
  deps: RateLimitDeps;
  storeNamed(name: string): Store;
  limiter(name: string, options: Partial<Options>): RequestHandler;
  /** The time the store counts by (ms): the injected clock for the database's windows, the system's for MemoryStore. */
  now(): number;
}

function limitersOf(deps: RateLimitDeps): Limiters {
  const shared = makeSharedCounters(deps);
  const storeNamed = (name: string): Store => {
    if (deps.store === 'database') return databaseStore(shared, name);
    const memory = new MemoryStore();
    memory.init({ windowMs: RATE_LIMIT_WINDOW_MS } as Options);
    return memory;
  };
  return {
    deps,
    storeNamed,
    now: deps.store === 'database' ? () => deps.clock.now().getTime() : () => Date.now(),
    limiter: (name, options) =>
      rateLimit({
        windowMs: RATE_LIMIT_WINDOW_MS,
        legacyHeaders: false,
        // A counter that cannot be read (the database is down or busy) lets the request through: the
        // request then fails or succeeds on its own, and the failure is logged.
        passOnStoreError: true,
        logger: {
          error: (err, message) => deps.logger.error({ err }, message ?? 'rate limiter error'),
          warn: (err, message) => deps.logger.warn({ err }, message ?? 'rate limiter warning'),
        },
        store: storeNamed(name),
        ...options,
      }),
  };
}

/**
 * A public route's two limits: per client address, and per project (named by the
 * `x-project-id` header or the `project_id` query parameter). `name` keeps the buckets apart;
 * `what` says what was counted in the 429's message.
 */
const perAddressAndProject =
  ({ limiter }: Limiters, name: string, what: string) =>
  (perIp: number, perProject: number): RequestHandler[] => {
    const limited = (per: string) => (_req: unknown, res: Response) =>
      tooManyRequests(res, 60, `Too many ${what} for this ${per}; retry after 60 seconds`);
    return [
      limiter(`${name}-ip`, {
        limit: perIp,
        standardHeaders: 'draft-6',
        keyGenerator: (req) => ipKeyGenerator(req.ip ?? ''),
        handler: limited('address'),
      }),
      limiter(`${name}-project`, {
        limit: perProject,
        standardHeaders: false,
        keyGenerator: (req) => `project:${req.header('x-project-id') ?? String(req.query.project_id ?? '')}`,
        handler: limited('project'),
      }),
    ];
  };

/** Console sign-ins: see makeRateLimits().consoleLogins. */
function consoleLogins({ deps, storeNamed, now }: Limiters, perIp: number, perAccount: number) {
  const byIp = storeNamed('console-login-ip');
  const byAccount = storeNamed('console-login-account');
  return async (req: Request, email: string): Promise<{ retryAfter: number; per: string } | undefined> => {
    try {
      const ip = await byIp.increment(`ip:${ipKeyGenerator(req.ip ?? '')}`);
      const account = await byAccount.increment(`email:${normaliseEmail(email)}`);
      if (ip.totalHits > perIp) return { retryAfter: secondsLeft(ip.resetTime, now()), per: 'address' };
      if (account.totalHits > perAccount) return { retryAfter: secondsLeft(account.resetTime, now()), per: 'account' };
    } catch (err) {
      deps.logger.error({ err }, 'console sign-in counter error; attempt not limited');
    }
    return undefined;
  };
}

/**
 * A limit per key (requests without one: per client address), in the buckets of `name`; `what`
 * says what was counted in the 429's message.
 */
function perApiKey({ limiter, now }: Limiters, name: string, what: string, perMinute: number): RequestHandler {
  return limiter(name, {
    limit: perMinute,
    standardHeaders: 'draft-6',
    keyGenerator: (req) => {
      const key = req.header('x-api-key');
      return key ? `key:${hashApiKey(key)}` : `ip:${ipKeyGenerator(req.ip ?? '')}`;
    },
    handler: (req, res) => {
      const retryAfter = secondsLeft((req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime, now());
      const per = req.header('x-api-key') ? 'API key' : 'address';
      tooManyRequests(
        res,
        retryAfter,
        `Too many ${what} for this ${per} (limit ${perMinute} per minute); retry after ${retryAfter} seconds`,
      );
    },
  });
}

/** Failed authentications: see makeRateLimits().authFailures. */
function authFailures(
  { deps, storeNamed, now }: Limiters,
  perMinute: number,
  knownKey: (apiKey: string) => boolean,
): AuthFailureLimit {
  const store = storeNamed('auth-failures');
  const bucket = (req: Request) => `ip:${ipKeyGenerator(req.ip ?? '')}`;
  const storeFailed = (err: unknown) =>
    deps.logger.error({ err }, 'failed-authentication counter error; request not limited');
  const guard: RequestHandler = async (req, res, next) => {
    const apiKey = req.header('x-api-key');
    if (!apiKey || knownKey(apiKey)) return next();
    let info;
    try {
      info = await store.get!(bucket(req));
    } catch (err) {
      storeFailed(err);
      return next();
    }
    if ((info?.totalHits ?? 0) < perMinute) return next();
    const retryAfter = secondsLeft(info?.resetTime, now());
    tooManyRequests(
      res,
      retryAfter,
      `Too many failed authentications from this address (limit ${perMinute} per minute); retry after ${retryAfter} seconds`,
    );
  };
  return {
    guard,
    async failed(req: Request): Promise<void> {
      try {
        await store.increment(bucket(req));
      } catch (err) {
        storeFailed(err);
      }
    },
  };
}

export function makeRateLimits(deps: RateLimitDeps) {
  const limiters = limitersOf(deps);
  return {
    /**
     * Console sign-ins (POST /console/login): every attempt is counted, per client address and
     * per email (lower-cased, hashed into its bucket like every key), before the password is
     * checked; past either limit `attempt` gives the seconds to wait, and the password is not
     * checked at all. A store that cannot be written lets the attempt through (logged), as the
     * other limits do.
     */
    consoleLogins: (perIp: number, perAccount: number) => consoleLogins(limiters, perIp, perAccount),

    /** SDK posts: per client address, and per project. */
    ingest: perAddressAndProject(limiters, 'ingest', 'session posts'),

    /** The public verification link (each visit starts a session): per client address, and per project. */
    publicRedirect: perAddressAndProject(
      limiters,
      'public-redirect',
      'verification sessions started from the public link',
    ),

    /** The API: per key. */
    api: (perMinute: number): RequestHandler => perApiKey(limiters, 'api', 'requests', perMinute),

    /** Exports and webhook replays, on top of the API's limit: per key. */
    bulk: (perMinute: number): RequestHandler =>
      perApiKey(limiters, 'api-bulk', 'exports and webhook replays', perMinute),

    /**
     * Failed authentications (an API key presented and not found) per client address and
     * minute, in the same store as the other limits. `failed(req)` counts one (the ApiKeyAuth
     * handler calls it); `guard`, before the validator, answers 429 to a request whose key is
     * not one this process already knows (`knownKey`: the API key cache) once its address has
     * failed `perMinute` times in the window, so it is not even looked up. A request with a
     * cached key reads no counter: the limit costs nothing on the hot path. A store that cannot
     * be read or written lets the request through, as the other limits do, and is logged.
     */
    authFailures: (perMinute: number, knownKey: (apiKey: string) => boolean): AuthFailureLimit =>
      authFailures(limiters, perMinute, knownKey),
  };
}
