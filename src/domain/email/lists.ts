/**
 * The packaged domain lists, loaded lazily on first use and kept for the life of the process:
 * a service that never evaluates an email does not pay for parsing ~300 KB of JSON.
 *
 * - Disposable domains: `disposable-email-domains-js` (CC0-1.0), the npm packaging of the
 *   community-maintained disposable-email-domains/disposable-email-domains blocklist.
 * - Free personal mail providers: `email-providers` (ISC), `all.json` (a superset of
 *   `common.json`), minus a small deny list of domains that are not mail providers.
 */
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
import { getDomain } from 'tldts';

/**
 * Domains in `email-providers` that are not free sign-up mail services. The package is scraped
 * from a "domains that appear in email addresses" data set, so it also holds brands, content
 * sites and placeholders. Left in, their staff (or test data) would count as `personal`, which
 * hides the `business_domain` fact and the domain-level fraud signal. Deliberately short: only
 * domains we are sure about; a wrongly `personal` obscure domain costs little (see the doc).
 */
export const NOT_MAIL_PROVIDERS: ReadonlySet<string> = new Set([
  // Companies' own domains: addresses there are issued to staff, not to the public.
  'facebook.com', // Meta; the public @facebook.com mailboxes closed in 2014
  'alibaba.com', // Alibaba's public mail service is aliyun.com, which stays listed
  'bt.com', // BT's public mail is btinternet.com, which stays listed
  'go.com', // Disney's web portal
  'name.com', // a domain registrar
  'dnsmadeeasy.com', // a DNS host
  'easypost.com', // a shipping API
  'clerk.com', // an authentication SaaS
  'hidemyass.com', // a VPN brand
  'singpost.com', // Singapore's postal service
  'saudia.com', // an airline
  'nus.edu.sg', // National University of Singapore (it is `education` anyway)
  // Content sites: nobody receives mail there.
  'about.com',
  'ancestry.com',
  'discovery.com',
  'medscape.com',
  'space.com',
  'techspot.com',
  // Placeholders typed into forms, and a deliverability test tool.
  'example.com',
  'test.com',
  'test.de',
  'mydomain.com',
  'www.com',
  'mail-tester.com',
]);

/**
 * Relay (forwarding alias) services: every address at these domains, or their sub-domains, is an
 * alias its owner made to hide the real mailbox, and mail to it reaches a real person. Known
 * offline only by name; deliberately short: services whose alias domains are documented by the
 * service itself.
 */
export const RELAY_DOMAINS: ReadonlySet<string> = new Set([
  'privaterelay.appleid.com', // Apple's Hide My Email (Sign in with Apple, iCloud+)
  'mozmail.com', // Firefox Relay
  'duck.com', // DuckDuckGo Email Protection
  'simplelogin.com', // SimpleLogin (Proton)
  'aleeas.com', // SimpleLogin
  'slmail.me', // SimpleLogin
  'anonaddy.com', // addy.io (also username.anonaddy.com)
  'anonaddy.me', // addy.io
  'passmail.net', // Proton Pass aliases
]);

function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

/** The package's own `disposableEmailBlocklistSet()` rebuilds the Set on every call: build it once. */
const disposableDomains = once(() => disposableEmailBlocklistSet());

const personalProviders = once(() => {
  // A JSON file in a package without an `exports` map: plain require works from CommonJS.
  const all = require('email-providers/all.json') as readonly string[];
  return new Set(all.map((domain) => domain.toLowerCase()).filter((domain) => !NOT_MAIL_PROVIDERS.has(domain)));
});

/**
 * The domain itself and each parent up to its registrable domain (ICANN suffixes only):
 * `a.b.example.co.uk` → `a.b.example.co.uk`, `b.example.co.uk`, `example.co.uk`. Never the
 * public suffix itself, so a list entry can only ever cover one registrant's names.
 */
function selfAndParents(domain: string): string[] {
  const registrable = getDomain(domain, { allowPrivateDomains: false }) ?? domain;
  const labels = domain.split('.');
  const candidates: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    const candidate = labels.slice(i).join('.');
    candidates.push(candidate);
    if (candidate === registrable) break;
  }
  return candidates;
}

/**
 * Whether the domain, or a parent up to its registrable domain, is on the disposable list. The
 * parents matter: the list holds apexes such as `dns.army` whose every sub-domain hands out
 * throwaway mailboxes, and a throwaway service can mint sub-domains faster than lists grow.
 */
export function isDisposableDomain(domain: string): boolean {
  if (!domain) return false;
  const list = disposableDomains();
  return selfAndParents(domain).some((candidate) => list.has(candidate));
}

/**
 * Whether the domain is a free personal mail provider. Exact match only: `corp.yahoo.com` is
 * Yahoo's staff, not a Yahoo Mail user.
 */
export function isPersonalProvider(domain: string): boolean {
  return domain !== '' && personalProviders().has(domain);
}

/** Whether the domain, or a parent up to its registrable domain, is a relay service's (`RELAY_DOMAINS`). */
export function isRelayDomain(domain: string): boolean {
  if (!domain) return false;
  return selfAndParents(domain).some((candidate) => RELAY_DOMAINS.has(candidate));
}
