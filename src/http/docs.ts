/**
 * The API reference at /docs: Swagger UI from the swagger-ui-dist package, served from this
 * server (no CDN), over the bundled spec at /openapi.json.
 */
import express, { type Router } from 'express';
// The folder alone: the package's index loads Swagger UI's 1.4 MB browser bundle into the
// process, only to serve it as a file.
import absolutePath from 'swagger-ui-dist/absolute-path';
import { BUNDLED_SPEC_PATH } from '../spec';
import { ICON_LINK } from './home';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Trustgate API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  ${ICON_LINK}
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="api-reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api-reference', deepLinking: true });
`;

export function makeDocsRouter(): Router {
  const router = express.Router();
  router.get('/openapi.json', (_req, res) => {
    res.sendFile(BUNDLED_SPEC_PATH);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('js').send(INIT);
  });
  router.use('/docs/assets', express.static(absolutePath(), { index: false, maxAge: '1d' }));
  return router;
}
