/**
 * What the server itself saw of a session's posts, beside what the SDK claims: the request's
 * headers, and whether the post that made the session was bound to a single-use challenge
 * (POST /ingest/challenge). Pure: the challenge's record is looked up at the edge and passed in.
 *
 * The binding: `mac = hex(HMAC-SHA256(key, canonicalJson(body without integrity)))`, with the
 * challenge's own random key. The key is handed to whoever asks for a challenge (a browser
 * cannot keep a secret), so a valid MAC proves that the post was made after asking this
 * server, within the challenge's life, and not changed since; not that the SDK made it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IngestEvents, IngestIntegrity, IngestSession } from '../../api-types';
import { HOUR_MS, MINUTE_MS } from '../numbers';

/** How long a challenge can be consumed after it is issued. */
export const CHALLENGE_TTL_MS = 5 * MINUTE_MS;
/** Challenges are kept this long after they expire (a late replay then reads as unknown: forged). */
export const CHALLENGE_RETENTION_MS = HOUR_MS;

/**
 * The verdict on the challenge binding of the posts that made and updated a session:
 * - `valid`: bound to a fresh challenge of the project, the MAC matches;
 * - `replayed`: the challenge had already made another session;
 * - `forged`: no binding on a web post, an unknown, expired or foreign challenge, or a MAC that does not match;
 * - `unsigned_native`: a native SDK post without a binding (native apps may omit it).
 */
export type IntegrityVerdict = 'valid' | 'replayed' | 'forged' | 'unsigned_native';

/** What the edge saw of the request: its headers (absent when not sent) and the challenge verdict. */
export interface ReceivedFacts {
  user_agent?: string;
  /** `Sec-CH-UA`, `Sec-CH-UA-Mobile`, `Sec-CH-UA-Platform` as sent. */
  sec_ch_ua?: string;
  sec_ch_ua_mobile?: string;
  sec_ch_ua_platform?: string;
  accept_language?: string;
  integrity: IntegrityVerdict;
  /**
   * The post that made the session, when it was validly bound: how long after its challenge was
   * issued it arrived, and the event counts it carried (later posts only ever raise them).
   */
  first_post?: { challenge_age_ms: number; events: IngestEvents };
  /** The `browser_fingerprint` the post that made the session claimed beside the components the server derived its own from. */
  claimed_fingerprint?: string;
}

/** A challenge as stored. */
export interface ChallengeRecord {
  id: string;
  projectId: string;
  /** 32 bytes. */
  key: Buffer;
  expiresAt: Date;
  /** The session it made, once consumed. */
  sessionId: string | null;
}

/** JSON with object members sorted by name at every depth, as `JSON.stringify` writes values. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The MAC of a post: hex HMAC-SHA256 of its canonical JSON without `integrity`. */
export function payloadMac(key: Buffer, body: IngestSession): string {
  const { integrity: _integrity, ...content } = body;
  return createHmac('sha256', key).update(canonicalJson(content), 'utf8').digest('hex');
}

/** The post's MAC matches, compared in constant time. */
export function macMatches(key: Buffer, body: IngestSession, mac: string): boolean {
  const expected = Buffer.from(payloadMac(key, body), 'hex');
  const given = /^[0-9a-f]{64}$/.test(mac) ? Buffer.from(mac, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The verdict on one post. `challenge` is the stored record the post names (undefined when
 * none or unknown); `sessionId` the post's session.
 */
export function integrityVerdict(input: {
  body: IngestSession;
  projectId: string;
  challenge: ChallengeRecord | undefined;
  now: Date;
}): IntegrityVerdict {
  const { body, projectId, challenge, now } = input;
  const integrity: IngestIntegrity | undefined = body.integrity;
  if (!integrity) return body.source === 'web' ? 'forged' : 'unsigned_native';
  if (!challenge || challenge.projectId !== projectId) return 'forged';
  if (challenge.sessionId !== null && challenge.sessionId !== body.session_id) return 'replayed';
  if (challenge.sessionId === null && now.getTime() >= challenge.expiresAt.getTime()) return 'forged';
  return macMatches(challenge.key, body, integrity.mac) ? 'valid' : 'forged';
}

/** How long before `now` the challenge was issued (it expires CHALLENGE_TTL_MS after). */
export function challengeAgeMs(challenge: ChallengeRecord, now: Date): number {
  return now.getTime() - (challenge.expiresAt.getTime() - CHALLENGE_TTL_MS);
}

const SEVERITY: Record<IntegrityVerdict, number> = { valid: 0, unsigned_native: 1, forged: 2, replayed: 3 };

/** A later post's verdict joins the session's: the worst one stays. */
export function worseVerdict(a: IntegrityVerdict, b: IntegrityVerdict): IntegrityVerdict {
  return SEVERITY[b] > SEVERITY[a] ? b : a;
}
