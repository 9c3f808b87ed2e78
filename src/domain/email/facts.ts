/**
 * What an email address says about itself, with no history: normal form, validity and the kind
 * of domain. Pure apart from reading the packaged lists (see lists.ts).
 */
import isEmail from 'validator/lib/isEmail';
import normalizeEmail from 'validator/lib/normalizeEmail';
import type { EmailIntelligence } from '../../api-types';
import { isDisposableDomain, isPersonalProvider, isRelayDomain } from './lists';
import { suffixFacts, type SuffixFacts } from './suffix';

export type DomainType = EmailIntelligence['domain_type'];

export interface EmailFacts {
  /** The address as given, trimmed. */
  address: string;
  /** Lower case; dots and +tag removed only where the provider ignores them (see NORMALISE). */
  normalised: string;
  /** Lower-case domain of the normalised address ('' when there is none). */
  domain: string;
  /** Syntactically valid and the domain has a real (ICANN, non-reserved) public suffix. */
  valid: boolean;
  /** The domain, or a parent up to its registrable domain, is a known disposable provider. */
  disposable: boolean;
  /** The domain is a free personal mail provider (never also disposable). */
  personal: boolean;
  /** invalid > disposable > relay > education > government > personal > business. */
  domain_type: DomainType;
  /** The local part differs from the normalised one beyond case (dots or +tag removed). */
  alias: boolean;
}

/**
 * validator's defaults, written out so that each is a decision:
 * - `allow_utf8_local_part`: internationalised addresses (RFC 6531) are real addresses.
 * - `allow_display_name`, `allow_ip_domain`: `Name <a@b.c>` and `a@[1.2.3.4]` are not what an
 *   account's email field should hold; an IP has no public suffix anyway.
 * - `domain_specific_validation` off: it applies Gmail's current username rules, which would
 *   call some long-lived legacy addresses invalid.
 */
const IS_EMAIL = {
  allow_display_name: false,
  allow_utf8_local_part: true,
  require_tld: true,
  allow_ip_domain: false,
  domain_specific_validation: false,
  ignore_max_length: false,
} as const;

/**
 * Only provider rules that map two spellings onto one mailbox:
 * - Gmail ignores dots and `+tag`, and googlemail.com is gmail.com.
 * - Outlook.com/Hotmail/Live and iCloud deliver `+tag` to the same mailbox (dots do matter there).
 * - Yandex's domains (yandex.com, ya.ru, …) are one mailbox: folded onto yandex.ru.
 * - Yahoo's `-keyword` stripping is OFF: Yahoo has no `+tag`; its disposable addresses are
 *   `basename-keyword` where the base name is chosen separately from the account's address,
 *   so stripping does not reveal the mailbox and risks merging unrelated people.
 * - Everything is lower-cased: RFC 5321 lets a local part be case-sensitive, but no mainstream
 *   provider delivers `Bob@` and `bob@` to different people, and matching needs one spelling.
 */
const NORMALISE = {
  all_lowercase: true,
  gmail_lowercase: true,
  gmail_remove_dots: true,
  gmail_remove_subaddress: true,
  gmail_convert_googlemaildotcom: true,
  outlookdotcom_lowercase: true,
  outlookdotcom_remove_subaddress: true,
  icloud_lowercase: true,
  icloud_remove_subaddress: true,
  yahoo_lowercase: true,
  yahoo_remove_subaddress: false,
  yandex_lowercase: true,
  yandex_convert_yandexru: true,
} as const;

/**
 * Provider rules only for addresses that pass the syntax check: an invalid address is no
 * provider's mailbox, and validator's split would turn `nope` into `@nope`. It also rejects
 * what the rules empty (`+tag@gmail.com`): both cases fall back to lower-casing.
 */
function normalise(address: string, syntaxValid: boolean): string {
  const normalised = syntaxValid ? normalizeEmail(address, NORMALISE) : false;
  return normalised === false ? address.toLowerCase() : normalised;
}

function splitAt(address: string): { local: string; domain: string } {
  const at = address.lastIndexOf('@');
  return at < 0 ? { local: address, domain: '' } : { local: address.slice(0, at), domain: address.slice(at + 1) };
}

function isAlias(address: string, normalised: string): boolean {
  return splitAt(address).local.toLowerCase() !== splitAt(normalised).local;
}

function domainType(
  valid: boolean,
  disposable: boolean,
  domain: string,
  suffix: SuffixFacts,
  personal: boolean,
): DomainType {
  if (!valid) return 'invalid';
  if (disposable) return 'disposable';
  if (isRelayDomain(domain)) return 'relay';
  if (suffix.education) return 'education';
  if (suffix.government) return 'government';
  if (personal) return 'personal';
  return 'business';
}

/**
 * validator's verdict, or false when it cannot give one: it throws on text it cannot encode
 * (a lone surrogate makes its byte-length check's encodeURI throw a URIError). The API refuses
 * such text before it gets here (openapi.yaml's Text); this keeps any other caller from crashing.
 */
function syntaxOk(address: string): boolean {
  try {
    return isEmail(address, IS_EMAIL);
  } catch {
    return false;
  }
}

/**
 * The facts of the addresses asked about lately, by the text as given. An authenticate asks for
 * its account's three times (applying the input, its email history's keys, its intelligence),
 * and each reading parses the address again. Bounded: the oldest goes first. The facts are frozen, being shared.
 */
const recent = new Map<string, Readonly<EmailFacts>>();
const RECENT = 256;

export function emailFacts(raw: string): Readonly<EmailFacts> {
  const known = recent.get(raw);
  if (known !== undefined) return known;
  const facts = Object.freeze(factsOf(raw));
  if (recent.size >= RECENT) recent.delete(recent.keys().next().value as string);
  recent.set(raw, facts);
  return facts;
}

function factsOf(raw: string): EmailFacts {
  const address = raw.trim();
  const syntaxValid = syntaxOk(address);
  const normalised = normalise(address, syntaxValid);
  const domain = splitAt(normalised).domain.toLowerCase();
  const suffix = suffixFacts(domain);
  const valid = syntaxValid && suffix.real;
  const disposable = isDisposableDomain(domain);
  // Some throwaway services (mailinator.com, yopmail.com…) are also in the provider list; the
  // disposable list is the more specific, maintained claim, and `personal` + `disposable`
  // together would only confuse a reader.
  const personal = !disposable && isPersonalProvider(domain);
  return {
    address,
    normalised,
    domain,
    valid,
    disposable,
    personal,
    domain_type: domainType(valid, disposable, domain, suffix, personal),
    alias: isAlias(address, normalised),
  };
}
