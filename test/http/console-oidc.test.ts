/**
 * Console single sign-on through OpenID Connect, end to end over real HTTP: the app listens on
 * a loopback port, a real provider (`oidc-provider`, test/helpers/oidc-provider.mjs) runs in a
 * process of its own, and the test follows the redirects between them as a browser would,
 * keeping each origin's cookies. Response validation is on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { ConsoleSession, ConsoleSignInOptions } from '../../src/api-types';
import { makeTestContext, type TestContext } from '../helpers/app';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc';

let ctx: TestContext;
let server: http.Server;
let provider: TestOidcProvider;
let base: string;
let issuer: string;

beforeAll(async () => {
  server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = await startOidcProvider(`${base}/console/oidc/callback`);
  issuer = provider.issuer;
  ctx = await makeTestContext({ consoleInsecureCookie: true }, { oidc: provider.signIn });
  // The provider's tokens carry the real time; the console's session its clock's.
  ctx.clock.set(new Date().toISOString());
  server.on('request', ctx.app);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await provider.stop();
  await ctx.close();
});

/** Cookies by origin, as a browser keeps them (paths ignored: each origin's are all sent). */
class Jar {
  readonly cookies = new Map<string, Map<string, string>>();
  header(url: URL): string {
    return [...(this.cookies.get(url.origin) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  store(url: URL, setCookies: string[]): void {
    const jar = this.cookies.get(url.origin) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()),
      );
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.cookies.set(url.origin, jar);
  }
  get(origin: string, name: string): string | undefined {
    return this.cookies.get(origin)?.get(name);
  }
}

/**
 * Follows redirects from `start` as a browser would, until an answer that is not a redirect
 * or a redirect to the console's own pages (which the SPA would load): that last address.
 * `beforeCallback` may change the jar just before the browser returns to the callback.
 */
async function browse(start: string, jar: Jar, beforeCallback?: () => void): Promise<{ landed: URL; hops: URL[] }> {
  let url = new URL(start);
  const hops: URL[] = [];
  for (let i = 0; i < 15; i++) {
    hops.push(url);
    if (url.origin === base && url.pathname === '/console/oidc/callback') beforeCallback?.();
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) } });
    jar.store(url, res.headers.getSetCookie());
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) {
      await res.arrayBuffer();
      throw new Error(`stopped at ${url.href} with ${res.status}`);
    }
    await res.arrayBuffer();
    url = new URL(location, url);
    if (url.origin === base && url.pathname === '/console/') return { landed: url, hops };
  }
  throw new Error('too many redirects');
}

let n = 0;
async function operator(prefix = 'sso', role: 'viewer' | 'analyst' | 'admin' = 'analyst') {
  const email = `${prefix}-${n++}-${Date.now()}@example.com`;
  const added = await ctx.services.operators.add({ projectId: ctx.project.project_id, email, role, password: null });
  return { ...added, email };
}

const signInUrl = (email: string) => `${base}/console/oidc/login?login_hint=${encodeURIComponent(email)}`;

async function sessionCount(): Promise<number> {
  const [row] = await ctx.testDb.db('console_sessions').count({ n: '*' });
  return Number(row!.n);
}

