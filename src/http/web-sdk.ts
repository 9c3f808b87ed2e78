/**
 * GET /sdk.js: the bundled web SDK (built from packages/web by `npm run build`). Pages on any site
 * load it with a script tag, so it may be embedded cross-origin; it is cached briefly, so a new
 * release reaches pages within minutes.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import type { ErrorBody } from '../api-types';
import { PACKAGE_ROOT } from '../spec';

export const SDK_BUNDLE_PATH = path.join(PACKAGE_ROOT, 'dist', 'sdk', 'trustgate.js');

export function makeWebSdkRouter(bundlePath: string = SDK_BUNDLE_PATH): Router {
  const router = express.Router();
  router.get('/sdk.js', (_req, res) => {
    if (!fs.existsSync(bundlePath)) {
      const body: ErrorBody = { statusCode: 503, message: 'The web SDK is not built; run `npm run build`' };
      res.status(503).json(body);
      return;
    }
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.sendFile(bundlePath, { maxAge: '5m', headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
  });
  return router;
}
