/** Stores a session the way ingestion does: the enriched facts, taken from the spec's own example. */
import { randomUUID } from 'node:crypto';
import type { EvaluatedSession } from '../../src/api-types';
import type { Services } from '../../src/composition';
import { example } from './spec';

export async function storeSession(
  services: Services,
  projectId: string,
  options: { id?: string; startTime?: Date; accounts?: string[] } = {},
): Promise<{ id: string; facts: EvaluatedSession }> {
  const evaluation = await example<{ session: EvaluatedSession }>('AuthenticateResponseReal');
  const facts = evaluation.session;
  const id = options.id ?? randomUUID();
  const startTime = options.startTime ?? new Date(facts.start_time);
  facts.start_time = startTime.toISOString();
  await services.repos.sessions.insert({
    id,
    projectId,
    ipAddress: facts.network.ip_address,
    startTime,
    updatedAt: startTime,
    facts,
  });
  for (const account of options.accounts ?? []) {
    await services.repos.sessions.addAccount(projectId, id, account, startTime);
  }
  await services.repos.accounts.refreshAggregates(projectId, options.accounts ?? []);
  return { id, facts };
}
