import type { IngestSession } from '../../api-types';
import type { ReceivedFacts } from './integrity';

/**
 * What the SDK posted for a session (every post merged), as ingestion keeps it beside the
 * enriched facts, with what the server itself saw of the posts (`received`: headers and the
 * challenge verdict; absent on sessions stored before it was kept). The post's `integrity`
 * binding is checked at ingestion and not kept.
 */
export type SdkFacts = Omit<IngestSession, 'session_id' | 'integrity'> & { received?: ReceivedFacts };
