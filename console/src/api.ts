/**
 * The console's one door to Trustgate: openapi-fetch over the contract's generated `paths`
 * (like packages/client), with the session cookie (same origin) and, on every request other
 * than a GET, the session's CSRF token in `x-csrf-token` (docs/console-auth.md). This module
 * is the only importer of the generated types: it gives the shapes the pages use short names.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../generated/openapi';

type Schemas = components['schemas'];
export type AccountPage = Schemas['AccountPage'];
export type AccountResponse = Schemas['AccountResponse'];
export type AccountRing = Schemas['AccountRing'];
export type RingNode = Schemas['RingNode'];
export type RingBlocked = Schemas['RingBlocked'];
export type RingBlockRequest = Schemas['RingBlockRequest'];
export type AccountSummary = Schemas['AccountSummary'];
export type ConfusionCounts = Schemas['ConfusionCounts'];
export type AccountVerification = Schemas['AccountVerification'];
export type EmailIntelligence = Schemas['EmailIntelligence'];
export type EvaluationReceipt = Schemas['EvaluationReceipt'];
export type MatchType = Schemas['MatchType'];
export type ScoreBreakdown = Schemas['ScoreBreakdown'];
export type Session = Schemas['Session'];
export type SignalAverages = Schemas['SignalAverages'];
export type AuditEvent = Schemas['AuditEvent'];
export type Case = Schemas['Case'];
export type CasePage = Schemas['CasePage'];
export type CaseFilters = NonNullable<paths['/cases']['get']['parameters']['query']>;
export type AuditPage = Schemas['AuditEvents'];
export type ConsoleSession = Schemas['ConsoleSession'];
export type ConsoleSignInOptions = Schemas['ConsoleSignInOptions'];
export type Decision = Schemas['Decision'];
export type ErrorBody = Schemas['ErrorBody'];
export type EvaluationStats = Schemas['EvaluationStats'];
export type LabelValue = Schemas['LabelValue'];
export type LinkedAccount = Schemas['LinkedAccount'];
export type ListPage = Schemas['ListPage'];
export type ListSummary = Schemas['ListSummary'];
export type Operator = Schemas['Operator'];
export type RuleCondition = Schemas['RuleCondition'];
export type RiskSignalName = Schemas['RiskSignalName'];
export type RuleDefinition = Schemas['RuleDefinition'];
export type RuleChange = Schemas['RuleChange'];
export type RuleDraft = Schemas['RuleDraft'];
export type RuleDraftSummary = Schemas['RuleDraftSummary'];
export type RuleField = Schemas['RuleField'];
export type RuleOperator = Schemas['RuleOperator'];
export type RuleScalar = Schemas['RuleScalar'];
export type Rules = Schemas['Rules'];
export type RulesPreview = Schemas['RulesPreview'];
export type RulesTestResult = Schemas['RulesTestResult'];
export type SessionPage = Schemas['SessionPage'];
export type SessionSummary = Schemas['SessionSummary'];
export type SubscribableEventType = Schemas['WebhookEvents'][number];
export type WebhookDeliveries = Schemas['WebhookDeliveries'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];
export type WebhookDeliveryStatus = Schemas['WebhookDeliveryStatus'];
export type WebhookFilters = NonNullable<paths['/webhooks/deliveries']['get']['parameters']['query']>;
export type AccountFilters = NonNullable<paths['/accounts']['get']['parameters']['query']>;
export type SessionFilters = NonNullable<paths['/sessions']['get']['parameters']['query']>;

let csrfToken: string | undefined;
let onSignedOut: () => void = () => {};

/** The CSRF token of the signed-in session (from POST /console/login or GET /console/me); undefined once signed out. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** What to do when the server says the session is over (a 401 on any call but signing in). */
export function whenSignedOut(callback: () => void): void {
  onSignedOut = callback;
}

const session: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && csrfToken) request.headers.set('x-csrf-token', csrfToken);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && !request.url.endsWith('/console/login')) onSignedOut();
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(session);

/** The message of an error answer (the contract's `{statusCode, message}`), or a generic one. */
export function errorMessage(error: unknown, response?: Response): string {
  const message = (error as Partial<ErrorBody> | undefined)?.message;
  if (typeof message === 'string' && message) return message;
  return response ? `The server answered ${response.status}` : 'The server could not be reached';
}

/** Whether an operator of this role may change accounts (lists and labels): analysts and admins (docs/console-auth.md). */
export const mayAct = (operator: Operator): boolean => operator.role === 'analyst' || operator.role === 'admin';

/** Whether an operator of this role may publish or reject a rules draft (publishRuleDraft: admins; domain/operators.ts). */
export const mayPublishRules = (operator: Operator): boolean => operator.role === 'admin';
/** Whether an operator of this role may propose a rules draft and preview it (createRuleDraft, previewRules: analysts and admins). */
export const mayDraftRules = mayAct;
/** The operator as the audit and drafts name actors (`operator:<id>`): a draft's author is compared with it. */
export const actorOf = (operator: Operator): string => `operator:${operator.id}`;
/** Whether an operator of this role may erase accounts: admins only (deleteAccount, domain/operators.ts). */
export const mayErase = (operator: Operator): boolean => operator.role === 'admin';
/** The standard lists (mutually exclusive: joining one leaves the other two, openapi.yaml addAccountToList). */
export const STANDARD_LISTS: readonly string[] = ['allow', 'block', 'main_account'];
