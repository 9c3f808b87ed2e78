/**
 * The analysis engine wired where no real one is (ANALYSIS_ENGINE=off, or a process that
 * analyses nothing): completing a session answers 503 and the session stays open. Never a fake.
 */
import type { AnalysisEngine } from '../domain/verification/analysis';
import { AppError } from '../errors';

export class AnalysisUnavailableError extends AppError {
  constructor() {
    super(503, 'The analysis engine is not installed on this server; the session stays open', { expose: true });
  }
}

export const unavailableAnalysisEngine: AnalysisEngine = {
  analyse: () => Promise.reject(new AnalysisUnavailableError()),
};
