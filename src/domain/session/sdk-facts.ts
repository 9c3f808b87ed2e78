import type { IngestSession } from '../../api-types';

/** What the SDK posted for a session (every post merged), as ingestion keeps it beside the enriched facts. */
export type SdkFacts = Omit<IngestSession, 'session_id'>;
