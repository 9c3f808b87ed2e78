/**
 * SDK ingestion: the first post of a session creates it, later posts update it within 24
 * hours of its start. Enrichment happens here, at the time of the session, so that later
 * changes to the IP data do not rewrite history.
 */
import type { IngestSession, IngestSessionResponse } from '../api-types';
import type { Clock } from '../clock';
import { enrichSession, mergeSdkFacts, type IpIntelligence } from '../domain/enrichment/session';
import type { SdkFacts } from '../domain/session/sdk-facts';
import { DAY_MS } from '../domain/numbers';
import { BadRequestError } from '../errors';
import type { ProjectRepository } from '../storage/repositories/projects';
import type { SessionRepository } from '../storage/repositories/sessions';
import type { Db } from '../storage/db';

export const SESSION_UPDATE_WINDOW_MS = DAY_MS;

export interface IngestDeps {
  db: Db;
  clock: Clock;
  ipIntelligence: IpIntelligence;
  projects: ProjectRepository;
  sessions: SessionRepository;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

export function makeIngestUseCases({ db, clock, ipIntelligence, projects, sessions }: IngestDeps) {
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
            facts: enrichSession(sdk, ip, now, ipIntelligence.lookup(ip)),
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
      const facts = enrichSession(
        sdk,
        existing.ipAddress,
        existing.startTime,
        ipIntelligence.lookup(existing.ipAddress),
      );
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
