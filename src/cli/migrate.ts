/** `trustgate migrate`: the pending migrations applied (waiting for another process's), and what was applied. */
import type { Config } from '../config';
import { openDatabase } from '../composition';
import type { Logger } from '../logger';
import { migrate } from '../storage/db';
import { UsageError, type Out } from './command';

export async function runMigrate(argv: string[], config: Config, logger: Logger, out: Out): Promise<number> {
  if (argv.length > 1) throw new UsageError('migrate takes no arguments');
  const db = openDatabase(config, logger);
  try {
    const applied = await migrate(db);
    for (const name of applied) out(`applied ${name}`);
    out(applied.length ? `${applied.length} migrations applied` : 'the database is up to date');
    return 0;
  } finally {
    await db.destroy();
  }
}
