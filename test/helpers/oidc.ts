/**
 * The test OpenID Connect provider (oidc-provider.mjs beside this file) as a process of its own,
 * and the console's single sign-on set up against it.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { makeOidcSignIn, type OidcSignIn } from '../../src/security/oidc';

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The console's side, configured for this provider (label `Test SSO`). */
  signIn: OidcSignIn;
  stop(): Promise<void>;
}

/**
 * Starts a provider whose one client returns to `redirectUri` (the console's callback), its
 * issuer on 127.0.0.1 unless `host` says otherwise (`localhost`: another site for a browser).
 */
export async function startOidcProvider(redirectUri: string, host = '127.0.0.1'): Promise<TestOidcProvider> {
  const child = spawn(process.execPath, [path.join(__dirname, 'oidc-provider.mjs'), redirectUri, host], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the test OIDC provider exited (${code})`)));
  });
  const client = JSON.parse(first) as { issuer: string; clientId: string; clientSecret: string };
  return {
    ...client,
    signIn: makeOidcSignIn({ ...client, redirectUrl: redirectUri, scopes: 'openid email', label: 'Test SSO' }),
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}
