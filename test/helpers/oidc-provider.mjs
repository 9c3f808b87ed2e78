/**
 * A real OpenID Connect provider for the console's single sign-on tests, in a process of its
 * own: `oidc-provider` (MIT, certified by the OpenID Foundation) with one confidential client.
 *
 *   node test/helpers/oidc-provider.mjs <redirect_uri> [<host name>]
 *
 * The host name of its issuer URL is 127.0.0.1 unless given (`localhost`, for a browser test:
 * another site than the console's 127.0.0.1, as a real provider is, so that the cookies'
 * SameSite rules apply as they would).
 * prints `{"issuer": …, "clientId": …, "clientSecret": …}` on one line of stdout once it listens
 * (on a free loopback port), and stops when its stdin closes.
 *
 * Signing in: the provider's login interaction is a small form asking for an email (a browser
 * test types it); when the authorization request carries a `login_hint`, the hinted person is
 * signed in at once (an HTTP test follows the redirects). Every person exists: `sub` is derived
 * from the email, and `email_verified` is true unless the email starts with `unverified`.
 * Consent is granted at once for what the client asked.
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import Provider from 'oidc-provider';

const redirectUri = process.argv[2];
if (!redirectUri) {
  process.stderr.write('usage: oidc-provider.mjs <redirect_uri>\n');
  process.exit(2);
}
const clientId = 'trustgate-console';
const clientSecret = createHash('sha256').update(`secret ${process.pid} ${Date.now()}`).digest('base64url');

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://${process.argv[3] ?? '127.0.0.1'}:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  cookies: { keys: [clientSecret] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: () => ({
      sub: `sub-${createHash('sha256').update(id).digest('hex').slice(0, 16)}`,
      email: id,
      email_verified: !id.startsWith('unverified'),
    }),
  }),
});

/** Signs `email` in and grants what the client asked for, then lets the provider redirect back. */
async function finish(req, res, details, email) {
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: email, clientId: details.params.client_id });
  const missing = details.prompt.details ?? {};
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: email }, consent: { grantId } },
    {
      mergeWithLastSubmission: false,
    },
  );
}

const escape = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const callback = provider.callback();

server.on('request', async (req, res) => {
  if (process.env.OIDC_TEST_TRACE)
    res.on('finish', () =>
      process.stderr.write(`${req.method} ${req.url} ${res.statusCode} ${res.getHeader('location') ?? ''}\n`),
    );
  const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
  if (!match) return callback(req, res);
  try {
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      if (form.get('cancel')) {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'cancelled' });
        return;
      }
      const email = form.get('email')?.trim();
      if (!email) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('email required');
        return;
      }
      return await finish(req, res, details, email);
    }
    // Consent (the provider's second prompt, once signed in) is granted at once, for the signed-in person.
    if (details.prompt.name === 'consent') return await finish(req, res, details, details.session.accountId);
    if (details.params.login_hint) return await finish(req, res, details, String(details.params.login_hint));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><title>Test identity provider</title></head><body>
<main><h1>Test identity provider</h1>
<form method="post" action="/interaction/${escape(match[1])}">
<label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username">
<button type="submit">Continue</button> <button type="submit" name="cancel" value="1">Cancel</button>
</form></main></body></html>`);
  } catch (err) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
  }
});

process.stdout.write(`${JSON.stringify({ issuer, clientId, clientSecret })}\n`);
process.stdin.resume();
process.stdin.on('end', () => server.close(() => process.exit(0)));
