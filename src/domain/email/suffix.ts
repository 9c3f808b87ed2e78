/**
 * What a domain's public suffix says about it, from the ICANN section of the Public Suffix
 * List (tldts). Education and government come from registry-controlled zones (`edu`, `ac.uk`,
 * `gov.br`, `gouv.fr`, …): only the institutions can register there, which is exactly why those
 * zones are public suffixes. Institutions outside such zones (`ox.ac.uk` is found, `usp.br` or
 * `uni-heidelberg.de` are not) are `business`, the safe side of the mistake.
 */
import { parse } from 'tldts';

export interface SuffixFacts {
  /** The domain sits under an ICANN public suffix and is more than the suffix itself. */
  real: boolean;
  education: boolean;
  government: boolean;
}

/**
 * Second-level domains reserved for documentation (RFC 2606 §3). Their suffix is real, but no
 * mailbox can ever exist there, so an address at one is not a real address.
 */
export const RESERVED_DOMAINS: ReadonlySet<string> = new Set(['example.com', 'example.net', 'example.org']);

/** Top-level domains restricted to the institutions themselves. */
const EDUCATION_TLDS = new Set(['edu']);
const GOVERNMENT_TLDS = new Set(['gov', 'mil']);

/**
 * Labels that name an education or government zone below a country code: `ac.uk`, `edu.au`,
 * `ed.jp`, `*.sch.uk`, `k12.ca.us`, `school.nz`; `gov.uk`, `gouv.fr`, `gob.mx`, `gub.uy`,
 * `govt.nz`, `go.jp`, `gv.at`, `gc.ca`, `gok.pk`/`gos.pk`, `mil.br`. Checked on every label
 * of the suffix but the top-level one, because `.ac` (Ascension Island) is open to anyone.
 */
const EDUCATION_LABELS = new Set(['edu', 'ac', 'ed', 'sch', 'school', 'k12']);
const GOVERNMENT_LABELS = new Set(['gov', 'gouv', 'govt', 'gob', 'gub', 'go', 'gv', 'gc', 'gok', 'gos', 'mil']);

/** Suffixes whose label collides with the sets above but means something else. */
const NOT_EDUCATION = new Set(['school.museum', 'ac.gov.br']); // museums; the state of Acre's government
const NOT_GOVERNMENT = new Set(['go.it']); // the province of Gorizia, open to anyone

function zoneMatches(
  suffix: string,
  tlds: ReadonlySet<string>,
  labels: ReadonlySet<string>,
  exceptions: ReadonlySet<string>,
): boolean {
  if (exceptions.has(suffix)) return false;
  const parts = suffix.split('.');
  const tld = parts[parts.length - 1]!; // split returns at least one part
  return tlds.has(tld) || parts.slice(0, -1).some((label) => labels.has(label));
}

export function suffixFacts(domain: string): SuffixFacts {
  // Private suffixes (github.io, blogspot.com…) are ignored: they are hosting conveniences,
  // not registries, and an address at `x.github.io` is still under the real suffix `io`.
  const parsed = parse(domain, { allowPrivateDomains: false, extractHostname: false });
  const suffix = parsed.publicSuffix ?? '';
  const real =
    parsed.isIcann === true && !parsed.isIp && parsed.domain !== null && !RESERVED_DOMAINS.has(parsed.domain);
  return {
    real,
    education: real && zoneMatches(suffix, EDUCATION_TLDS, EDUCATION_LABELS, NOT_EDUCATION),
    government: real && zoneMatches(suffix, GOVERNMENT_TLDS, GOVERNMENT_LABELS, NOT_GOVERNMENT),
  };
}
