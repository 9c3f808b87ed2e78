/**
 * Console sign-in through OpenID Connect (docs/console-auth.md, "Single sign-on"): the
 * authorization code flow with PKCE (S256), a `state` and a `nonce`, over `openid-client`
 * (MIT, certified by the OpenID Foundation), which discovers the provider, exchanges the code
 * and validates the ID token (signature against the provider's keys, issuer, audience, expiry,
 * nonce), reading the email from it or, when it has none, from the provider's UserInfo endpoint.
 * This file is the edge: it speaks to the provider over the network and answers who signed in;
 * which operator that is, is the use case's question (usecases/operators.ts).
 *
 * - The provider's metadata is discovered on the first sign-in and kept; a failed discovery is
 *   tried again at the next one.
 * - The client authenticates at the token endpoint with `client_secret_basic` (OIDC's default),
 *   or as a public client (PKCE alone) without a secret.
 * - The library is loaded at the first sign-in (an ES module: Node's require of ES modules), so
 *   a server without single sign-on, and the CLI, never load it.
 * - Plain `http://` is accepted only for a provider on this machine (localhost, 127.0.0.0/8,
 *   ::1), for development and the tests (config.ts refuses any other http issuer).
 */
import type * as OpenIdClient from 'openid-client';
import { isLoopbackHost, type OidcConfig } from '../config';

/** What a sign-in keeps in the browser between the redirect to the provider and its return. */
export interface OidcTransaction {
  state: string;
  nonce: string;
  verifier: string;
}

/** Who the provider says signed in (the ID token's claims). */
export interface OidcIdentity {
  /** `iss` and `sub`: the person at that provider. */
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
}

export interface OidcSignIn {
  /** The sign-in button's text (OIDC_LABEL). */
  label: string;
  /** Where the provider sends the browser back (OIDC_REDIRECT_URL). */
  redirectUrl: string;
  /** The provider's authorization URL for a new sign-in, and what to keep until it returns. */
  start(loginHint?: string): Promise<{ url: string; transaction: OidcTransaction }>;
  /** Exchanges the code of the return (its query, as received) and validates the ID token: throws when anything fails. */
  finish(query: URLSearchParams, transaction: OidcTransaction): Promise<OidcIdentity>;
}

export function makeOidcSignIn(config: OidcConfig): OidcSignIn {
  const issuer = new URL(config.issuer);
  const insecure = issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
  let discovered: Promise<{ client: typeof OpenIdClient; found: OpenIdClient.Configuration }> | undefined;
  const configuration = () => {
    discovered ??= import('openid-client')
      .then(async (client) => ({
        client,
        found: await client.discovery(
          issuer,
          config.clientId,
          undefined,
          config.clientSecret ? client.ClientSecretBasic(config.clientSecret) : client.None(),
          insecure ? { execute: [client.allowInsecureRequests] } : undefined,
        ),
      }))
      .catch((err: unknown) => {
        discovered = undefined;
        throw err;
      });
    return discovered;
  };
  return {
    label: config.label,
    redirectUrl: config.redirectUrl,
    async start(loginHint) {
      const { client, found } = await configuration();
      const transaction = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(found, {
        redirect_uri: config.redirectUrl,
        scope: config.scopes,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(transaction.verifier),
        code_challenge_method: 'S256',
        state: transaction.state,
        nonce: transaction.nonce,
        ...(loginHint ? { login_hint: loginHint } : {}),
      });
      return { url: url.href, transaction };
    },
    async finish(query, transaction) {
      const { client, found } = await configuration();
      // The return as the provider made it: the registered redirect URL with the query received
      // (never the request's own Host header).
      const returned = new URL(config.redirectUrl);
      returned.search = query.toString();
      const tokens = await client.authorizationCodeGrant(found, returned, {
        pkceCodeVerifier: transaction.verifier,
        expectedState: transaction.state,
        expectedNonce: transaction.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('the provider answered no ID token');
      // A provider may give the email scope's claims at its UserInfo endpoint only (OIDC Core
      // 5.4): asked there for the same subject when the ID token has no email.
      const email =
        typeof claims.email === 'string' ? claims : await client.fetchUserInfo(found, tokens.access_token, claims.sub);
      return {
        issuer: claims.iss,
        subject: claims.sub,
        ...(typeof email.email === 'string' ? { email: email.email } : {}),
        emailVerified: email.email_verified === true,
      };
    },
  };
}
