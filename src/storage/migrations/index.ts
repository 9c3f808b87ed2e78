/**
 * Migrations, listed in order. They are plain TypeScript modules loaded through this list
 * (not from a folder scan), so the same code runs from `src/` under test and from `dist/`.
 * A migration, once released, is never edited: add a new one.
 */
import type { Knex } from 'knex';
import * as m0001 from './0001_projects_keys_sessions';
import * as m0002 from './0002_session_sdk_facts';
import * as m0003 from './0003_demo_project';
import * as m0004 from './0004_accounts_lists_evaluations';
import * as m0005 from './0005_webhooks';
import * as m0006 from './0006_verification_sessions';
import * as m0007 from './0007_verification_captures';
import * as m0008 from './0008_verification_index';
import * as m0009 from './0009_rate_limits';
import * as m0010 from './0010_evaluation_aggregates';
import * as m0011 from './0011_session_facts';
import * as m0012 from './0012_covering_session_indexes';
import * as m0013 from './0013_link_aggregates';
import * as m0014 from './0014_standard_lists';
import * as m0015 from './0015_drop_unsearched_session_indexes';
import * as m0016 from './0016_test_projects';
import * as m0017 from './0017_list_descriptions_account_scores';
import * as m0018 from './0018_browser_device_links';
import * as m0019 from './0019_ingest_challenges';
import * as m0020 from './0020_audit_events';
import * as m0021 from './0021_webhook_secret_rotation';
import * as m0022 from './0022_project_rules';
import * as m0023 from './0023_labels';
import * as m0024 from './0024_webhook_events';
import * as m0026 from './0026_pg_guard_function';
import * as m0027 from './0027_evaluation_receipts';
import * as m0028 from './0028_retention';
import * as m0029 from './0029_search_indexes';
import * as m0030 from './0030_operators';
import * as m0032 from './0032_evaluation_counts';
import * as m0033 from './0033_account_verifications';
import * as m0034 from './0034_domain_blocked_counts';
import * as m0035 from './0035_account_uniques';
import * as m0036 from './0036_lean_link_writes';
import * as m0037 from './0037_session_device';
import * as m0038 from './0038_installation_secrets';
import * as m0039 from './0039_media';
import * as m0040 from './0040_ip_lists_and_data_files';
import * as m0041 from './0041_link_score_floor';
import * as m0042 from './0042_network_accounts';
import * as m0043 from './0043_account_last_evaluation';
import * as m0044 from './0044_rule_drafts';
import * as m0045 from './0045_cases';
import * as m0046 from './0046_audit_events_action';
import * as m0047 from './0047_account_score';

const migrations: Record<string, Knex.Migration> = {
  '0001_projects_keys_sessions': m0001,
  '0002_session_sdk_facts': m0002,
  '0003_demo_project': m0003,
  '0004_accounts_lists_evaluations': m0004,
  '0005_webhooks': m0005,
  '0006_verification_sessions': m0006,
  '0007_verification_captures': m0007,
  '0008_verification_index': m0008,
  '0009_rate_limits': m0009,
  '0010_evaluation_aggregates': m0010,
  '0011_session_facts': m0011,
  '0012_covering_session_indexes': m0012,
  '0013_link_aggregates': m0013,
  '0014_standard_lists': m0014,
  '0015_drop_unsearched_session_indexes': m0015,
  '0016_test_projects': m0016,
  '0017_list_descriptions_account_scores': m0017,
  '0018_browser_device_links': m0018,
  '0019_ingest_challenges': m0019,
  '0020_audit_events': m0020,
  '0021_webhook_secret_rotation': m0021,
  '0022_project_rules': m0022,
  '0023_labels': m0023,
  '0024_webhook_events': m0024,
  '0026_pg_guard_function': m0026,
  '0027_evaluation_receipts': m0027,
  '0028_retention': m0028,
  '0029_search_indexes': m0029,
  '0030_operators': m0030,
  '0032_evaluation_counts': m0032,
  '0033_account_verifications': m0033,
  '0034_domain_blocked_counts': m0034,
  '0035_account_uniques': m0035,
  '0036_lean_link_writes': m0036,
  '0037_session_device': m0037,
  '0038_installation_secrets': m0038,
  '0039_media': m0039,
  '0040_ip_lists_and_data_files': m0040,
  '0041_link_score_floor': m0041,
  '0042_network_accounts': m0042,
  '0043_account_last_evaluation': m0043,
  '0044_rule_drafts': m0044,
  '0045_cases': m0045,
  '0046_audit_events_action': m0046,
  '0047_account_score': m0047,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = migrations[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    return migration;
  },
};
