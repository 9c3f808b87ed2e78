/**
 * What one evaluation is computed from: plain data the use case gathers in a few reads
 * (storage/evaluation/reads.ts), and nothing else. No clock, no database.
 */
import type {
  EvaluatedRiskSignalScores,
  EvaluatedSession,
  Evaluation,
  MatchType,
  ScoreBreakdown,
  WindowCounts,
} from '../../api-types';
import type { CompiledRules } from '../rules';
import type { BotEvidence } from '../scoring';
import type { SdkFacts } from '../session/sdk-facts';
import type { IpListName, SignalHistory } from '../signals';

/** One of the account's (or a device's) sessions, as history, linking and the travel rule need it. */
export interface PastSession {
  id: string;
  startTime: Date;
  deviceId: string;
  browserFingerprint?: string;
  ipAddress: string;
  ipBlock?: string;
  connectionType?: string;
  countryCode?: string;
  mobileId?: string;
  appleDeviceKey?: string;
  /** Its latest evaluation's signal scores, when it was evaluated. */
  scores?: { scores: EvaluatedRiskSignalScores; spoofedIp: boolean };
  /** Where it was, when the IP data placed it. */
  location?: { latitude: number; longitude: number; accuracyKm: number; anonymised: boolean };
}

/** The four scores of an evaluation (unrounded in an outcome; the response and the account keep them rounded). */
export type Scores = Pick<Evaluation, 'account_score' | 'bot' | 'multiple_accounts' | 'risk_signals'>;

/** Each score's breakdown (domain/scoring/breakdown.ts): the score is its `value`. */
export type Breakdowns = Record<keyof Scores, ScoreBreakdown>;

/**
 * What the scores weighed beyond the signals, as evaluate() computed it: the bot evidence, the
 * linked accounts' scores (in order), the email's score; and in a test project what the account
 * id forced (domain/test-mode). An evaluation keeps it compactly (receipt.ts) to rebuild its receipt.
 */
export interface ScoreInputs {
  bot: BotEvidence;
  linkScores: number[];
  emailScore?: number;
  forced?: 'fake' | 'real' | 'signal';
}

/** An account's aggregates over its sessions, kept on the account row at every link. */
export interface AccountAggregates {
  numSessions: number;
  firstSeen?: Date;
  lastSeen?: Date;
  lastSessionId?: string;
  lastCountry?: string;
  /** Sorted. */
  countries: string[];
}

export const NO_AGGREGATES: AccountAggregates = { numSessions: 0, countries: [] };

/** An account as Trustgate keeps it, with the normalised identifiers linking searches. */
export interface AccountRecord {
  projectId: string;
  id: string;
  email?: string;
  emailKey?: string;
  emailDomain?: string;
  phone?: string;
  phoneKey?: string;
  firstName?: string;
  lastName?: string;
  nameKey?: string;
  username?: string;
  usernameKey?: string;
  expectedCountries: string[];
  metadata: Record<string, unknown>;
  group?: string;
  /** The latest decision of a session authenticated with the account. */
  decision?: 'Real' | 'Fake';
  /** The scores of that evaluation, as its response gave them (absent for accounts last evaluated before they were kept). */
  scores?: Scores;
  /** The evaluation that gave them: its request id and time (absent for accounts last evaluated before they were kept). */
  lastEvaluation?: { requestId: string; at: Date };
  createdAt: Date;
  updatedAt: Date;
  aggregates: AccountAggregates;
  /** Bumped at every write; a write is conditional on the version that was read. */
  version: number;
}

/** The session being evaluated. */
export interface CurrentSession extends PastSession {
  facts: EvaluatedSession;
  sdk: SdkFacts;
  /** The accounts it was authenticated with, oldest link first. */
  accountIds: string[];
}

/** The history of the account's email address and domain, from the project's other accounts. */
export interface EmailHistoryFacts {
  /** Other accounts with an address at the domain. */
  accountsFromDomain: number;
  /** When the address was first seen on another account. */
  addressFirstSeen?: Date;
  /** Other accounts with the address that were decided Fake or are block-listed. */
  fraudAccountsWithAddress: number;
  /** 1 when another account at an organisation's domain is fraudulent, else 0. */
  fraudAccountsAtDomain: number;
}

/** The accounts found sharing one identifier value (at most the cap, plus one). */
export interface IdentifierMatch {
  type: MatchType;
  value: string;
  accountIds: string[];
}

/** The accounts on one followed session's address (±24 h) and block (±1 h). */
export interface NetworkMatch {
  sessionId: string;
  onIp: string[];
  onBlock: string[];
}

/** What a linked account is, as the response describes it (describeLinks) and the group rule filters it. */
export type LinkedAccountRecord = Pick<
  AccountRecord,
  'id' | 'email' | 'phone' | 'firstName' | 'lastName' | 'username' | 'expectedCountries' | 'metadata' | 'group'
> & { aggregates: Pick<AccountAggregates, 'firstSeen' | 'lastSeen'> };

/** A linked account with its lists. */
export interface LinkedRecord {
  record: LinkedAccountRecord;
  lists: string[];
}

/** A stored account with its lists. */
export interface AccountWithLists {
  record: AccountRecord;
  lists: string[];
}

/**
 * An account's kept devices and networks (uniques.ts): the values in each window, and the newest
 * start kept of this session's device and network when it is in the week (older, it is in neither window).
 */
export interface StoredUniques {
  devices: WindowCounts;
  networks: WindowCounts;
  deviceLastStart?: Date;
  networkLastStart?: Date;
}

export interface EvaluationFacts {
  now: Date;
  /** authenticate (a form was submitted) or unauthenticated. */
  interactive: boolean;
  project: { decisionThreshold: number; linkScoreFloor: number; groupsEnabled: boolean };
  session: CurrentSession;
  /** The IP lists the session's address is on, and those of the previous session's address. */
  ipLists: ReadonlySet<IpListName>;
  previousIpLists: ReadonlySet<IpListName>;
  /** Fraud and crowd on the session's address and block (counts; the travel rule's previous session apart). */
  network: Omit<SignalHistory, 'previous'>;
  /** The session before this one, of the account or (without one) of the device. */
  previous?: PastSession;
  /** authenticate: the account with the request's input applied, its lists after the request, its history. */
  account?: {
    record: AccountRecord;
    /** The stored account before the request (undefined: a new account). */
    existing?: AccountRecord;
    lists: string[];
    /** Its newest sessions before this request (at most ACCOUNT_SESSIONS_READ), newest first. */
    sessions: PastSession[];
    email?: EmailHistoryFacts;
    /** Its kept devices and networks in the windows of its details (uniques.ts `uniquesQuery`; absent: none kept). */
    uniques?: StoredUniques;
  };
  /** unauthenticated: the lists of the accounts the session was used with. */
  sessionAccountLists: string[];
  /** With groups on: the group links must share (authenticate: the account's; unauthenticated: the session's account's). */
  linkGroup?: string;
  identifierMatches: IdentifierMatch[];
  networkMatches: NetworkMatch[];
  /** The found accounts' records and lists (read when links are described or filtered by group). */
  linked: Map<string, LinkedRecord>;
  /** The project's rules, compiled once per version (absent: none). */
  rules?: CompiledRules;
}

/** Whose email history to read: the address's key and domain, the account itself left out. */
export interface EmailQuery {
  domain?: string;
  key?: string;
  excludeAccount: string;
  domainFraud: boolean;
}
