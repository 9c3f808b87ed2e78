/**
 * The shell's one search box: what was typed, and where it goes (docs/console.md, "The search
 * box"). The kind is read from the text by these rules, in order:
 *
 * 1. an IPv4 or IPv6 address with `/bits`: a network (sessions from the block);
 * 2. an IPv4 or IPv6 address: sessions from it;
 * 3. `local@domain`: the accounts with that address (GET /accounts?email=, as linking compares them);
 * 4. `@domain`: the accounts at that domain (GET /accounts?email_domain=);
 * 5. anything else is an identifier, which may be an account id, a session id (a lowercase
 *    UUID), a device id or a browser fingerprint: the API is asked which, with the existing
 *    operations (GET /account/{id}, GET /session/{id} for a UUID, GET /sessions?device_id=&limit=1,
 *    GET /accounts?fingerprint=&limit=1), all at once. One answer: its page. Several: a choice.
 *    None: a text like `example.com` is taken as an email domain, else "nothing found".
 *
 * Every destination is an address of the console (the account page or a search with its
 * filters), so a result can be shared and reloaded like any other.
 */
import { api } from '../api';
import { withQuery } from '../router';

export interface Destination {
  /** What it is, as the choice shows it ("Account", "Device", …). */
  kind: string;
  to: string;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
/** Hex groups and colons with at least two colons (the API checks the rest and answers a 400 naming the field). */
const IPV6 = /^[0-9a-f:]*:[0-9a-f:]*:[0-9a-f:.]*$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DOMAIN = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;

const isIp = (text: string) => IPV4.test(text) || IPV6.test(text);

/** Where a text goes without asking the server, or undefined for an identifier (rule 5). */
export function classify(text: string): Destination | undefined {
  const slash = text.indexOf('/');
  if (slash > 0 && isIp(text.slice(0, slash)) && /^\d{1,3}$/.test(text.slice(slash + 1)))
    return { kind: 'Network', to: withQuery('/search', { tab: 'sessions', network: text }) };
  if (isIp(text)) return { kind: 'IP address', to: withQuery('/search', { tab: 'sessions', ip_address: text }) };
  const at = text.lastIndexOf('@');
  if (at > 0 && at < text.length - 1)
    return { kind: 'Email', to: withQuery('/search', { tab: 'accounts', email: text }) };
  if (at === 0 && text.length > 1)
    return { kind: 'Email domain', to: withQuery('/search', { tab: 'accounts', email_domain: text.slice(1) }) };
  return undefined;
}

/** The pages an identifier has (rule 5), asked of the API at once; a failed or refused call finds nothing. */
export async function resolveIdentifier(text: string): Promise<Destination[]> {
  const ok = <T>(p: Promise<{ data?: T }>) => p.then((r) => r.data).catch(() => undefined);
  const [account, session, device, fingerprint] = await Promise.all([
    ok(api.GET('/account/{account_id}', { params: { path: { account_id: text } } })),
    UUID.test(text) ? ok(api.GET('/session/{session_id}', { params: { path: { session_id: text } } })) : undefined,
    ok(api.GET('/sessions', { params: { query: { device_id: text, limit: 1 } } })),
    ok(api.GET('/accounts', { params: { query: { fingerprint: text, limit: 1 } } })),
  ]);
  const found: Destination[] = [];
  if (account) found.push({ kind: 'Account', to: `/accounts/${encodeURIComponent(text)}` });
  if (session) {
    // The session itself: its device's sessions that started in its millisecond.
    const start = new Date(session.start_time);
    found.push({
      kind: 'Session',
      to: withQuery('/search', {
        tab: 'sessions',
        device_id: session.device_id,
        from: start.toISOString(),
        to: new Date(start.getTime() + 1).toISOString(),
      }),
    });
  }
  if (device?.sessions.length)
    found.push({ kind: 'Device', to: withQuery('/search', { tab: 'sessions', device_id: text }) });
  if (fingerprint?.accounts.length)
    found.push({ kind: 'Fingerprint', to: withQuery('/search', { tab: 'accounts', fingerprint: text }) });
  if (found.length === 0 && DOMAIN.test(text))
    found.push({ kind: 'Email domain', to: withQuery('/search', { tab: 'accounts', email_domain: text }) });
  return found;
}
