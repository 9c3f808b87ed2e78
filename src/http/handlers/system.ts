/** Handlers of the `System` tag. */
import type { Request, Response } from 'express';
import type { ErrorBody, Health, Readiness } from '../../api-types';
import type { Clock } from '../../clock';
import type { NetworkDataStatus } from '../../geo/data-age';
import type { Logger } from '../../logger';
import { dialectOf, type Db } from '../../storage/db';
import type { ReadinessTracker } from '../../usecases/readiness';

export function makeSystemHandlers(deps: {
  db: Db;
  logger: Logger;
  clock: Clock;
  networkData?: NetworkDataStatus;
  readiness: ReadinessTracker;
}) {
  const { db, logger, clock, networkData, readiness } = deps;
  return {
    async getReadiness(_req: Request, res: Response<Readiness>) {
      const state = await readiness.check();
      res.status(state.status === 'ready' ? 200 : 503).json(state);
    },
    async getHealth(_req: Request, res: Response<Health | ErrorBody>) {
      try {
        await db.raw('select 1');
        res.json({
          status: 'ok',
          database: dialectOf(db),
          ...(networkData ? { data: networkData.health(clock.now()) } : {}),
        });
      } catch (err) {
        logger.error({ err }, 'health check: database unavailable');
        res.status(503).json({ statusCode: 503, message: 'Database unavailable' });
      }
    },
  };
}
