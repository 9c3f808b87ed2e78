/** The analysis engine timed: each analysis's duration into the metrics, and a span around it. */
import type { AnalysisEngine } from '../domain/verification/analysis';
import type { AnalysisMetrics } from './metrics';
import type { Tracing } from './tracing';

export function timedAnalysis(
  engine: AnalysisEngine,
  metrics: AnalysisMetrics | undefined,
  tracing: Tracing,
): AnalysisEngine {
  return {
    ...(engine.warmUp ? { warmUp: () => engine.warmUp!() } : {}),
    async analyse(input) {
      const started = process.hrtime.bigint();
      const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
      try {
        const outcome = await tracing.span('analysis', () => engine.analyse(input), {
          'trustgate.analysis.type': input.type,
        });
        metrics?.analysed(input.type, 'ok', seconds());
        return outcome;
      } catch (err) {
        metrics?.analysed(input.type, 'error', seconds());
        throw err;
      }
    },
  };
}
