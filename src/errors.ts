/**
 * The one error path: use cases throw an AppError (or a subclass); the HTTP error handler
 * turns it, the validator's errors and anything unknown into `{statusCode, message}`.
 */
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

export class SessionNotFoundError extends BadRequestError {
  constructor() {
    super('Session ID not found');
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

/** 501: an operation of the contract that this version of the service cannot perform yet. */
export class NotImplementedError extends AppError {
  constructor(message: string) {
    super(501, message, { expose: true });
  }
}
