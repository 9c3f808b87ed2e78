/**
 * Structured JSON logs (pino). Secrets and personal data are redacted by path, so that a
 * careless `logger.info({ account })` cannot leak them; request bodies are never logged.
 */
import pino, { type Logger } from 'pino';

export type { Logger };

const SECRET_FIELDS = [
  'api_key',
  'webhook_secret',
  'secret',
  'password',
  'token',
  'x-api-key',
  'authorization',
  'cookie',
  'set-cookie',
  'x-csrf-token',
  'csrf_token',
  'password_hash',
  'x-signature',
];
const PERSONAL_FIELDS = [
  'email',
  'phone',
  'first_name',
  'last_name',
  'username',
  'date_of_birth',
  'id_number',
  'id_number2',
  'address',
  'photo',
  'photo_urls',
  'video_urls',
  'user_data',
  'document_data',
];

/** Every redacted field at the top level and one or two objects deep (request headers included). */
export const REDACT_PATHS = [...SECRET_FIELDS, ...PERSONAL_FIELDS].flatMap((field) => {
  const key = /^[a-z_0-9]+$/.test(field) ? `.${field}` : `["${field}"]`;
  return [key.replace(/^\./, ''), `*${key}`, `*.*${key}`];
});

export function makeLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      // The pid tells a cluster's workers apart (WEB_CONCURRENCY).
      base: { service: 'trustgate', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    destination,
  );
}
