/** Handlers of the `Console` tag, named after their operationIds. */
import type { Request, Response } from 'express';
import type { ConsoleLoginRequest, ConsoleSession } from '../../api-types';
import { AppError, UnauthorizedError } from '../../errors';
import type { ConsoleContext, OperatorUseCases } from '../../usecases/operators';
import { clearSessionCookie, setSessionCookie } from '../operators';
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
  options: { insecureCookie: boolean; attempt: LoginAttempt },
) {
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
      setSessionCookie(res, options.insecureCookie, session.token, session.expiresAt);
      res.json(sessionOf(session));
    },
    async consoleLogout(req: Request, res: Response) {
      await operators.logout(signedIn(req).sessionToken);
      clearSessionCookie(res, options.insecureCookie);
      res.status(204).end();
    },
    async getConsoleSession(req: Request, res: Response) {
      res.json(sessionOf(signedIn(req)));
    },
  };
}
