/** Handlers of the `Console` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { ConsoleLoginRequest, ConsoleSession, ConsoleSignInOptions } from '../../api-types';
import { AppError, ServiceUnavailableError, UnauthorizedError } from '../../errors';
import type { Logger } from '../../logger';
import type { OidcSignIn } from '../../security/oidc';
import type { ConsoleContext, OperatorUseCases } from '../../usecases/operators';
import { clearSessionCookie, setOidcCookie, setSessionCookie, takeOidcCookie } from '../operators';
import { tooManyRequests } from '../rate-limit';

/** Counts a sign-in attempt; past a limit, the seconds to wait and what was limited. */
export type LoginAttempt = (req: Request, email: string) => Promise<{ retryAfter: number; per: string } | undefined>;

const sessionOf = (c: ConsoleContext): ConsoleSession => ({
  operator: c.operator,
  csrf_token: c.csrfToken,
  expires_at: c.expiresAt.toISOString(),
});

function signedIn(req: Request): ConsoleContext & { sessionToken: string } {
  if (!req.operator) throw new AppError(500, 'no operator on a console route');
  return req.operator;
}

export function makeConsoleHandlers(
  operators: OperatorUseCases,
  options: { insecureCookie: boolean; attempt: LoginAttempt; logger: Logger; oidc?: OidcSignIn },
) {
  const { insecureCookie, oidc, logger } = options;
  const configured = (): OidcSignIn => {
    if (!oidc) throw new AppError(404, 'Single sign-on is not configured on this server (OIDC_ISSUER)');
    return oidc;
  };
  return {
    async consoleLogin(req: Request<Record<string, string>, unknown, ConsoleLoginRequest>, res: Response) {
      const { email, password } = req.body;
      const limited = await options.attempt(req, email);
      if (limited)
        return tooManyRequests(
          res,
          limited.retryAfter,
          `Too many sign-in attempts for this ${limited.per}; retry after ${limited.retryAfter} seconds`,
        );
      const session = await operators.login(email, password);
      if (!session) throw new UnauthorizedError('Wrong email or password');
      setSessionCookie(res, insecureCookie, session.token, session.expiresAt);
      res.json(sessionOf(session));
    },
    async consoleLogout(req: Request, res: Response) {
      await operators.logout(signedIn(req).sessionToken);
      clearSessionCookie(res, insecureCookie);
      res.status(204).end();
    },
    async getConsoleSession(req: Request, res: Response) {
      res.json(sessionOf(signedIn(req)));
    },
    getConsoleSignInOptions(_req: Request, res: Response) {
      const body: ConsoleSignInOptions = { password: true, oidc: oidc ? { label: oidc.label } : null };
      res.json(body);
    },
    async startConsoleOidcSignIn(req: Request, res: Response) {
      const provider = configured();
      const hint = typeof req.query.login_hint === 'string' ? req.query.login_hint : undefined;
      let started: Awaited<ReturnType<OidcSignIn['start']>>;
      try {
        started = await provider.start(hint);
      } catch (err) {
        logger.warn({ err: (err as Error).message, requestId: req.requestId }, 'OIDC provider discovery failed');
        throw new ServiceUnavailableError(
          'The single sign-on provider cannot be reached; try again or sign in with a password',
        );
      }
      setOidcCookie(res, insecureCookie, started.transaction);
      res.redirect(302, started.url);
    },
    /** The provider's redirect back: to the console signed in, or to its sign-in page with the reason. */
    async finishConsoleOidcSignIn(req: Request, res: Response) {
      const provider = configured();
      // `<base>/console/`: the callback is `<base>/console/oidc/callback` (config.ts checks it).
      const consoleUrl = new URL('..', provider.redirectUrl).href;
      const back = (reason?: string) =>
        res.redirect(303, reason ? `${consoleUrl}?sign_in_error=${encodeURIComponent(reason)}` : consoleUrl);
      const transaction = takeOidcCookie(req, res, insecureCookie);
      if (!transaction) return back('expired');
      if (req.query.error !== undefined) return back('refused');
      let identity: Awaited<ReturnType<OidcSignIn['finish']>>;
      try {
        identity = await provider.finish(new URL(req.originalUrl, 'http://callback').searchParams, transaction);
      } catch (err) {
        // The library's message names the check that failed; never a token or the code.
        logger.warn(
          { err: { name: (err as Error).name, message: (err as Error).message }, requestId: req.requestId },
          'OIDC sign-in failed',
        );
        return back('failed');
      }
      const signed = await operators.signInWith(identity);
      if ('refused' in signed) return back(signed.refused);
      setSessionCookie(res, insecureCookie, signed.token, signed.expiresAt);
      back();
    },
  };
}