describe('single sign-on (OpenID Connect)', () => {
  it('tells the sign-in page that single sign-on is offered, and its label', async () => {
    const res = await request(ctx.app).get('/console/sign-in-options');
    expect(res.status).toBe(200);
    expect(res.body as ConsoleSignInOptions).toEqual({ password: true, oidc: { label: 'Test SSO' } });
  });

  it('starts with a PKCE (S256) authorization request and a Lax, HttpOnly cookie of ten minutes', async () => {
    const res = await request(ctx.app).get('/console/oidc/login');
    expect(res.status).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(location.origin).toBe(issuer);
    expect(location.searchParams.get('client_id')).toBe('trustgate-console');
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('redirect_uri')).toBe(`${base}/console/oidc/callback`);
    expect(location.searchParams.get('scope')).toBe('openid email');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!;
    expect(cookie).toMatch(/^tg_oidc=[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}; /);
    expect(cookie).toMatch(/Max-Age=600/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    // The verifier never leaves in the URL: the challenge is its hash.
    const verifier = cookie.split(';')[0]!.split('.')[2]!;
    expect(location.href).not.toContain(verifier);
  });

  it("signs in the active operator whose verified email the provider vouches for, with the console's session cookie", async () => {
    const op = await operator('ana', 'analyst');
    const jar = new Jar();
    const { landed, hops } = await browse(signInUrl(op.email), jar);
    expect(landed.href).toBe(`${base}/console/`);
    expect(hops.some((h) => h.origin === issuer)).toBe(true);
    // The sign-in's own cookie is gone; the session's is there.
    expect(jar.get(base, 'tg_oidc')).toBeUndefined();
    const token = jar.get(base, 'tg_session');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await request(ctx.app).get('/console/me').set('cookie', `tg_session=${token}`);
    expect(me.status).toBe(200);
    const session = me.body as ConsoleSession;
    expect(session.operator).toMatchObject({ id: op.id, email: op.email, role: 'analyst' });
    expect(session.operator.project_id).toBe(ctx.project.project_id);
  });

  it('refuses a password for an operator added for single sign-on only', async () => {
    const op = await operator('only');
    const res = await request(ctx.app)
      .post('/console/login')
      .send({ email: op.email, password: 'correct horse battery staple' });
    expect(res.status).toBe(401);
  });

  it.each([
    ['unknown_operator', 'an email no operator has', async () => `nobody-${Date.now()}@example.com`],
    ['email_unverified', 'an email the provider has not verified', async () => (await operator('unverified')).email],
    [
      'unknown_operator',
      'a disabled operator',
      async () => {
        const op = await operator('gone');
        await ctx.services.operators.disable(op.email);
        return op.email;
      },
    ],
  ])('sends the browser back with sign_in_error=%s for %s, and starts no session', async (reason, _what, email) => {
    const before = await sessionCount();
    const jar = new Jar();
    const { landed } = await browse(signInUrl(await email()), jar);
    expect(landed.searchParams.get('sign_in_error')).toBe(reason);
    expect(jar.get(base, 'tg_session')).toBeUndefined();
    expect(await sessionCount()).toBe(before);
  });

  it('answers failed when the state returned is not the one this browser started with (a forged or crossed return)', async () => {
    const op = await operator('crossed');
    const before = await sessionCount();
    const jar = new Jar();
    const { landed } = await browse(signInUrl(op.email), jar, () => {
      // Another sign-in's cookie in this browser: same form, other values.
      const [, nonce, verifier] = jar.get(base, 'tg_oidc')!.split('.');
      jar.store(new URL(base), [`tg_oidc=${'A'.repeat(43)}.${nonce}.${verifier}`]);
    });
    expect(landed.searchParams.get('sign_in_error')).toBe('failed');
    expect(jar.get(base, 'tg_session')).toBeUndefined();
    expect(await sessionCount()).toBe(before);
    expect(ctx.logs.some((l) => l.msg === 'OIDC sign-in failed')).toBe(true);
  });

  it('answers failed when a code is used twice (the provider refuses it), and expired without a sign-in under way', async () => {
    const op = await operator('replay');
    const jar = new Jar();
    const oidcCookies: string[] = [];
    const { hops } = await browse(signInUrl(op.email), jar, () => oidcCookies.push(jar.get(base, 'tg_oidc')!));
    const callback = hops.find((h) => h.pathname === '/console/oidc/callback')!;
    expect(callback.searchParams.get('code')).toBeTruthy();
    const before = await sessionCount();
    const again = await request(ctx.app)
      .get(callback.pathname + callback.search)
      .set('cookie', `tg_oidc=${oidcCookies[0]}`);
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe(`${base}/console/?sign_in_error=failed`);
    const without = await request(ctx.app).get(callback.pathname + callback.search);
    expect(without.headers.location).toBe(`${base}/console/?sign_in_error=expired`);
    expect(await sessionCount()).toBe(before);
  });

  it("answers refused when the provider returns an error, and accepts the provider's own extra parameters", async () => {
    const start = await request(ctx.app).get('/console/oidc/login');
    const cookie = ([] as string[]).concat(start.headers['set-cookie'] ?? [])[0]!.split(';')[0]!;
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const res = await request(ctx.app)
      .get('/console/oidc/callback')
      .query({ error: 'access_denied', error_description: 'cancelled', state, session_state: 'xyz' })
      .set('cookie', cookie);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${base}/console/?sign_in_error=refused`);
    expect(([] as string[]).concat(res.headers['set-cookie'] ?? []).join()).toMatch(/tg_oidc=;/);
  });

  it('refuses a malformed return with 400 naming the parameter', async () => {
    const res = await request(ctx.app).get('/console/oidc/callback').query({ code: '' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/code/);
  });
});

describe('without a provider configured', () => {
  let plain: TestContext;
  beforeAll(async () => {
    plain = await makeTestContext();
  });
  afterAll(async () => {
    await plain.close();
  });

  it('offers the password only, and answers 404 to a single sign-on', async () => {
    const options = await request(plain.app).get('/console/sign-in-options');
    expect(options.body as ConsoleSignInOptions).toEqual({ password: true, oidc: null });
    const start = await request(plain.app).get('/console/oidc/login');
    expect(start.status).toBe(404);
    expect(start.body.message).toMatch(/OIDC_ISSUER/);
    const back = await request(plain.app).get('/console/oidc/callback').query({ code: 'x', state: 'y' });
    expect(back.status).toBe(404);
  });
});
