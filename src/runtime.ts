/**
 * Builds the real edge dependencies from configuration: the database (migrated), the secret
 * box, the logger, the clock. Shared by the server (main.ts) and the CLI.
 */
import path from 'node:path';
import { systemClock, systemRandom } from './clock';
import type { Config } from './config';
import { makeLogger, type Logger } from './logger';
import { loadSecretKey, makeSecretBox } from './security/secrets';
import { makeServices, type CoreDeps, type Services } from './services';
import { makeDb, migrate } from './storage/db';

export interface Runtime extends CoreDeps {
  services: Services;
  close(): Promise<void>;
}

export async function makeRuntime(config: Config, logger: Logger = makeLogger(config.logLevel)): Promise<Runtime> {
  const db = makeDb({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'trustgate.sqlite') });
  await migrate(db);
  const { key, created } = loadSecretKey(config.secretKey, config.dataDir, systemRandom);
  if (created) {
    logger.warn(
      { file: path.join(config.dataDir, 'secret.key') },
      'generated a new secret key for encrypting webhook secrets; in production set TRUSTGATE_SECRET_KEY instead',
    );
  }
  const deps: CoreDeps = { db, clock: systemClock, random: systemRandom, logger, secretBox: makeSecretBox(key, systemRandom) };
  return { ...deps, services: makeServices(deps), close: () => db.destroy() };
}
