/**
 * Readiness (GET /readyz): whether this process should be sent traffic. Ready once the
 * database has every migration this code knows, the IP data is loaded and, when an analysis
 * engine with models is wired, its models are loaded; not ready any more once the process is
 * asked to stop. Liveness is /healthz's.
 */
import type { Readiness } from '../api-types';
import type { Logger } from '../logger';
import { pendingMigrations, type Db } from '../storage/db';

export type ModelsState = Readiness['checks']['models'];

export interface ReadinessDeps {
  db: Db;
  logger: Logger;
  /** Whether this process loaded the IP data (the server loads it before listening). */
  ipDataLoaded: boolean;
  /** The models at the start: `off` (no engine), `loading` (until modelsLoading settles), `loaded` (nothing to load). */
  models: ModelsState;
}

export function makeReadiness(deps: ReadinessDeps) {
  const { db, logger } = deps;
  let models = deps.models;
  let migrated = false;
  let stopping = false;

  /** Asked of the database until every migration is applied, then remembered (they are never undone under a running server). */
  async function migrations(): Promise<Readiness['checks']['migrations']> {
    if (migrated) return 'applied';
    try {
      migrated = (await pendingMigrations(db)).length === 0;
      return migrated ? 'applied' : 'pending';
    } catch (err) {
      logger.error({ err: (err as Error).message }, 'readiness: cannot read the applied migrations');
      return 'unknown';
    }
  }

  return {
    /** Follows the models' loading: `loaded` once `loading` resolves, `failed` if it rejects (which is passed on). */
    async modelsLoading(loading: Promise<void>): Promise<void> {
      if (models !== 'off') models = 'loading';
      try {
        await loading;
        if (models !== 'off') models = 'loaded';
      } catch (err) {
        models = 'failed';
        throw err;
      }
    },
    /** The process was asked to stop: not ready from now on. */
    stopping(): void {
      stopping = true;
    },
    async check(): Promise<Readiness> {
      const checks: Readiness['checks'] = {
        migrations: await migrations(),
        ip_data: deps.ipDataLoaded ? 'loaded' : 'not_loaded',
        models,
        stopping,
      };
      const ready =
        checks.migrations === 'applied' &&
        checks.ip_data === 'loaded' &&
        (models === 'loaded' || models === 'off') &&
        !stopping;
      return { status: ready ? 'ready' : 'not_ready', checks };
    },
  };
}

export type ReadinessTracker = ReturnType<typeof makeReadiness>;
