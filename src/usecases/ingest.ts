/**
 * SDK ingestion: the first post of a session creates it, later posts update it within 24
 * hours of its start. Enrichment happens here, at the time of the session, so that later
 * changes to the IP data do not rewrite history.
 */
import type { IngestChallenge, IngestSession, IngestSessionResponse } from '../api-types';
import type { Clock, Random } from '../clock';
import { leakedAddresses } from '../domain/enrichment/ip';
import { enrichSession, mergeSdkFacts, type IpIntelligence } from '../domain/enrichment/session';
import {
  CHALLENGE_RETENTION_MS,
  CHALLENGE_TTL_MS,
  challengeAgeMs,
  integrityVerdict,
  macMatches,
  worseVerdict,
  type ChallengeRecord,
  type IntegrityVerdict,
  type ReceivedFacts,
} from '../domain/session/integrity';
import { withDerivedFingerprint } from '../domain/session/fingerprint';
import type { SdkFacts } from '../domain/session/sdk-facts';
import { DAY_MS } from '../domain/numbers';
import { BadRequestError } from '../errors';
import type { IngestChallengeRepository } from '../storage/repositories/ingest-challenges';
import type { ProjectRepository } from '../storage/repositories/projects';
import type { SessionRepository, StoredSession } from '../storage/repositories/sessions';
import type { Db } from '../storage/db';
import { isUniqueViolation } from '../storage/sql';
import type { IpListLookup } from './evaluation';
import { withDeps } from '../with-deps';

export const SESSION_UPDATE_WINDOW_MS = DAY_MS;

export interface IngestDeps {
  db: Db;
  clock: Clock;
  random: Random;
  ipIntelligence: IpIntelligence;
  /** The IP lists (the relay list decides `private_relay`; the others whether the exit hides the person). */
  ipLists: IpListLookup;
  projects: ProjectRepository;
  sessions: SessionRepository;
  challenges: IngestChallengeRepository;
}

/** What the edge saw of a post: the connecting address and the headers ingestion cross-checks. */
export interface IngestRequest {
  ip: string;
  headers: Omit<ReceivedFacts, 'integrity'>;
}

/** The session enriched from what the IP data and the IP lists say of its address and of the browser's leaked ones. */
function enrich({ ipIntelligence, ipLists }: IngestDeps, sdk: SdkFacts, ip: string, startTime: Date) {
  const lists = new Set(ipLists.lookup(ip).map((m) => m.list));
  const leakedCountries = leakedAddresses(sdk.webrtc_ips, ip)
    .map((address) => ipIntelligence.lookup(address).location?.country_code)
    .filter((c): c is string => c !== undefined);
  return enrichSession(sdk, ip, startTime, ipIntelligence.lookup(ip, lists), { lists, leakedCountries });
}

/**
 * The post's challenge as stored, consumed for the post's session when it is fresh and the
 * MAC matches (one conditional update: single use across processes).
 */
async function boundChallenge(
  { challenges }: IngestDeps,
  body: IngestSession,
  projectId: string,
  now: Date,
  trx: Db,
): Promise<ChallengeRecord | undefined> {
  const id = body.integrity?.challenge;
  if (!id) return undefined;
  const found = await challenges.find(id, trx);
  if (!found || found.sessionId !== null || found.projectId !== projectId) return found;
  if (now.getTime() >= found.expiresAt.getTime() || !macMatches(found.key, body, body.integrity!.mac)) return found;
  if (await challenges.consume(id, body.session_id, now, trx)) return { ...found, sessionId: body.session_id };
  // Another post consumed it between the read and the update.
  return challenges.find(id, trx);
}

async function verdictOf(
  deps: IngestDeps,
  body: IngestSession,
  projectId: string,
  now: Date,
  trx: Db,
): Promise<IntegrityVerdict> {
  return integrityVerdict({ body, projectId, now, challenge: await boundChallenge(deps, body, projectId, now, trx) });
}

/** The session's first post or a later one, in one transaction. */
async function upsert(deps: IngestDeps, projectId: string, body: IngestSession, seen: IngestRequest): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (trx) => {
    const existing = await deps.sessions.findInAnyProject(body.session_id, trx);
    if (!existing) await firstPost(deps, projectId, body, seen, now, trx);
    else await laterPost(deps, projectId, body, existing, now, trx);
  });
}

