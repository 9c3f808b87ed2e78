/** Who makes a change, as the audit, the labels and the list events record it. */
import { hashApiKey } from '../security/secrets';

/** An API key (recorded by the first 12 hex digits of its SHA-256, never the key) or the CLI. */
export type Actor = { apiKey: string } | 'cli';

export function actorName(actor: Actor): string {
  return actor === 'cli' ? 'cli' : `api_key:${hashApiKey(actor.apiKey).slice(0, 12)}`;
}
