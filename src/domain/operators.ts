/**
 * Who may call which operation (docs/console-auth.md): one table from each operationId of the
 * contract to the least role an operator needs for it, and the rule for API keys (a full key
 * may call every operation, a read-only one only GETs, but for the GET that writes). Pure: the
 * HTTP layer gathers the facts (which credential, the method, whether the CSRF token matched)
 * and asks `refusal`.
 */
import type { operations, OperatorRole } from '../api-types';

/** An operationId of the contract (of its paths, and of webhooks.yaml's events). */
export type OperationId = keyof operations;

/** What an API key may do: everything (`full`), or read only (`read_only`: GET requests only). */
export type ApiKeyScope = 'full' | 'read_only';
export const API_KEY_SCOPES = ['full', 'read_only'] as const satisfies readonly ApiKeyScope[];

/** The roles from least to most: each may do what the ones before it may. */
export const OPERATOR_ROLES = ['viewer', 'analyst', 'admin'] as const satisfies readonly OperatorRole[];

export const isOperatorRole = (value: string): value is OperatorRole =>
  (OPERATOR_ROLES as readonly string[]).includes(value);

/**
 * `public`: an operation no credential is asked for (or one of its own, as /metrics' token).
 * `full_key`: a GET that writes all the same, kept for compatibility (docs/compatibility.md):
 * a read-only key must not write through it, nor an operator's cookie, which a GET sends
 * without a CSRF token (a same-site page could make the browser send it).
 */
export type Requirement = OperatorRole | 'public' | 'full_key';

/**
 * The least role of each operation. viewer: reads; analyst: also labels accounts, changes
 * list memberships, proposes rules drafts and works cases; admin: everything else (settings, rules, lists themselves, account
 * changes, evaluations and verifications, which machines make with keys). The compiler
 * checks that each name is an operationId (the generated `operations` also holds the
 * webhooks', which no request calls); test/domain/operators.test.ts checks that every
 * operation of the spec's paths has an entry, `public` exactly when it asks for no credentials.
 */
export const OPERATION_ROLES = {
  getSession: 'viewer',
  // Both take API keys only (their security in openapi.yaml): the evaluation path checks the key alone.
  authenticateSession: 'admin',
  evaluateUnauthenticatedSession: 'admin',
  // The query form of createVerificationSession: it creates a session though it is a GET.
  getVerificationSession: 'full_key',
  createVerificationSession: 'admin',
  cancelVerificationSession: 'public',
  uploadVerificationCapture: 'public',
  completeVerificationSession: 'public',
  verifyFace: 'admin',
  verifyId: 'admin',
  enrollAccount: 'admin',
  verifyIdentity: 'admin',
  redirectToVerification: 'public',
  getAccount: 'viewer',
  putAccount: 'admin',
  deleteAccount: 'admin',
  getAccountSessions: 'viewer',
  getAccountLinkedAccounts: 'viewer',
  getAccountRing: 'viewer',
  // Changes list memberships (many at once): an analyst's, as one membership is.
  blockAccountRing: 'analyst',
  // The images come as 5-minute signed URLs; reading them is a read like the account's own data.
  listAccountVerifications: 'viewer',
  labelAccount: 'analyst',
  listAccountLabels: 'viewer',
  getLabelReport: 'viewer',
  listAccounts: 'viewer',
  exportAccounts: 'viewer',
  listSessions: 'viewer',
  exportSessions: 'viewer',
  getLists: 'viewer',
  getList: 'viewer',
  createList: 'admin',
  deleteList: 'admin',
  addAccountToList: 'analyst',
  removeAccountFromList: 'analyst',
  // Working the review queue is an analyst's job: opening, assigning, noting and closing cases.
  listCases: 'viewer',
  openCase: 'analyst',
  getCase: 'viewer',
  updateCase: 'analyst',
  closeCase: 'analyst',
  addCaseNote: 'analyst',
  getProject: 'viewer',
  updateProject: 'admin',
  rotateWebhookSecret: 'admin',
  listAuditEvents: 'viewer',
  listOperators: 'viewer',
  getStats: 'viewer',
  listWebhookDeliveries: 'viewer',
  getWebhookDelivery: 'viewer',
  // Sends an event to the customer's receiver again: an action, not a setting.
  replayWebhookDelivery: 'analyst',
  getRules: 'viewer',
  putRules: 'admin',
  // A backtest reads and stores nothing (a POST for its body: read-only API keys cannot send it).
  testRules: 'viewer',
  listRuleFields: 'viewer',
  // The builder's preview: a backtest of the last days, for those who draft.
  previewRules: 'analyst',
  listRuleDrafts: 'viewer',
  getRuleDraft: 'viewer',
  // Analysts draft and test; an admin other than the draft's author publishes it (four-eyes).
  createRuleDraft: 'analyst',
  publishRuleDraft: 'admin',
  rejectRuleDraft: 'admin',
  getEvaluation: 'viewer',
  consoleLogin: 'public',
  getConsoleSignInOptions: 'public',
  startConsoleOidcSignIn: 'public',
  finishConsoleOidcSignIn: 'public',
  consoleLogout: 'viewer',
  getConsoleSession: 'viewer',
  createIngestChallenge: 'public',
  ingestSession: 'public',
  getHealth: 'public',
  getReadiness: 'public',
  getMetrics: 'public',
} as const satisfies Partial<Record<OperationId, Requirement>>;

/** The credential a request was authenticated with, as far as authorisation cares. */
export type Credential =
  { kind: 'api_key'; scope: ApiKeyScope } | { kind: 'operator'; role: OperatorRole; csrfTokenMatches: boolean };

/** Methods that change nothing (a read-only key and a request without a CSRF token may use them). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why the credential may not call the operation with this method, or undefined when it may.
 * An operation missing from the table is refused (it cannot happen while the table type-checks).
 */
export function refusal(operationId: string, method: string, credential: Credential): string | undefined {
  const required = (OPERATION_ROLES as Record<string, Requirement | undefined>)[operationId];
  if (required === undefined) return `${operationId} has no role in the authorisation table`;
  if (required === 'public') return undefined;
  if (required === 'full_key')
    return credential.kind === 'api_key' && credential.scope === 'full'
      ? undefined
      : `${operationId} creates data although it is a GET: only a full-access API key may call it`;
  const safe = SAFE_METHODS.has(method.toUpperCase());
  if (credential.kind === 'api_key')
    return credential.scope === 'read_only' && !safe
      ? 'This API key is read-only; only GET requests are allowed'
      : undefined;
  if (!safe && !credential.csrfTokenMatches) return 'Missing or wrong x-csrf-token header';
  if (OPERATOR_ROLES.indexOf(credential.role) < OPERATOR_ROLES.indexOf(required))
    return `${operationId} needs the ${required} role; this operator is ${article(credential.role)} ${credential.role}`;
  return undefined;
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/** An email as it is stored and looked up: trimmed and lower-cased. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
