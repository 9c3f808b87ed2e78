'use strict';
// The customer's sign-up page of the detection benchmark, with Trustgate's SDK and, beside it,
// BotD (@fingerprintjs/botd, its browser build served from node_modules) as the reference.
const fs = require('node:fs');
const path = require('node:path');

const BOTD = path.join(path.dirname(require.resolve('@fingerprintjs/botd')), 'botd.esm.js');

/** BotD's detect() result as the page posted it: `{ bot: true, botKind }`, `{ bot: false }` or `{ error }`. */
function botdResult(text) {
  try {
    const r = JSON.parse(text);
    if (r.bot === true && typeof r.botKind === 'string') return { bot: true, botKind: r.botKind };
    if (r.bot === false) return { bot: false };
    return { error: `BotD failed: ${String(r.error ?? text).slice(0, 80)}` };
  } catch {
    return { error: 'BotD posted no JSON' };
  }
}

/**
 * The page and its back end. The form's targets are large and placed well below the window's
 * own toolbars, so that OS-level input (xdotool, screen coordinates, no view of the DOM) lands on
 * them whatever the toolbar's height. On submit the page shows the session id and posts it to
 * the customer's back end (POST /signed-up), as a real sign-up form would; `signedUp` records
 * those ids in order. BotD runs as soon as the page loads and the page posts its result
 * (POST /botd); `botd` records them in order, so that a visit reads the one its page posted
 * (the visits run one after another), without a DevTools client: the human baseline has none.
 */
function customerPage(trustgate, projectId) {
  const signedUp = [];
  const botd = [];
  const bodyOf = (request) =>
    new Promise((resolve) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => resolve(body));
    });
  async function handler(request, response) {
    if (request.url === '/favicon.ico') return response.writeHead(204).end();
    if (request.url === '/botd.esm.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return response.end(fs.readFileSync(BOTD));
    }
    if (request.method === 'POST' && (request.url === '/signed-up' || request.url === '/botd')) {
      const body = await bodyOf(request);
      if (request.url === '/signed-up') signedUp.push(body.trim());
      else botd.push(botdResult(body));
      return response.writeHead(204).end();
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html(trustgate, projectId));
  }
  return { handler, signedUp, botd };
}

function html(trustgate, projectId) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Sign up</title>
<script src="${trustgate}/sdk.js" data-project-id="${projectId}"></script>
<script type="module">
// As BotD's README loads it, less its monitoring request (nothing but loopback is reachable here).
import { load } from '/botd.esm.js';
const send = (result) => fetch('/botd', { method: 'POST', body: JSON.stringify(result) });
load({ monitoring: false }).then((botd) => botd.detect()).then(send, (e) => send({ error: String(e) }));
</script>
<style>body{margin:0} #email{position:absolute;left:40px;top:120px;width:1100px;height:210px;font-size:40px}
#go{position:absolute;left:40px;top:380px;width:1100px;height:140px;font-size:40px}
#session{position:absolute;left:40px;top:530px}</style></head>
<body><form><input id="email" type="email"><button id="go" type="button">Sign up</button></form>
<p id="session"></p>
<script>document.getElementById('go').addEventListener('click', function () {
  Trustgate.session().then(function (s) {
    document.getElementById('session').textContent = s.session_id;
    fetch('/signed-up', { method: 'POST', body: s.session_id });
  });
});</script></body></html>`;
}

module.exports = { customerPage, botdResult };
