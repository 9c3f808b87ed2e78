import fc from 'fast-check';
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
import {
  emailFacts,
  emailIntelligence,
  NOT_MAIL_PROVIDERS,
  RELAY_DOMAINS,
  RISK_WEIGHTS,
  TRUST_WEIGHTS,
  type DomainType,
  type EmailFacts,
  type EmailHistory,
} from '../../src/domain/email';

const NOW = new Date('2026-06-01T12:00:00Z');
const yearsAgo = (years: number, extraDays = 0): Date => {
  const d = new Date(NOW.getTime());
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() - extraDays);
  return d;
};
/** A quiet history: seen once, a while ago, never with fraud. Tests override what they need. */
const history = (over: Partial<EmailHistory> = {}): EmailHistory => ({
  accountsFromDomain: 0,
  firstSeen: new Date('2026-05-01T00:00:00Z'),
  fraudAccountsWithAddress: 0,
  fraudAccountsAtDomain: 0,
  now: NOW,
  ...over,
});

describe('emailFacts: normalisation and alias', () => {
  it('when a Gmail address has dots, a +tag, upper case and googlemail.com, then it is folded to one gmail.com mailbox and flagged as an alias', () => {
    const facts = emailFacts('  J.O.H.N.Doe+shopping@GoogleMail.com ');
    expect(facts.address).toBe('J.O.H.N.Doe+shopping@GoogleMail.com');
    expect(facts.normalised).toBe('johndoe@gmail.com');
    expect(facts.domain).toBe('gmail.com');
    expect(facts.alias).toBe(true);
  });

  it('when a Gmail address only differs in case, then it is lower-cased and is not an alias', () => {
    const facts = emailFacts('JohnDoe@GMAIL.com');
    expect(facts.normalised).toBe('johndoe@gmail.com');
    expect(facts.alias).toBe(false);
  });

  it('when an Outlook address has a +tag and dots, then the tag is removed, the dots are kept, and it is an alias', () => {
    const facts = emailFacts('Jane.Roe+news@Outlook.com');
    expect(facts.normalised).toBe('jane.roe@outlook.com');
    expect(facts.alias).toBe(true);
    expect(emailFacts('jane.roe@outlook.com').alias).toBe(false);
  });

  it('when the domain is not a provider known to ignore dots or tags, then dots and +tag are kept', () => {
    const facts = emailFacts('First.Last+billing@Acme-Widgets.com');
    expect(facts.normalised).toBe('first.last+billing@acme-widgets.com');
    expect(facts.alias).toBe(false);
  });

  it('when a Yahoo address has a hyphen, then it is kept, since stripping could merge different people', () => {
    expect(emailFacts('john-smith@yahoo.com').normalised).toBe('john-smith@yahoo.com');
  });

  it('when the whole address is upper case, then the normalised address and domain are lower case', () => {
    const facts = emailFacts('BOB@EXAMPLE-CORP.DE');
    expect(facts.normalised).toBe('bob@example-corp.de');
    expect(facts.domain).toBe('example-corp.de');
    expect(facts.alias).toBe(false);
  });

  it('when the provider rules would leave nothing (+tag@gmail.com), then the address is only lower-cased', () => {
    expect(emailFacts('+Tag@gmail.com').normalised).toBe('+tag@gmail.com');
  });
});

