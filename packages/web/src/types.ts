/** The SDK's one importer of its generated types: the wire shapes it sends. */
import type { components } from './generated/openapi.js';

/** The body of `POST /ingest/session`. */
export type IngestSession = components['schemas']['IngestSession'];
