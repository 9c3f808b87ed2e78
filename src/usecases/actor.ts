/** Who makes a change, as the audit, the labels and the list events record it. */
import { hashApiKey } from '../security/secrets';

/**
 * An API key (recorded by the first 12 hex digits of its SHA-256, never the key), a console
 * operator (recorded by its id: `operator:<id>`, not its email) or the CLI.
 */
export type Actor = { apiKey: string } | { operatorId: string } | 'cli';

export function actorName(actor: Actor): string {
  if (actor === 'cli') return 'cli';
  if ('operatorId' in actor) return `operator:${actor.operatorId}`;
  return `api_key:${hashApiKey(actor.apiKey).slice(0, 12)}`;
}
