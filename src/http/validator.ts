/**
 * The contract's validator (express-openapi-validator over openapi.yaml): requests, responses
 * when asked, and the security schemes' handlers.
 *
 * Loading the spec took over a second for each app built, and compiling an operation's schemas
 * (on its first request) a tenth of a second more per operation. A ContractValidator does that
 * once for all the apps it serves with the same options, each app keeping its own security
 * handlers. The server builds one app; the tests build one or more per test file, and share one
 * ContractValidator per Jest worker (test/helpers/app.ts), so the tests' apps validate with
 * schemas compiled once, as the server does.
 */
import type { Express, Request, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { bundledSpec, OPENAPI_PATH } from '../spec';

/** A security scheme's handler: true, false or a rejection, as the validator reads them. */
export type SecurityHandler = (req: Request) => boolean | Promise<boolean>;

export interface ValidatorOptions {
  validateResponses: boolean;
  /** Paths served outside the contract. */
  ignorePaths: RegExp;
  /** A handler per security scheme of the spec, by the scheme's name. */
  handlers: Record<string, SecurityHandler>;
}

export interface ContractValidator {
  /** The middleware that validates `app`'s requests (and responses) with the app's handlers. */
  middleware(app: Express, options: ValidatorOptions): RequestHandler[];
}

type RoutedRequest = Request & { openapi?: { pathParams?: Record<string, string> } };

export function makeContractValidator(): ContractValidator {
  const compiled = new Map<string, RequestHandler[]>();
  // The validator is compiled with handlers that call the handler of the app the request is to.
  const handlersOf = new WeakMap<object, Record<string, SecurityHandler>>();
  return {
    middleware(app, options) {
      handlersOf.set(app, options.handlers);
      installPathParams(app);
      const schemes = Object.keys(options.handlers).sort();
      const key = JSON.stringify([options.validateResponses, String(options.ignorePaths), schemes]);
      let middleware = compiled.get(key);
      if (!middleware) {
        const handlers = Object.fromEntries(
          schemes.map((scheme) => [scheme, (req: Request) => handlersOf.get(req.app)![scheme]!(req)]),
        );
        middleware = OpenApiValidator.middleware({
          apiSpec: OPENAPI_PATH,
          validateRequests: { allowUnknownQueryParameters: false },
          validateResponses: options.validateResponses ? { removeAdditional: false } : false,
          validateSecurity: { handlers },
          validateFormats: true,
          ignorePaths: options.ignorePaths,
        }) as RequestHandler[];
        compiled.set(key, middleware);
      }
      return middleware;
    },
  };
}

/**
 * What the validator does on the first app that it sees a request to, done on every app: each
 * path parameter is the one the validator read (and coerced) from the path.
 */
function installPathParams(app: Express): void {
  const names = new Set<string>();
  for (const path of Object.keys(bundledSpec().paths))
    for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) names.add(name!);
  for (const name of names) {
    app.param(name, (req: RoutedRequest, _res, next) => {
      const pathParams = req.openapi?.pathParams;
      if (pathParams) req.params[name] = pathParams[name] || req.params[name]!;
      next();
    });
  }
}
