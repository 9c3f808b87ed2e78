/**
 * Operations written as top-level functions taking their deps first (use cases, the outbox's
 * statements, the evaluation's reads), bound to one set of deps by their factory:
 * `withDeps(deps)(getAccount)` is `(project, id, …) => getAccount(deps, project, id, …)`.
 */
export const withDeps =
  <Deps>(deps: Deps) =>
  <Args extends unknown[], Result>(use: (deps: Deps, ...args: Args) => Result) =>
  (...args: Args): Result =>
    use(deps, ...args);
