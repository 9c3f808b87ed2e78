/**
 * The one error path: use cases throw an AppError (or a subclass); the HTTP error handler
 * turns it, the validator's errors and anything unknown into `{statusCode, message}`.
 */
import type { LivenessErrorCode, VerificationResultErrorCode } from './api-types';
export class AppError extends Error {
  /** Whether the message may be shown to the caller (always for 4xx; for 5xx only when set). */
  readonly expose: boolean;

  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown; expose?: boolean },
  ) {
    super(message, { cause: options?.cause });
    this.name = new.target.name;
    this.expose = options?.expose ?? status < 500;
  }
}

/** 400: the request is well-formed but names something that cannot be used. */
export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

/** 404: the named thing does not exist in the caller's project (`${what} ${id} not found`). */
export class NotFoundError extends AppError {
  constructor(what: string, id: string) {
    super(404, `${what} ${id} not found`);
  }
}

/** 403: the caller may not do this with what it presented (a token, a signed URL). */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}

/** 409: the request lost to a concurrent change; the caller may retry. */
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

/** 429: a limit of concurrent work is full; the caller may retry after `retryAfterSeconds` (sent as Retry-After). */
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}

/** 415: the body is not of a type the operation takes. */
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(415, message);
  }
}

/** 503: a part of the service this operation needs is not configured or not available. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(503, message, { expose: true });
  }
}

/** The session id given to a Session API call is not one of the project's (400, as the reference service answers). */
export class SessionNotFoundError extends BadRequestError {
  constructor() {
    super('Session ID not found');
  }
}

/**
 * A verification operation's refusal (400): the message in words and the code clients branch
 * on, which the error handler adds as `error` (with `request_id` and `success: false`).
 */
export class LivenessCallError extends BadRequestError {
  constructor(
    readonly code: LivenessErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** verify-face / verify-id for a session with no result to give. */
export class VerificationResultUnavailableError extends LivenessCallError {
  constructor(
    override readonly code: VerificationResultErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}

/** The account a management call names is not one of the project's (400, as the production service answers). */
export class AccountNotFoundError extends BadRequestError {
  constructor() {
    super('Account not found');
  }
}

/** The list a management call names is not one of the project's (400, as the production service answers). */
export class ListNotFoundError extends BadRequestError {
  constructor() {
    super('List not found');
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Missing or invalid x-api-key') {
    super(401, message);
  }
}

/** A failure of a dependency (the database, say): answered 500, logged with its cause. */
export class InternalError extends AppError {
  constructor(cause: unknown) {
    super(500, 'Internal server error', { cause });
  }
}
