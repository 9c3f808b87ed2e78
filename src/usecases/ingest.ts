/**
 * SDK ingestion: the first post of a session creates it, later posts update it within 24
 * hours of its start. Enrichment happens here, at the time of the session, so that later
 * changes to the IP data do not rewrite history.
 */
import type { IngestSession, IngestSessionResponse } from '../api-types';
import type { Clock } from '../clock';
import { leakedAddresses } from '../domain/enrichment/ip';
import { enrichSession, mergeSdkFacts, type IpIntelligence } from '../domain/enrichment/session';
import type { SdkFacts } from '../domain/session/sdk-facts';
import { DAY_MS } from '../domain/numbers';
import { BadRequestError } from '../errors';
import type { ProjectRepository } from '../storage/repositories/projects';
import type { SessionRepository } from '../storage/repositories/sessions';
import type { Db } from '../storage/db';
import type { IpListLookup } from './evaluation';

export const SESSION_UPDATE_WINDOW_MS = DAY_MS;

export interface IngestDeps {
  db: Db;
  clock: Clock;
  ipIntelligence: IpIntelligence;
  /** The IP lists (the relay list decides `private_relay`; the others whether the exit hides the person). */
  ipLists: IpListLookup;
  projects: ProjectRepository;
  sessions: SessionRepository;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

export function makeIngestUseCases({ db, clock, ipIntelligence, ipLists, projects, sessions }: IngestDeps) {
  /** The session enriched from what the IP data and the IP lists say of its address and of the browser's leaked ones. */
  function enrich(sdk: SdkFacts, ip: string, startTime: Date) {
    const lists = new Set(ipLists.lookup(ip).map((m) => m.list));
    const leakedCountries = leakedAddresses(sdk.webrtc_ips, ip)
      .map((address) => ipIntelligence.lookup(address).location?.country_code)
      .filter((c): c is string => c !== undefined);
    return enrichSession(sdk, ip, startTime, ipIntelligence.lookup(ip, lists), { lists, leakedCountries });
  }

  async function upsert(projectId: string, body: IngestSession, ip: string): Promise<void> {
    const { session_id: id, ...posted } = body;
    const now = clock.now();
    await db.transaction(async (trx) => {
      const existing = await sessions.findInAnyProject(id, trx);
      if (!existing) {
        const sdk: SdkFacts = posted;
        await sessions.insert(
          {
            id,
            projectId,
            ipAddress: ip,
            startTime: now,
            updatedAt: now,
            facts: enrich(sdk, ip, now),
            sdk,
          },
          trx,
        );
        return;
      }
      if (existing.projectId !== projectId) throw new BadRequestError('session_id belongs to another project');
      if (now.getTime() - existing.startTime.getTime() > SESSION_UPDATE_WINDOW_MS) {
        throw new BadRequestError('Session expired; sessions accept updates for 24 hours after they start');
      }
      const sdk = existing.sdk ? mergeSdkFacts(existing.sdk, posted) : posted;
      // The session keeps the address and start of its first post.
      const facts = enrich(sdk, existing.ipAddress, existing.startTime);
      await sessions.update({ ...existing, updatedAt: now, facts, sdk }, trx);
    });
  }

  return {
    async ingest(projectId: string | undefined, body: IngestSession, ip: string): Promise<IngestSessionResponse> {
      if (!projectId) throw new BadRequestError('header x-project-id (or query parameter project_id) is required');
      if (!(await projects.findById(projectId))) throw new BadRequestError('x-project-id names no project');
      try {
        await upsert(projectId, body, ip);
      } catch (err) {
        // Two first posts of one session raced: the loser's post is an update.
        if (!isUniqueViolation(err)) throw err;
        await upsert(projectId, body, ip);
      }
      return { session_id: body.session_id };
    },
  };
}

export type IngestUseCases = ReturnType<typeof makeIngestUseCases>;