/**
 * A new session: the headers as seen, the integrity verdict of the post (with its timing against
 * its challenge when valid), the fingerprint derived from its components, enriched at its address.
 */
async function firstPost(
  deps: IngestDeps,
  projectId: string,
  body: IngestSession,
  seen: IngestRequest,
  now: Date,
  trx: Db,
): Promise<void> {
  const { session_id: id, integrity: _integrity, ...posted } = body;
  const { ip } = seen;
  const challenge = await boundChallenge(deps, body, projectId, now, trx);
  const integrity = integrityVerdict({ body, projectId, now, challenge });
  const received: ReceivedFacts = { ...seen.headers, integrity };
  if (integrity === 'valid' && challenge) {
    received.first_post = { challenge_age_ms: challengeAgeMs(challenge, now), events: posted.events ?? {} };
  }
  const { facts, claimed } = withDerivedFingerprint(posted);
  if (claimed !== undefined) received.claimed_fingerprint = claimed;
  const sdk: SdkFacts = { ...facts, received };
  await deps.sessions.insert(
    { id, projectId, ipAddress: ip, startTime: now, updatedAt: now, facts: enrich(deps, sdk, ip, now), sdk },
    trx,
  );
}

/** A later post of the project's session within SESSION_UPDATE_WINDOW_MS of its start: its facts merged in. */
async function laterPost(
  deps: IngestDeps,
  projectId: string,
  body: IngestSession,
  existing: StoredSession,
  now: Date,
  trx: Db,
): Promise<void> {
  const { session_id: _id, integrity: _integrity, ...posted } = body;
  if (existing.projectId !== projectId) throw new BadRequestError('session_id belongs to another project');
  if (now.getTime() - existing.startTime.getTime() > SESSION_UPDATE_WINDOW_MS) {
    throw new BadRequestError('Session expired; sessions accept updates for 24 hours after they start');
  }
  const sdk: SdkFacts = existing.sdk ? mergeSdkFacts(existing.sdk, posted) : posted;
  // The headers stay as first seen; a later post bound to a challenge joins its verdict
  // (the SDK's periodic updates carry none and change nothing).
  const received = existing.sdk?.received;
  if (received) {
    sdk.received = body.integrity
      ? { ...received, integrity: worseVerdict(received.integrity, await verdictOf(deps, body, projectId, now, trx)) }
      : received;
  }
  // The session keeps the address and start of its first post.
  const facts = enrich(deps, sdk, existing.ipAddress, existing.startTime);
  await deps.sessions.update({ ...existing, updatedAt: now, facts, sdk }, trx);
}

async function knownProject({ projects }: IngestDeps, projectId: string | undefined): Promise<string> {
  if (!projectId) throw new BadRequestError('header x-project-id (or query parameter project_id) is required');
  if (!(await projects.findById(projectId))) throw new BadRequestError('x-project-id names no project');
  return projectId;
}

/** A fresh single-use challenge for the project's next session post; expired ones are dropped on the way. */
async function challenge(deps: IngestDeps, projectIdGiven: string | undefined): Promise<IngestChallenge> {
  const { clock, random, challenges } = deps;
  const projectId = await knownProject(deps, projectIdGiven);
  const now = clock.now();
  const record = {
    id: random.bytes(16).toString('hex'),
    projectId,
    key: random.bytes(32),
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  };
  await challenges.deleteExpired(new Date(now.getTime() - CHALLENGE_RETENTION_MS));
  await challenges.insert(record);
  return { challenge: record.id, key: record.key.toString('hex'), expires_at: record.expiresAt.toISOString() };
}

async function ingest(
  deps: IngestDeps,
  projectIdGiven: string | undefined,
  body: IngestSession,
  seen: IngestRequest,
): Promise<IngestSessionResponse> {
  const projectId = await knownProject(deps, projectIdGiven);
  try {
    await upsert(deps, projectId, body, seen);
  } catch (err) {
    // Two first posts of one session raced: the loser's post is an update.
    if (!isUniqueViolation(err)) throw err;
    await upsert(deps, projectId, body, seen);
  }
  return { session_id: body.session_id };
}

export function makeIngestUseCases(deps: IngestDeps) {
  const given = withDeps(deps);
  return { challenge: given(challenge), ingest: given(ingest) };
}

export type IngestUseCases = ReturnType<typeof makeIngestUseCases>;