describe('emailFacts: kept for the addresses asked about lately', () => {
  it('when an address is asked about again, then the same frozen facts come back, and after 300 other addresses facts equal to the first', () => {
    const first = emailFacts('Kept.Once+tag@Gmail.com');
    expect(emailFacts('Kept.Once+tag@Gmail.com')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    for (let i = 0; i < 300; i++)
      expect(emailFacts(`other.${i}@example.org`).normalised).toBe(`other.${i}@example.org`);
    const again = emailFacts('Kept.Once+tag@Gmail.com');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(again.normalised).toBe('keptonce@gmail.com');
  });

  it('when two texts differ only in the space around them, then each has its own entry with the same address', () => {
    expect(emailFacts(' spaced@example.org').address).toBe('spaced@example.org');
    expect(emailFacts('spaced@example.org ').address).toBe('spaced@example.org');
  });
});

describe('emailFacts: validity', () => {
  it.each([
    'not an email',
    'a@',
    '@gmail.com',
    'john..doe@gmail.com',
    'a b@acme.com',
    'Bob <bob@acme.com>',
    'user@[8.8.8.8]',
    'user@localhost',
    '',
  ])('when the syntax is invalid (%j), then valid is false and domain_type is invalid', (raw) => {
    const facts = emailFacts(raw);
    expect(facts.valid).toBe(false);
    expect(facts.domain_type).toBe('invalid');
  });

  it.each(['a\ud800b', 'a\ud800b@gmail.com', 'ada@gm\udfffail.com', '\udc00'])(
    'when validator cannot judge the text (%j, a lone surrogate), then it is invalid, not a crash',
    (raw) => {
      const facts = emailFacts(raw);
      expect(facts.valid).toBe(false);
      expect(facts.domain_type).toBe('invalid');
    },
  );

  it('when there is no @, then the domain is empty and the address is only lower-cased', () => {
    const facts = emailFacts('Nope');
    expect(facts.domain).toBe('');
    expect(facts.normalised).toBe('nope');
  });

  it('when the top-level domain does not exist (user@example.invalidtld), then valid is false and domain_type is invalid', () => {
    const facts = emailFacts('user@example.invalidtld');
    expect(facts.valid).toBe(false);
    expect(facts.domain_type).toBe('invalid');
    expect(facts.domain).toBe('example.invalidtld');
  });

  it.each(['user@co.uk', 'user@example.com', 'user@example.org', 'user@shop.test'])(
    'when the domain is only a public suffix, reserved, or a special-use name (%s), then it is not valid',
    (raw) => {
      expect(emailFacts(raw).valid).toBe(false);
    },
  );

  it('when the domain is under a private suffix (x.github.io), then the real ICANN suffix makes it valid', () => {
    expect(emailFacts('me@someone.github.io').valid).toBe(true);
  });
});

describe('emailFacts: domain type', () => {
  it('when the domain is on the disposable list (mailinator.com), then disposable is true, personal false, domain_type disposable', () => {
    expect(disposableEmailBlocklistSet().has('mailinator.com')).toBe(true);
    const facts = emailFacts('someone@mailinator.com');
    expect(facts).toMatchObject({ valid: true, disposable: true, personal: false, domain_type: 'disposable' });
  });

  it('when a sub-domain of a listed disposable apex is used, then it is disposable too', () => {
    expect(emailFacts('x@anything.dns.army').disposable).toBe(true);
  });

  it.each(['gmail.com', 'outlook.com', 'yahoo.com', 'gmx.de', 'proton.me'])(
    'when the domain is a free provider (%s), then personal is true and domain_type personal',
    (domain) => {
      expect(emailFacts(`someone@${domain}`)).toMatchObject({
        valid: true,
        personal: true,
        disposable: false,
        domain_type: 'personal',
      });
    },
  );

  it('when the domain is a company (stripe.com), then domain_type is business', () => {
    expect(emailFacts('ceo@stripe.com')).toMatchObject({
      valid: true,
      personal: false,
      disposable: false,
      domain_type: 'business',
    });
  });

  it("when the address is Apple's Hide My Email (privaterelay.appleid.com), then domain_type is relay and it stays personal", () => {
    expect(emailFacts('x7k2mq9p4r@privaterelay.appleid.com')).toMatchObject({
      valid: true,
      disposable: false,
      personal: true,
      domain_type: 'relay',
    });
  });

  it.each(['mozmail.com', 'duck.com', 'slmail.me', 'someone.anonaddy.com'])(
    'when the domain is a relay service (%s) or a sub-domain of one, then domain_type is relay',
    (domain) => {
      expect(emailFacts(`alias.1234@${domain}`).domain_type).toBe('relay');
    },
  );

  it('when the relay list is checked against the disposable list, then no relay domain is on it (relay is reached, not disposable)', () => {
    expect([...RELAY_DOMAINS].filter((domain) => disposableEmailBlocklistSet().has(domain))).toEqual([]);
  });

  it('when the provider list wrongly holds a non-provider (facebook.com), then the deny list makes it business', () => {
    expect(emailFacts('staff@facebook.com').domain_type).toBe('business');
  });

  it('when every deny-list entry is checked against the package, then each is still listed there (no stale entries)', () => {
    const listed = new Set(require('email-providers/all.json') as string[]);
    expect([...NOT_MAIL_PROVIDERS].filter((domain) => !listed.has(domain))).toEqual([]);
  });

  it.each([
    'prof@mit.edu',
    'student@cs.ox.ac.uk',
    'x@monash.edu.au',
    'teacher@lausd.k12.ca.us',
    'head@stmarys.lancs.sch.uk',
  ])('when the domain is in an education zone (%s), then domain_type is education', (raw) => {
    expect(emailFacts(raw).domain_type).toBe('education');
  });

  it.each([
    'clerk@irs.gov',
    'x@army.mil',
    'x@cabinetoffice.gov.uk',
    'x@interieur.gouv.fr',
    'x@mofa.go.jp',
    'x@sat.gob.mx',
    'x@x.ac.gov.br',
  ])('when the domain is in a government zone (%s), then domain_type is government', (raw) => {
    expect(emailFacts(raw).domain_type).toBe('government');
  });

  it('when a look-alike label is open to anyone (x.go.it is Gorizia, foo.ac is Ascension Island), then it is business', () => {
    expect(emailFacts('a@comune.go.it').domain_type).toBe('business');
    expect(emailFacts('a@startup.ac').domain_type).toBe('business');
  });

  it('when an education domain is also in the provider list, then education wins', () => {
    expect(emailFacts('x@live.mdx.ac.uk').domain_type).toBe('education');
  });
});

describe('emailIntelligence', () => {
  it('when the facts and a quiet history are given, then the wire fields mirror them', () => {
    const out = emailIntelligence(emailFacts('Someone@Gmail.com'), history({ accountsFromDomain: 42 }));
    expect(out).toEqual({
      email: 'someone@gmail.com',
      disposable: false,
      personal: true,
      valid: true,
      domain_type: 'personal',
      email_score: 0,
      trust_signals: [],
      risk_signals: [],
      num_account_from_domain: 42,
    });
  });

  it('when the address was never seen here, then new_address is a risk signal', () => {
    const out = emailIntelligence(emailFacts('a@gmail.com'), history({ firstSeen: undefined }));
    expect(out.risk_signals).toEqual(['new_address']);
    expect(out.email_score).toBe(RISK_WEIGHTS.new_address);
  });

  it('when the address was first seen just over 1 year ago, then email_age_greater_than_1_year only', () => {
    const out = emailIntelligence(emailFacts('a@gmail.com'), history({ firstSeen: yearsAgo(1, 1) }));
    expect(out.trust_signals).toEqual(['email_age_greater_than_1_year']);
    expect(out.email_score).toBe(-0.2);
  });

  it('when the address was first seen exactly 1 year ago, then it is not yet older than a year', () => {
    expect(emailIntelligence(emailFacts('a@gmail.com'), history({ firstSeen: yearsAgo(1) })).trust_signals).toEqual([]);
  });

  it('when the address was first seen over 5 years ago, then both age signals, and the score drops by both weights', () => {
    const out = emailIntelligence(emailFacts('a@gmail.com'), history({ firstSeen: yearsAgo(5, 1) }));
    expect(out.trust_signals).toEqual(['email_age_greater_than_1_year', 'email_age_greater_than_5_years']);
    expect(out.email_score).toBe(-0.4);
  });

  it('when firstSeen is after now (clock skew), then no age trust and not new', () => {
    const out = emailIntelligence(emailFacts('a@gmail.com'), history({ firstSeen: new Date(NOW.getTime() + 60_000) }));
    expect(out.trust_signals).toEqual([]);
    expect(out.risk_signals).toEqual([]);
  });

  it('when the address is on fraud accounts, then address_seen_on_fraud_accounts raises the score', () => {
    const out = emailIntelligence(emailFacts('a@gmail.com'), history({ fraudAccountsWithAddress: 2 }));
    expect(out.risk_signals).toEqual(['address_seen_on_fraud_accounts']);
    expect(out.email_score).toBe(0.6);
  });

  it('when fraud accounts share a business domain, then domain_seen_on_fraud_accounts fires', () => {
    const out = emailIntelligence(
      emailFacts('a@acme-widgets.com'),
      history({ fraudAccountsAtDomain: 1, accountsFromDomain: 3 }),
    );
    expect(out.risk_signals).toEqual(['domain_seen_on_fraud_accounts']);
    expect(out.trust_signals).toEqual(['business_domain']);
    expect(out.email_score).toBe(0.2);
  });

  it('when fraud accounts share a personal domain (gmail.com), then it is noise and no domain signal fires', () => {
    const out = emailIntelligence(
      emailFacts('a@gmail.com'),
      history({ fraudAccountsAtDomain: 5000, accountsFromDomain: 90000 }),
    );
    expect(out.risk_signals).toEqual([]);
  });

  it('when the address is disposable and never seen before, then the risk signals add up', () => {
    const out = emailIntelligence(emailFacts('x@mailinator.com'), history({ firstSeen: undefined }));
    expect(out.risk_signals).toEqual(['disposable_domain', 'new_address']);
    expect(out.email_score).toBe(0.7);
  });

  it('when the address is invalid, then invalid_address is a risk signal and there is no domain trust', () => {
    const out = emailIntelligence(emailFacts('user@example.invalidtld'), history());
    expect(out.risk_signals).toEqual(['invalid_address']);
    expect(out.trust_signals).toEqual([]);
    expect(out.domain_type).toBe('invalid');
  });

  it.each<[string, string, number]>([
    ['x@stanford.edu', 'education_domain', -0.2],
    ['x@irs.gov', 'government_domain', -0.3],
  ])('when the address is %s, then %s is a trust signal', (raw, signal, score) => {
    const out = emailIntelligence(emailFacts(raw), history());
    expect(out.trust_signals).toEqual([signal]);
    expect(out.email_score).toBe(score);
  });

  it('when everything is risky at once, then the score is clamped to 1', () => {
    const facts: EmailFacts = {
      ...emailFacts('J.Doe+x@gmail.com'),
      valid: false,
      disposable: true,
      domain_type: 'invalid',
    };
    const out = emailIntelligence(facts, history({ firstSeen: undefined, fraudAccountsWithAddress: 9 }));
    expect(out.email_score).toBe(1);
  });

  it('when counts from storage are unusable (negative, NaN, fractional), then they read as whole non-negative numbers', () => {
    expect(
      emailIntelligence(emailFacts('a@gmail.com'), history({ accountsFromDomain: -3 })).num_account_from_domain,
    ).toBe(0);
    expect(
      emailIntelligence(emailFacts('a@gmail.com'), history({ accountsFromDomain: Number.NaN })).num_account_from_domain,
    ).toBe(0);
    expect(
      emailIntelligence(emailFacts('a@gmail.com'), history({ accountsFromDomain: 7.9 })).num_account_from_domain,
    ).toBe(7);
  });

  it("when the doc's worked example is evaluated, then the documented signals and score come out", () => {
    const out = emailIntelligence(emailFacts('J.Doe+shop@GoogleMail.com'), {
      accountsFromDomain: 1200,
      firstSeen: new Date('2023-03-10T09:00:00Z'),
      fraudAccountsWithAddress: 1,
      fraudAccountsAtDomain: 37,
      now: new Date('2026-06-01T12:00:00Z'),
    });
    expect(out).toEqual({
      email: 'jdoe@gmail.com',
      disposable: false,
      personal: true,
      valid: true,
      domain_type: 'personal',
      email_score: 0.6,
      trust_signals: ['email_age_greater_than_1_year'],
      risk_signals: ['address_seen_on_fraud_accounts', 'email_alias'],
      num_account_from_domain: 1200,
    });
  });
});

describe('properties', () => {
  const DOMAIN_TYPES: DomainType[] = ['personal', 'business', 'disposable', 'education', 'government', 'invalid'];
  const anyFacts = fc.record<EmailFacts>({
    address: fc.string(),
    normalised: fc.string(),
    domain: fc.string(),
    valid: fc.boolean(),
    disposable: fc.boolean(),
    personal: fc.boolean(),
    domain_type: fc.constantFrom(...DOMAIN_TYPES),
    alias: fc.boolean(),
  });
  const anyDate = fc.date({
    min: new Date('1990-01-01T00:00:00Z'),
    max: new Date('2100-01-01T00:00:00Z'),
    noInvalidDate: true,
  });
  const anyCount = fc.oneof(fc.nat(), fc.integer({ min: -5, max: 5 }), fc.double());
  const anyHistory = fc.record<EmailHistory>(
    {
      accountsFromDomain: anyCount,
      firstSeen: anyDate,
      fraudAccountsWithAddress: anyCount,
      fraudAccountsAtDomain: anyCount,
      now: anyDate,
    },
    { requiredKeys: ['accountsFromDomain', 'fraudAccountsWithAddress', 'fraudAccountsAtDomain', 'now'] },
  );

  it('when any facts and history are scored, then the score is within [-1, 1] and the count is a non-negative integer', () => {
    fc.assert(
      fc.property(anyFacts, anyHistory, (facts, hist) => {
        const out = emailIntelligence(facts, hist);
        expect(out.email_score).toBeGreaterThanOrEqual(-1);
        expect(out.email_score).toBeLessThanOrEqual(1);
        expect(Number.isInteger(out.num_account_from_domain) && out.num_account_from_domain >= 0).toBe(true);
      }),
    );
  });

  it('when more fraud is recorded or the address is younger, then the score never goes down', () => {
    fc.assert(
      fc.property(
        anyFacts,
        anyHistory,
        fc.nat(),
        fc.nat(),
        fc.nat({ max: 10 * 365 }),
        (facts, hist, moreOnAddress, moreAtDomain, daysLater) => {
          const base = emailIntelligence(facts, hist).email_score;
          const firstSeen = hist.firstSeen && new Date(hist.firstSeen.getTime() + daysLater * 86_400_000);
          const riskier = {
            ...hist,
            firstSeen,
            fraudAccountsWithAddress: hist.fraudAccountsWithAddress + moreOnAddress,
            fraudAccountsAtDomain: hist.fraudAccountsAtDomain + moreAtDomain,
          };
          expect(emailIntelligence(facts, riskier).email_score).toBeGreaterThanOrEqual(base);
          expect(emailIntelligence(facts, { ...hist, firstSeen: undefined }).email_score).toBeGreaterThanOrEqual(base);
        },
      ),
    );
  });

  it('when a risk fact of the address is turned on, then the score never goes down', () => {
    fc.assert(
      fc.property(anyFacts, anyHistory, fc.constantFrom('valid', 'disposable', 'alias'), (facts, hist, fact) => {
        const base = emailIntelligence({ ...facts, valid: true, disposable: false, alias: false }, hist).email_score;
        const flipped = {
          ...facts,
          valid: fact !== 'valid',
          disposable: fact === 'disposable',
          alias: fact === 'alias',
        };
        expect(emailIntelligence(flipped, hist).email_score).toBeGreaterThanOrEqual(base);
      }),
    );
  });

  /** An address or any string with a UTF-16 surrogate alone somewhere in it. */
  const withLoneSurrogate = fc
    .tuple(fc.oneof(fc.emailAddress(), fc.string()), fc.nat(), fc.integer({ min: 0xd800, max: 0xdfff }))
    .map(
      ([text, at, unit]) =>
        text.slice(0, at % (text.length + 1)) + String.fromCharCode(unit) + text.slice(at % (text.length + 1)),
    );

  it('when any string is given (lone surrogates too), then emailFacts does not throw and domain_type is invalid exactly when valid is false', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.emailAddress(), fc.string({ unit: 'grapheme' }), withLoneSurrogate),
        (raw) => {
          const facts = emailFacts(raw);
          expect(facts.domain_type === 'invalid').toBe(!facts.valid);
          expect(facts.normalised).toBe(facts.normalised.toLowerCase());
          expect(facts.domain).toBe(facts.domain.toLowerCase());
        },
      ),
    );
  });

  it('when weights are read, then every weight is positive (what makes the score monotone)', () => {
    expect(Object.values(RISK_WEIGHTS).every((w) => w > 0)).toBe(true);
    expect(Object.values(TRUST_WEIGHTS).every((w) => w > 0)).toBe(true);
  });
});
