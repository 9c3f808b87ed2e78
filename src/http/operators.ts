/**
 * The console's side of authentication and authorisation (docs/console-auth.md):
 *
 * - the session cookie: `__Host-tg_session` (Secure, HttpOnly, SameSite=Strict, Path=/), or
 *   `tg_session` without Secure when CONSOLE_INSECURE_COOKIE=1 (plain-http localhost only);
 * - the `ConsoleSession` security handler of the spec, beside `ApiKeyAuth` (either one lets a
 *   request in; a request with an `x-api-key` is the key's, whatever cookie it carries);
 * - `authorise`, after the validator: the one place that decides, from domain/operators.ts's
 *   table, whether the credential may call the operation (a role high enough, the CSRF token
 *   on every request with the cookie but a GET, a read-only key on GETs only, and the one GET
 *   that writes on a full key only): 403 otherwise.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { MINUTE_MS } from '../domain/numbers';
import { refusal, type Credential } from '../domain/operators';
import { ForbiddenError, InternalError, UnauthorizedError } from '../errors';
import type { Logger } from '../logger';
import type { OidcTransaction } from '../security/oidc';
import { csrfTokenMatches, type ConsoleContext, type OperatorUseCases } from '../usecases/operators';

/** The cookie's name in the contract (the `ConsoleSession` scheme). */
export const SESSION_COOKIE = '__Host-tg_session';
/** Its name without Secure (a `__Host-` cookie must be Secure): CONSOLE_INSECURE_COOKIE=1 only. */
export const INSECURE_SESSION_COOKIE = 'tg_session';

const cookieName = (insecure: boolean) => (insecure ? INSECURE_SESSION_COOKIE : SESSION_COOKIE);
const cookieOptions = (insecure: boolean) =>
  ({ httpOnly: true, secure: !insecure, sameSite: 'strict', path: '/' }) as const;

/** The value of one cookie of the request if it is there and of the expected form (the first, as browsers send the most specific first). */
function cookieValue(header: string | undefined, name: string, form = /^[A-Za-z0-9_-]{1,128}$/): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return form.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * Reads the session cookie into `req.cookies` (Express's own field, which cookie-parser would
 * fill), under the contract's name whatever the cookie is called, for the validator's check
 * and the security handler; nothing else of the Cookie header is read.
 */
export function readSessionCookie(insecure: boolean): RequestHandler {
  const name = cookieName(insecure);
  return (req, _res, next) => {
    const token = cookieValue(req.header('cookie'), name);
    req.cookies = token === undefined ? {} : { [SESSION_COOKIE]: token };
    next();
  };
}

export function setSessionCookie(res: Response, insecure: boolean, token: string, expires: Date): void {
  res.cookie(cookieName(insecure), token, { ...cookieOptions(insecure), expires });
}

export function clearSessionCookie(res: Response, insecure: boolean): void {
  res.clearCookie(cookieName(insecure), cookieOptions(insecure));
}

/**
 * A single sign-on under way (GET /console/oidc/login until the provider's redirect back): its
 * state, nonce and PKCE verifier in a cookie of its own, `SameSite=Lax` (the provider's
 * redirect back is a top-level navigation from another site, which a Strict cookie would not
 * be sent with), ten minutes, `__Host-` like the session's.
 */
const OIDC_COOKIE = '__Host-tg_oidc';
const INSECURE_OIDC_COOKIE = 'tg_oidc';
const OIDC_COOKIE_MS = 10 * MINUTE_MS;
const oidcCookieName = (insecure: boolean) => (insecure ? INSECURE_OIDC_COOKIE : OIDC_COOKIE);
const oidcCookieOptions = (insecure: boolean) =>
  ({ httpOnly: true, secure: !insecure, sameSite: 'lax', path: '/' }) as const;

export function setOidcCookie(res: Response, insecure: boolean, t: OidcTransaction): void {
  res.cookie(oidcCookieName(insecure), [t.state, t.nonce, t.verifier].join('.'), {
    ...oidcCookieOptions(insecure),
    maxAge: OIDC_COOKIE_MS,
  });
}

/** The sign-in under way in this browser, if any; the cookie is cleared (it serves one return). */
export function takeOidcCookie(req: Request, res: Response, insecure: boolean): OidcTransaction | undefined {
  const value = cookieValue(
    req.header('cookie'),
    oidcCookieName(insecure),
    /^[A-Za-z0-9_-]{16,128}(\.[A-Za-z0-9_-]{16,128}){2}$/,
  );
  res.clearCookie(oidcCookieName(insecure), oidcCookieOptions(insecure));
  if (!value) return undefined;
  const [state, nonce, verifier] = value.split('.') as [string, string, string];
  return { state, nonce, verifier };
}

/** The `ConsoleSession` security handler: the cookie's session, if it is live, sets the request's project and operator. */
export function makeConsoleSessionHandler(operators: OperatorUseCases, logger: Logger) {
  return async (req: Request): Promise<boolean> => {
    // A request with a key is the key's: the key's handler decides it alone.
    if (req.header('x-api-key') !== undefined) return false;
    const token = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
    if (!token) throw new UnauthorizedError('No console session cookie');
    let context: ConsoleContext | undefined;
    try {
      context = await operators.session(token);
    } catch (cause) {
      logger.error({ err: cause, requestId: req.requestId }, 'console session lookup failed');
      throw new InternalError(cause);
    }
    if (!context) throw new UnauthorizedError('The console session has ended; sign in again');
    req.project = context.project;
    req.operator = { ...context, sessionToken: token };
    return true;
  };
}

/** The request's credential, as domain/operators.ts judges it; undefined on an operation that asked for none. */
function credentialOf(req: Request): Credential | undefined {
  if (req.operator)
    return {
      kind: 'operator',
      role: req.operator.operator.role,
      csrfTokenMatches: csrfTokenMatches(req.operator, req.header('x-csrf-token')),
    };
  if (req.apiKeyScope) return { kind: 'api_key', scope: req.apiKeyScope };
  return undefined;
}

/** After the validator (which has authenticated the request): 403 unless the credential may call this operation. */
export function authorise(req: Request, _res: Response, next: NextFunction): void {
  const operationId = (req as { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId;
  if (!operationId) return next();
  const credential = credentialOf(req);
  if (!credential) return next();
  const reason = refusal(operationId, req.method, credential);
  next(reason === undefined ? undefined : new ForbiddenError(reason));
}
