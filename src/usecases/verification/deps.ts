/** What the verification use cases are built on (composition.ts passes the real set, tests theirs). */
import type { Clock, Random } from '../../clock';
import type { AnalysisEngine } from '../../domain/verification/analysis';
import type { Db } from '../../storage/db';
import type { MediaStore, MediaUrls } from '../../storage/media';
import type { ProjectRepository } from '../../storage/repositories/projects';
import type { VerificationRepository } from '../../storage/repositories/verifications';
import type { VerificationIndex } from '../../storage/repositories/verification-index';
import type { Outbox } from '../../webhooks/outbox';
import type { EvaluationUseCases } from '../evaluation';
import type { ResultDeps } from './result';

export interface VerificationDeps extends ResultDeps {
  db: Db;
  clock: Clock;
  random: Random;
  verifications: VerificationRepository;
  outbox: Outbox;
  media: MediaStore;
  mediaUrls: MediaUrls;
  analysis: AnalysisEngine;
  index: VerificationIndex;
  projects: ProjectRepository;
  /** The web SDK's sessions (the one collected on the hosted page, the referring one) in their top-level form. */
  evaluation: Pick<EvaluationUseCases, 'find'>;
  /** Called once a transaction that queued a webhook has committed: wakes this process's dispatcher (webhooks/wake.ts). */
  webhooksQueued(): void;
  /** The service's public base URL (config.ts): the hosted page's URL is made on it. */
  publicBaseUrl(): string;
}
