/** The console's sign-in through OpenID Connect (docs/console-auth.md, "Single sign-on"). */
import { ConfigError } from './env';

/** An OpenID Connect provider for the console's sign-in (OIDC_*; docs/console-auth.md, "Single sign-on"). */
export interface OidcConfig {
  /** The provider's issuer URL (its discovery document is at `<issuer>/.well-known/openid-configuration`). */
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone). */
  clientSecret?: string;
  /** Where the provider sends the browser back: OIDC_REDIRECT_URL, else PUBLIC_BASE_URL + /console/oidc/callback. */
  redirectUrl: string;
  /** The scopes asked for: `openid email` unless OIDC_SCOPES says otherwise (openid and email are needed). */
  scopes: string;
  /** The sign-in button's text. */
  label: string;
}

/**
 * Whether a host name is this machine's (localhost, 127.0.0.0/8, ::1): the only one plain http
 * is accepted for, for an OIDC provider.
 */
export const isLoopbackHost = (hostname: string): boolean => /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(hostname);

/** The console's OpenID Connect settings: all or nothing, https (or http on this machine only). */
export function oidcConfig(env: NodeJS.ProcessEnv, base: string | undefined): OidcConfig | undefined {
  const issuer = env.OIDC_ISSUER || undefined;
  if (!issuer) {
    const stray = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URL'].filter((name) => env[name]);
    if (stray.length > 0) throw new ConfigError(`${stray.join(', ')} set without OIDC_ISSUER`);
    return undefined;
  }
  const secure = (name: string, raw: string): URL => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(`${name} must be a URL, got ${JSON.stringify(raw)}`);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
      throw new ConfigError(`${name} must be an https URL (http only on this machine: localhost, 127.0.0.1, ::1)`);
    if (url.username || url.password || url.hash)
      throw new ConfigError(`${name} must carry no credentials or fragment`);
    return url;
  };
  secure('OIDC_ISSUER', issuer);
  const clientId = env.OIDC_CLIENT_ID || undefined;
  if (!clientId) throw new ConfigError('OIDC_CLIENT_ID is required with OIDC_ISSUER');
  const redirect = env.OIDC_REDIRECT_URL || (base ? `${base}/console/oidc/callback` : undefined);
  if (!redirect) throw new ConfigError('OIDC_ISSUER needs PUBLIC_BASE_URL (or OIDC_REDIRECT_URL) for its redirect URL');
  const redirectUrl = secure('OIDC_REDIRECT_URL', redirect);
  if (!redirectUrl.pathname.endsWith('/console/oidc/callback') || redirectUrl.search)
    throw new ConfigError('OIDC_REDIRECT_URL must end with /console/oidc/callback and carry no query');
  const scopes = (env.OIDC_SCOPES || 'openid email').trim().split(/\s+/);
  if (!scopes.includes('openid') || !scopes.includes('email'))
    throw new ConfigError(`OIDC_SCOPES must include openid and email, got ${JSON.stringify(env.OIDC_SCOPES)}`);
  return {
    issuer,
    clientId,
    ...(env.OIDC_CLIENT_SECRET ? { clientSecret: env.OIDC_CLIENT_SECRET } : {}),
    redirectUrl: redirectUrl.href,
    scopes: scopes.join(' '),
    label: env.OIDC_LABEL || 'Single sign-on',
  };
}
