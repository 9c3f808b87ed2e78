/**
 * The analyst's console at /console (docs/console.md): the single-page app that `npm run build`
 * writes into dist/console, served as static files by this process.
 *
 * - `/console/assets/*`: Vite's hashed files, cached for a year (`immutable`); a missing one is a 404.
 * - Any other GET under /console (a client route: /console/search, /console/accounts/u1) is
 *   index.html, never cached, so that a new build is picked up at the next load. The contract's
 *   GETs under /console pass through (`/console/me`, `/console/sign-in-options` and the single
 *   sign-on's `/console/oidc/…`), as do the POSTs of signing in and out.
 * - Every answer carries a strict Content-Security-Policy: scripts, styles, fonts and requests
 *   from this origin only (no CDN, no third-party host). Styles also allow inline ones: Mantine
 *   writes its CSS variables into a <style> element and sets style attributes.
 * - Without dist/console (the server started from sources, the build not run) the console is a
 *   503 page saying to run `npm run build`; the rest of the server is unaffected.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Response, type Router } from 'express';
import { PACKAGE_ROOT } from '../spec';

export const CONSOLE_DIST = path.join(PACKAGE_ROOT, 'dist', 'console');

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Console not built</title></head>
<body><h1>The console is not built</h1>
<p>This server has no <code>dist/console</code>. Run <code>npm run build</code> (or <code>npm run build:console</code>) and reload.</p>
</body></html>
`;

function secure(res: Response): void {
  res.set({
    'content-security-policy': CONSOLE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
  });
}

/** The console's pages and assets, from `dir` (dist/console unless a test gives another). */
export function makeConsoleAppRouter(dir: string = CONSOLE_DIST): Router {
  const router = express.Router();
  const index = path.join(dir, 'index.html');
  router.use('/console/assets', (_req, res, next) => {
    secure(res);
    next();
  });
  router.use(
    '/console/assets',
    express.static(path.join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true }),
  );
  router.use('/console/assets', (_req, res) => {
    res.status(404).type('text').send('Not found');
  });
  // Client routes: every GET under /console but the contract's.
  router.get(/^\/console(\/(?!(me|sign-in-options|oidc\/.*)$).*)?$/, (_req, res) => {
    secure(res);
    res.set('cache-control', 'no-store');
    if (!fs.existsSync(index)) {
      res.status(503).set('retry-after', '60').type('html').send(NOT_BUILT);
      return;
    }
    res.sendFile(index);
  });
  return router;
}
