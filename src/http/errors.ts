/**
 * The one error handler: AppErrors, the validator's errors, body-parser errors and anything
 * unknown all leave as `{statusCode, message}` (the verification operations' coded errors add
 * `request_id`, `success` and `error`). Unknown errors are logged with their cause
 * and answered 500 without internals.
 */
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { AppError, LivenessCallError, TooManyRequestsError } from '../errors';
import type { ErrorBody, LivenessError } from '../api-types';
import type { Logger } from '../logger';
import { bodyMediaTypes, knownProperties, nearestName } from './body-schema';
import { TEXT_RULE, textPattern } from './text';

interface ValidationItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  message?: string;
  errors?: ValidationItem[];
  type?: string;
  expose?: boolean;
}

/**
 * `/body/account/phone` → `account.phone`; `/query/accounts_linked` → `query.accounts_linked`;
 * `/headers/x-api-key` → `header x-api-key`.
 */
export function fieldName(errorPath: string | undefined): string {
  if (!errorPath) return 'request';
  const parts = errorPath
    .replace(/^\.?(request\/)?/, '')
    .split(/[/.]/)
    .filter(Boolean);
  const [where, ...rest] = parts;
  if (where === 'body') return rest.length ? rest.join('.') : 'body';
  if (where === 'headers') return `header ${rest.join('.')}`;
  if (where === 'params') return `path parameter ${rest.join('.')}`;
  if (where === 'query') return `query parameter ${rest.join('.')}`;
  return parts.join('.');
}

/** The rule of the spec's `Text` (every string of a request) in words, rather than as its pattern. */
const inWords = (rule: string): string => (rule === `must match pattern "${textPattern().source}"` ? TEXT_RULE : rule);

const malformedPath = (path: string) => `${path} is not a valid path (percent-encoded UTF-8)`;

/**
 * An unknown member of the body (the validator's path ends with its name): the message names it,
 * the known name it most likely stands for, and the known ones (the validator says only "must NOT
 * have additional properties", which reads as a rule about the member itself).
 */
function unknownPropertyMessage(req: Request, errorPath: string): string | undefined {
  const [where, ...parts] = errorPath.split('/').filter(Boolean);
  const name = parts.pop();
  if (where !== 'body' || name === undefined) return undefined;
  const known = knownProperties(req, parts);
  if (!known || known.includes(name)) return undefined;
  const meant = nearestName(name, known);
  const of = parts.length > 0 ? parts.join('.') : 'the body';
  return `${fieldName(errorPath)} is not a property of ${of}${meant ? `: did you mean ${meant}?` : ''} (it takes ${known.join(', ')})`;
}

/** A body of a media type the operation does not take: the message names the ones it takes. */
function unsupportedMediaTypeMessage(req: Request, fallback: string): string {
  const types = bodyMediaTypes(req);
  if (types.length === 0) return fallback;
  const sent = req.headers['content-type']?.slice(0, 100);
  return `header content-type must be ${types.join(' or ')}${sent ? `, not ${sent}` : ' (none was sent)'}`;
}

/** One message naming the field and the rule, for the first (or only) validation error. */
export function validationMessage(err: HttpLikeError, req: Request): string {
  const first = err.errors?.[0];
  if (!first?.message) return err.message ?? 'Invalid request';
  // The validator's path parameters are percent-decoded; a path that cannot be is named whole.
  if (first.message.startsWith('malformed uri')) return malformedPath(first.path ?? 'the path');
  if (/^(additional|unevaluated)Properties\./.test(first.errorCode ?? '') && first.path) {
    const unknown = unknownPropertyMessage(req, first.path);
    if (unknown) return unknown;
  }
  let errorPath = first.path;
  // The validator appends a missing member's name to the path; Ajv's message names it already.
  const missing = /^must have required property '(.+)'$/.exec(first.message)?.[1];
  if (missing && errorPath?.endsWith(`/${missing}`)) errorPath = errorPath.slice(0, -missing.length - 1);
  return `${fieldName(errorPath)} ${inWords(first.message)}`;
}

function statusOf(err: HttpLikeError): number {
  const status = err.status ?? err.statusCode;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

export function makeErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let status: number;
    let message: string;
    if (err instanceof AppError) {
      status = err.status;
      message = err.expose ? err.message : 'Internal server error';
      if (!err.expose) logger.error({ err, cause: err.cause, requestId: req.requestId }, 'request failed');
    } else {
      const e = (err ?? {}) as HttpLikeError;
      status = statusOf(e);
      if (status >= 500) {
        logger.error({ err, requestId: req.requestId }, 'request failed');
        message = 'Internal server error';
      } else if (e.type === 'entity.too.large') {
        message = `Request body is larger than the limit`;
      } else if (e.type === 'entity.parse.failed') {
        message = 'Request body is not valid JSON';
      } else if (err instanceof URIError) {
        // Express could not percent-decode a path parameter (the validator says the same below).
        message = malformedPath(req.path);
      } else if (status === 404 && e.errors?.length) {
        // The validator's answer for a path that is none of the spec's.
        message = routeNotFound(req.method, req.path);
      } else if (status === 405 && e.errors?.length) {
        message = `Method ${req.method} is not allowed on ${req.path}`;
      } else if (status === 401 || status === 403) {
        // The security handler's own message, without the validator's path prefix.
        message = e.errors?.[0]?.message ?? e.message ?? 'Unauthorized';
      } else if (status === 415) {
        message = unsupportedMediaTypeMessage(req, e.message || 'Unsupported media type');
      } else if (e.errors?.length) {
        message = validationMessage(e, req);
      } else {
        message = e.message || 'Request failed';
      }
    }
    if (res.headersSent) return;
    if (err instanceof TooManyRequestsError) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    if (err instanceof LivenessCallError) {
      const coded: LivenessError = {
        statusCode: 400,
        message,
        request_id: req.requestId,
        success: false,
        error: err.code,
      };
      res.status(status).json(coded);
      return;
    }
    const body: ErrorBody = { statusCode: status, message };
    res.status(status).json(body);
  };
}

const routeNotFound = (method: string, path: string) => `Route ${method} ${path} not found`;

/** Routes that no handler took (outside the spec's paths, which the validator answers). */
export const notFound: RequestHandler = (req, res) => {
  const body: ErrorBody = { statusCode: 404, message: routeNotFound(req.method, req.path) };
  res.status(404).json(body);
};
