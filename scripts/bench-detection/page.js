'use strict';
// The customer's sign-up page of the detection benchmark, with Trustgate's SDK.

/**
 * The customer's sign-up page. The form's targets are large and placed well below the window's
 * own toolbars, so that OS-level input (xdotool, screen coordinates, no view of the DOM) lands on
 * them whatever the toolbar's height. On submit the page shows the session id and posts it to
 * the customer's back end (POST /signed-up), as a real sign-up form would; `signedUp` records
 * those ids in order.
 */
function customerPage(trustgate, projectId) {
  const signedUp = [];
  function handler(request, response) {
    if (request.url === '/favicon.ico') return response.writeHead(204).end();
    if (request.url === '/signed-up' && request.method === 'POST') {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => (signedUp.push(body.trim()), response.writeHead(204).end()));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><meta charset="utf-8"><title>Sign up</title>
<script src="${trustgate}/sdk.js" data-project-id="${projectId}"></script>
<style>body{margin:0} #email{position:absolute;left:40px;top:170px;width:1100px;height:150px;font-size:40px}
#go{position:absolute;left:40px;top:400px;width:1100px;height:120px;font-size:40px}
#session{position:absolute;left:40px;top:540px}</style></head>
<body><form><input id="email" type="email"><button id="go" type="button">Sign up</button></form>
<p id="session"></p>
<script>document.getElementById('go').addEventListener('click', function () {
  Trustgate.session().then(function (s) {
    document.getElementById('session').textContent = s.session_id;
    fetch('/signed-up', { method: 'POST', body: s.session_id });
  });
});</script></body></html>`);
  }
  return { handler, signedUp };
}

module.exports = { customerPage };
