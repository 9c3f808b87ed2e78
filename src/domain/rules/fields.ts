/**
 * The fields a rule's condition can name: paths into the evaluation as authenticate and
 * unauthenticated return it (openapi.yaml `AuthenticateResponse`), each with its kind. The
 * lists of names are checked against the generated types (`satisfies`), so a member renamed
 * in the contract breaks the build here, not a customer's rules. docs/rules.md lists them;
 * test/domain/rules.test.ts fails when the two drift apart.
 */
import type {
  AccountDetails,
  AuthenticateResponse,
  Bot,
  Decision,
  Device,
  EmailIntelligence,
  EvaluatedNetwork,
  EvaluatedRiskSignalScores,
  EvaluatedRiskSignals,
  EvaluatedSession,
  LinkedAccount,
  Location,
  MatchType,
  RuleFieldKind,
} from '../../api-types';
import { AVERAGED_SIGNALS } from '../scoring';

/** number: compared as numbers; boolean; string; strings: a list of text (`contains`); any: metadata, compared as given. */
export type FieldKind = RuleFieldKind;

/**
 * What a rule reads: the evaluation in the response's shape, before the rules apply
 * (`decision` is the scores' and lists' decision). `account` is authenticate's only; the
 * linked accounts carry their match types whether or not `accounts_linked=true` was asked for.
 */
export type RuleSubject = Pick<
  AuthenticateResponse,
  'decision' | 'account_score' | 'bot' | 'multiple_accounts' | 'risk_signals' | 'accounts_linked' | 'lists'
> & {
  session: EvaluatedSession;
  account?: AccountDetails;
  linked_accounts: Pick<LinkedAccount, 'account_id' | 'score' | 'match_type'>[];
};

/** Every risk signal of the evaluated session: the averaged ones and `ip_reputation`. */
const RISK_SIGNALS = [...AVERAGED_SIGNALS, 'ip_reputation'] as const satisfies readonly (keyof EvaluatedRiskSignals)[];

/** Each has a score but `spoofed_ip`. */
const RISK_SIGNAL_SCORES = RISK_SIGNALS.filter(
  (s): s is Exclude<(typeof RISK_SIGNALS)[number], 'spoofed_ip'> => s !== 'spoofed_ip',
) satisfies readonly (keyof EvaluatedRiskSignalScores)[];

const BOT_COUNTS = [
  'mouse_num_events',
  'click_num_events',
  'keyboard_num_events',
  'touch_num_events',
  'clipboard_num_events',
] as const satisfies readonly (keyof Bot)[];

const LOCATION: Partial<Record<keyof Location, FieldKind>> = {
  continent: 'string',
  country_code: 'string',
  state: 'string',
  city: 'string',
  timezone: 'string',
  latitude: 'number',
  longitude: 'number',
};

const EMAIL = {
  disposable: 'boolean',
  personal: 'boolean',
  valid: 'boolean',
  domain_type: 'string',
  email_score: 'number',
  trust_signals: 'strings',
  risk_signals: 'strings',
  num_account_from_domain: 'number',
} as const satisfies Partial<Record<keyof EmailIntelligence, FieldKind>>;

const each = <K extends string>(prefix: string, names: readonly K[], kind: FieldKind) =>
  Object.fromEntries(names.map((n) => [`${prefix}${n}`, kind]));
const prefixed = (prefix: string, kinds: Partial<Record<string, FieldKind>>) =>
  Object.fromEntries(Object.entries(kinds).map(([n, kind]) => [`${prefix}${n}`, kind as FieldKind]));

