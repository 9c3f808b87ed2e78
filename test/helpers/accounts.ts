import { NO_AGGREGATES, type AccountRecord } from '../../src/domain/evaluation/facts';

/** An account as the repositories keep it: its key, its times, no history; `fields` add the rest. */
export function accountRecord(
  projectId: string,
  id: string,
  at: Date,
  fields: Partial<AccountRecord> = {},
): AccountRecord {
  return {
    projectId,
    id,
    expectedCountries: [],
    metadata: {},
    createdAt: at,
    updatedAt: at,
    aggregates: NO_AGGREGATES,
    version: 0,
    ...fields,
  };
}
