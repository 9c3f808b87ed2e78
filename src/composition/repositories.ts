/** The repositories over one database: every table group's, built once by makeServices. */
import type { SecretBox } from '../security/secrets';
import type { Db } from '../storage/db';
import { makeEvaluationStore } from '../storage/evaluation-store';
import { makeAccountRepository } from '../storage/repositories/accounts';
import { makeAuditEventRepository } from '../storage/repositories/audit-events';
import { makeCaseRepository } from '../storage/repositories/cases';
import { makeEvaluationCountRepository } from '../storage/repositories/evaluation-counts';
import { makeHistoryRepository } from '../storage/repositories/history';
import { makeIngestChallengeRepository } from '../storage/repositories/ingest-challenges';
import { makeLabelRepository } from '../storage/repositories/labels';
import { makeListRepository } from '../storage/repositories/lists';
import { makeOperatorRepository } from '../storage/repositories/operators';
import { makeProjectDataRepository } from '../storage/repositories/project-data';
import { makeProjectRepository } from '../storage/repositories/projects';
import { makeRateLimits } from '../storage/repositories/rate-limits';
import { makeReceiptRepository } from '../storage/repositories/receipts';
import { makeRetentionRepository } from '../storage/repositories/retention';
import { makeRuleDraftRepository } from '../storage/repositories/rule-drafts';
import { makeRulesRepository } from '../storage/repositories/rules';
import { makeSearchRepository } from '../storage/repositories/search';
import { makeSessionRepository } from '../storage/repositories/sessions';
import { makeVerificationIndex } from '../storage/repositories/verification-index';
import { makeVerificationRepository } from '../storage/repositories/verifications';
import { makeOutbox } from '../webhooks/outbox';

export function makeRepositories(db: Db, secretBox: SecretBox) {
  return {
    projects: makeProjectRepository(db),
    sessions: makeSessionRepository(db),
    accounts: makeAccountRepository(db),
    lists: makeListRepository(db),
    history: makeHistoryRepository(db),
    store: makeEvaluationStore(db, secretBox),
    receipts: makeReceiptRepository(db),
    verifications: makeVerificationRepository(db, secretBox),
    verificationIndex: makeVerificationIndex(db, secretBox),
    outbox: makeOutbox(db, secretBox),
    rateLimits: makeRateLimits(db),
    ingestChallenges: makeIngestChallengeRepository(db),
    projectData: makeProjectDataRepository(),
    auditEvents: makeAuditEventRepository(db),
    evaluationCounts: makeEvaluationCountRepository(db),
    rules: makeRulesRepository(db),
    ruleDrafts: makeRuleDraftRepository(db),
    labels: makeLabelRepository(db),
    cases: makeCaseRepository(db),
    retention: makeRetentionRepository(db),
    search: makeSearchRepository(db),
    operators: makeOperatorRepository(db),
  };
}

export type Repositories = ReturnType<typeof makeRepositories>;
