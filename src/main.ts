/**
 * The server's entry point: the only place that reads the environment (through config.ts),
 * builds the real dependencies and listens.
 */
import { createApp } from './app';
import { loadConfig } from './config';
import { makeLogger } from './logger';
import { makeRuntime } from './runtime';
import { makeWebhookWorker, workerSettings } from './webhooks/worker';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = makeLogger(config.logLevel);
  const runtime = await makeRuntime(config, logger);

  const created = await runtime.services.projects.ensureDefault();
  if (created) {
    // Printed once, to the terminal only (not through the logger): the key and secret are
    // not stored in the clear and cannot be shown again.
    process.stdout.write(
      [
        '',
        'Created a default project. Keep these; they are not shown again:',
        `  project_id:     ${created.project_id}`,
        `  api_key:        ${created.api_key}`,
        `  webhook_secret: ${created.webhook_secret}`,
        '',
        '',
      ].join('\n'),
    );
  }

  // The models load in the background; a verification completed before they are ready waits for them.
  runtime.warmUp().catch((err) => logger.error({ err: (err as Error).message }, 'the analysis models could not be loaded; completing a verification will try again'));

  const app = createApp({ ...runtime, config });
  const stopWorker = new AbortController();
  const worker =
    config.webhookWorker === 'inline'
      ? makeWebhookWorker({ services: runtime.services, clock: runtime.clock, logger, ...workerSettings(config) }).start(stopWorker.signal)
      : Promise.resolve();
  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port, database: config.databaseUrl ? 'postgresql' : 'sqlite', validateResponses: config.validateResponses }, 'listening');
  });

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    stopWorker.abort();
    server.close(() => {
      worker.then(() => runtime.close()).finally(() => process.exit(0));
    });
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
