/**
 * What a person opening the service's address sees: a landing page at `/` (the name, the version
 * and links to the demo when it is on, the console, the API reference and the health check), served outside
 * the contract like /docs and /demo; and the site icon, which the pages carry inline
 * (ICON_LINK: no request) and `/favicon.ico` serves to any page that does not and to browsers
 * that ask anyway.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import { PACKAGE_ROOT } from '../spec';

/** A shield with a tick: Trustgate's icon, 32 × 32. */
const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<path d="M16 2 4 7v8c0 7.3 5.1 13.2 12 15 6.9-1.8 12-7.7 12-15V7z" fill="#1f5fbf"/>' +
  '<path d="m10 16 4 4 8-8" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>';

/** The `<link>` a page puts in its head to show the icon without fetching /favicon.ico. */
export const ICON_LINK = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(ICON_SVG)}">`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function landingPage(pkg: { version: string; description: string }, demo: boolean): string {
  const links = [
    ...(demo
      ? ['<li><a href="/demo">Demo</a>: a sign-up page with the web SDK on it, and what Trustgate learns</li>']
      : []),
    '<li><a href="/console">Console</a>: the analysts\' pages (sign in as an operator: ' +
      '<code>npx trustgate user add --project PROJECT_ID --email EMAIL --role admin</code> adds one)</li>',
    '<li><a href="/docs">API reference</a> (<a href="/openapi.json">openapi.json</a>); ' +
      'the guides are the <code>docs/</code> folder of the checkout</li>',
    '<li><a href="/healthz">Health</a>: the service and its database</li>',
  ];
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Trustgate ${escapeHtml(pkg.version)}</title>
  ${ICON_LINK}
  <style>body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }</style>
</head>
<body>
  <h1>Trustgate</h1>
  <p>Version ${escapeHtml(pkg.version)}. ${escapeHtml(pkg.description)}</p>
  <ul>
    ${links.join('\n    ')}
  </ul>
</body>
</html>
`;
}

export function makeHomeRouter(options: { demo: boolean }): Router {
  const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string;
    description: string;
  };
  const page = landingPage(pkg, options.demo);
  const router = express.Router();
  router.get('/', (_req, res) => {
    res.type('html').send(page);
  });
  router.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').send(ICON_SVG);
  });
  return router;
}