/** Every field a condition can name, and its kind. */
export const RULE_FIELDS: Readonly<Record<string, FieldKind>> = {
  decision: 'string',
  account_score: 'number',
  bot: 'number',
  multiple_accounts: 'number',
  risk_signals: 'number',
  accounts_linked: 'number',
  lists: 'strings',
  ...each('session.risk_signals.', RISK_SIGNALS, 'boolean'),
  ...each('session.risk_signal_scores.', RISK_SIGNAL_SCORES, 'number'),
  'session.risk_signal_details.network': 'strings',
  'session.risk_signal_details.device': 'strings',
  'session.source': 'string',
  'session.true_country_code': 'string',
  'session.device_id': 'string',
  ...prefixed('session.location.', LOCATION),
  'session.network.ip_address': 'string',
  'session.network.service_provider': 'string',
  'session.network.connection_type': 'string',
  'session.network.asn': 'number',
  'session.network.subnet': 'string',
  'session.browser.type': 'string',
  'session.browser.version': 'string',
  'session.browser.language': 'string',
  'session.browser.user_agent': 'string',
  'session.browser.timezone': 'string',
  'session.device.category': 'string',
  'session.device.type': 'string',
  'session.device.os': 'string',
  ...each('session.bot.', BOT_COUNTS, 'number'),
  'account.account.id': 'string',
  'account.account.email': 'string',
  'account.account.group': 'string',
  'account.num_sessions': 'number',
  'account.country': 'string',
  'account.countries': 'strings',
  'account.unique_devices.1_day': 'number',
  'account.unique_devices.7_day': 'number',
  'account.unique_networks.1_day': 'number',
  'account.unique_networks.7_day': 'number',
  ...each('account.risk_signal_average.', AVERAGED_SIGNALS, 'number'),
  ...prefixed('account.email.', EMAIL),
  'linked_accounts.match_type': 'strings',
};

/** Each member of a closed set, keyed by the contract's type: a value added to the contract's enum breaks the build here. */
const members = <T extends string>(set: Record<T, true>): readonly T[] => Object.keys(set) as T[];

/**
 * The values of the fields the contract gives a closed set (for a list field, its items'):
 * what the console's builder offers to pick from (GET /rules/fields). The checks of a document
 * do not refuse other values: a comparison with a value outside the set is merely never true.
 */
export const FIELD_VALUES: Readonly<Record<string, readonly string[]>> = {
  decision: members<Decision>({ Real: true, Fake: true }),
  'session.network.connection_type': members<NonNullable<EvaluatedNetwork['connection_type']>>({
    isp: true,
    mobile: true,
    hosting: true,
    education: true,
    government: true,
    private_relay: true,
  }),
  'session.device.category': members<NonNullable<Device['category']>>({
    desktop: true,
    mobile: true,
    tablet: true,
    console: true,
    smarttv: true,
    wearable: true,
    embedded: true,
    other: true,
  }),
  'account.email.domain_type': members<NonNullable<EmailIntelligence['domain_type']>>({
    personal: true,
    business: true,
    disposable: true,
    education: true,
    government: true,
    invalid: true,
    relay: true,
  }),
  'linked_accounts.match_type': members<MatchType>({
    browser: true,
    device: true,
    network: true,
    email: true,
    phone: true,
    username: true,
    name: true,
    mobile_id: true,
    apple_device_check: true,
  }),
};

/** Any member of the account's metadata: `account.account.metadata.<name>` (one level). */
export const METADATA_PREFIX = 'account.account.metadata.';

/** The kind of a field, or undefined for a field rules cannot name. */
export function fieldKind(field: string): FieldKind | undefined {
  if (Object.hasOwn(RULE_FIELDS, field)) return RULE_FIELDS[field];
  if (field.startsWith(METADATA_PREFIX) && field.length > METADATA_PREFIX.length) return 'any';
  return undefined;
}

/**
 * A reader of the field: walks the path; through a list of objects (the linked accounts) it
 * gathers the member of each, flattened. Undefined when the evaluation does not have it.
 */
export function fieldReader(field: string): (subject: RuleSubject) => unknown {
  // The metadata member's name is taken whole (it may hold dots).
  const keys = field.startsWith(METADATA_PREFIX)
    ? [...METADATA_PREFIX.slice(0, -1).split('.'), field.slice(METADATA_PREFIX.length)]
    : field.split('.');
  return (subject) => {
    let at: unknown = subject;
    for (const key of keys) {
      if (Array.isArray(at)) at = at.flatMap((item: unknown) => member(item, key) ?? []);
      else at = member(at, key);
      if (at === undefined || at === null) return undefined;
    }
    return at;
  };
}

function member(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
  return (value as Record<string, unknown>)[key];
}
