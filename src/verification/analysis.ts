/**
 * Face and document analysis sits behind this one interface. The real engine is a later
 * issue; until it is installed the server wires `unavailableAnalysisEngine`, so completing a
 * session answers 503 and the session stays open.
 */
import type { components } from '../api-types';
import { AppError } from '../errors';
import type { ImageType } from './media';

type Schemas = components['schemas'];

export type CaptureKind = 'selfie' | 'id_front' | 'id_back';

export interface AnalysisInput {
  type: 'face-match' | 'id-check';
  captures: { kind: CaptureKind; contentType: ImageType; bytes: Buffer }[];
}

/** What an analysis found: a result, a failed attempt (the user may retry), or an unreadable document. */
export type AnalysisOutcome =
  | {
      outcome: 'passed';
      decision: Schemas['Decision'];
      risk_score: number;
      risk_flags: Schemas['RiskFlag'][];
      /** ID Check only. */
      document?: { signals: Schemas['DocumentSignals']; template_info: Schemas['DocumentData']['template_info']; user_data: Schemas['DocumentData']['user_data'] };
    }
  | { outcome: 'failed_attempt'; reason: string }
  | { outcome: 'not_processable'; reason: string };

export interface AnalysisEngine {
  analyse(input: AnalysisInput): Promise<AnalysisOutcome>;
}

export class AnalysisUnavailableError extends AppError {
  constructor() {
    super(503, 'The analysis engine is not installed on this server; the session stays open', { expose: true });
  }
}

export const unavailableAnalysisEngine: AnalysisEngine = {
  analyse: () => Promise.reject(new AnalysisUnavailableError()),
};
