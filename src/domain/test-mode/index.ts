/**
 * Test mode (docs/test-mode.md): in a test project, documented account ids force an outcome, so
 * that an integrator can see every answer their code must handle without a botnet. Pure: the
 * use cases ask `evaluationDirective` / `verificationDirective` what an account id forces (in a
 * live project they never ask: there those ids are ordinary) and apply it here.
 *
 * - Evaluations (`withTestOutcome`, applied to the evaluation's outcome): what the session showed
 *   is set aside (no risk signal, no linked-account risk, the base bot score), then `test_fake…`
 *   is scored as a bot, `test_real…` stays so, `test_signal_<risk signal>[:…]` raises that
 *   signal alone. The scores and the decision then follow
 *   through the normal scoring (domain/scoring), the project's threshold and the account's lists.
 * - Verifications (`verificationDirective`): `test_verification_<webhook error code>[:…]` ends
 *   the session with that error when it is completed; `test_verification_success[:…]` completes
 *   it with the findings of `testFindings` (a live face, a valid passport) instead of the
 *   analysis, judged as any other.
 */
import type { EvaluatedRiskSignals, WebhookErrorCode } from '../../api-types';
import {
  accountDetails,
  sessionsWithCurrent,
  type EvaluationFacts,
  type EvaluationOutcome,
  type PastSession,
} from '../evaluation';
import { accountScore, BOT_WEIGHTS, decide, RISK_SIGNAL_WEIGHTS, riskSignalsScore } from '../scoring';
import type { SignalResult } from '../signals';
import type { AnalysisOutcome, DocumentFindings, FaceFindings } from '../verification/analysis';

/** Every account id that forces an outcome starts with this. */
export const TEST_ACCOUNT_PREFIX = 'test_';

export type RiskSignalName = keyof EvaluatedRiskSignals;

/** The risk signals a `test_signal_…` account id can raise: every one the evaluation reports. */
export const TEST_SIGNALS = Object.keys(RISK_SIGNAL_WEIGHTS) as RiskSignalName[];

/** The webhook error codes (webhooks.yaml's WebhookErrorCode) a `test_verification_…` account id can force. */
export const TEST_VERIFICATION_ERRORS = [
  'liveness_check_failed',
  'face_match_failed',
  'failed_to_process_id_scan',
  'failed_to_collect_device_data',
  'max_duration_exceeded',
] as const satisfies readonly WebhookErrorCode[];

/** The bot score of a `test_fake` account's session: the automation evidence's weight and more. */
export const FORCED_BOT = 0.99;

export type EvaluationDirective = { kind: 'fake' } | { kind: 'real' } | { kind: 'signal'; signal: RiskSignalName };

export type VerificationDirective = { kind: 'success' } | { kind: 'error'; code: WebhookErrorCode };

/** The name after `prefix` in `id` when it is one of `names`, alone or followed by `:` or `-` and anything. */
function named<T extends string>(id: string, prefix: string, names: readonly T[]): T | undefined {
  if (!id.startsWith(prefix)) return undefined;
  const rest = id.slice(prefix.length);
  return names.find((n) => rest === n || rest.startsWith(`${n}:`) || rest.startsWith(`${n}-`));
}

/** What an account id forces in a test project's evaluation; undefined for an ordinary id. */
export function evaluationDirective(accountId: string | undefined): EvaluationDirective | undefined {
  if (accountId === undefined || !accountId.startsWith(TEST_ACCOUNT_PREFIX)) return undefined;
  if (accountId.startsWith('test_fake')) return { kind: 'fake' };
  if (accountId.startsWith('test_real')) return { kind: 'real' };
  const signal = named(accountId, 'test_signal_', TEST_SIGNALS);
  return signal ? { kind: 'signal', signal } : undefined;
}

/** What an account id forces in a test project's verification session; undefined for an ordinary id. */
export function verificationDirective(accountId: string | undefined | null): VerificationDirective | undefined {
  if (!accountId?.startsWith(TEST_ACCOUNT_PREFIX)) return undefined;
  if (named(accountId, 'test_verification_', ['success'])) return { kind: 'success' };
  const code = named(accountId, 'test_verification_', TEST_VERIFICATION_ERRORS);
  return code ? { kind: 'error', code } : undefined;
}

/** The error a forced verification ends with: its code, and a message that says it was forced. */
export function forcedEnding(code: WebhookErrorCode, accountId: string): { code: WebhookErrorCode; message: string } {
  return { code, message: `Test mode: ${code} forced by the account id ${accountId}.` };
}

/** The signals with every one off and scored 0 (`test_real`). */
function noSignals(signals: SignalResult): SignalResult {
  const scores = { ...signals.risk_signal_scores };
  const flags = { ...signals.risk_signals };
  for (const name of TEST_SIGNALS) {
    flags[name] = false;
    if (name !== 'spoofed_ip') scores[name] = 0;
  }
  return { risk_signals: flags, risk_signal_scores: scores, risk_signal_details: { network: [], device: [] } };
}

/** The signals with `name` on and (when it has a score) scored 1. */
function raised(signals: SignalResult, name: RiskSignalName): SignalResult {
  const scores = { ...signals.risk_signal_scores };
  if (name !== 'spoofed_ip') scores[name] = 1;
  return { ...signals, risk_signals: { ...signals.risk_signals, [name]: true }, risk_signal_scores: scores };
}

/**
 * The scores a directive forces: every observed risk signal off (a session posted without the
 * SDK's binding is judged forged, `device_risk`, and a test run's browser is often headless), no
 * linked-account risk, then only what the account id names. An integrator's test then sees
 * exactly the documented answer, whatever made the session.
 */
function forcedScores(directive: EvaluationDirective, observed: SignalResult) {
  const none = noSignals(observed);
  const signals = directive.kind === 'signal' ? raised(none, directive.signal) : none;
  return { signals, bot: forcedBot(directive.kind), multiple_accounts: 0 };
}

/** The bot score of a forced outcome (its receipt recomputes it from the kind alone). */
export function forcedBot(kind: EvaluationDirective['kind']): number {
  return kind === 'fake' ? FORCED_BOT : BOT_WEIGHTS.base;
}

/**
 * The outcome with what `directive` forces applied, the scores and the decision recomputed
 * from it by the normal scoring.
 */
export function forcedOutcome(
  directive: EvaluationDirective,
  facts: EvaluationFacts,
  outcome: EvaluationOutcome,
): EvaluationOutcome {
  const { signals, bot, multiple_accounts } = forcedScores(directive, outcome.signals);
  const risk_signals = riskSignalsScore(signals.risk_signal_scores, signals.risk_signals.spoofed_ip);
  const account_score = accountScore({
    bot,
    risk_signals,
    multiple_accounts,
    email_score: outcome.account?.email?.email_score,
  });
  const decision = decide(account_score, facts.project.decisionThreshold, outcome.lists);
  // The forced outcome decides, not a rule (the rules' matches, lists and tags stay).
  const { decision: _ruled, decidedBy: _by, ...rules } = outcome.rules;
  const forced = {
    ...outcome,
    signals,
    scores: { bot, risk_signals, multiple_accounts, account_score },
    scoring: { ...outcome.scoring, forced: directive.kind },
    decision,
    rules,
  };
  if (!outcome.account || !facts.account) return forced;
  // The account's decision and its details (this session's signal scores in its averages) follow.
  const record = { ...outcome.account.record, decision };
  const current: PastSession = {
    ...facts.session,
    scores: { scores: signals.risk_signal_scores, spoofedIp: signals.risk_signals.spoofed_ip },
  };
  const details = accountDetails(
    record,
    sessionsWithCurrent(facts.account.sessions, current),
    facts.now,
    outcome.account.details,
    outcome.account.email,
  );
  return { ...forced, account: { ...outcome.account, record, details } };
}

/**
 * An evaluation's outcome in a project: in a test project, with what the account id forces
 * (the authenticated account, or unauthenticated the session's last one); otherwise unchanged.
 */
export function withTestOutcome(
  project: { test: boolean },
  facts: EvaluationFacts,
  outcome: EvaluationOutcome,
): EvaluationOutcome {
  if (!project.test) return outcome;
  const directive = evaluationDirective(facts.account?.record.id ?? facts.session.accountIds.at(-1));
  return directive ? forcedOutcome(directive, facts, outcome) : outcome;
}

// ---------------------------------------------------------------- verification findings

/** FNV-1a of a string: the seed of an account's test face and document. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** mulberry32: a small deterministic sequence of numbers in [0, 1). */
function sequence(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The size of the analysis engine's face embeddings (FaceRes), so test faces compare with real ones. */
export const TEST_EMBEDDING_SIZE = 1024;

/** An account's test face: the same for one account id, unrelated to every other (random directions in 1024 dimensions). */
export function testEmbedding(accountId: string): number[] {
  const next = sequence(hash32(accountId));
  const v = Array.from({ length: TEST_EMBEDDING_SIZE }, () => next() * 2 - 1);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

/** `n` capital letters from an account id: its test document's number and surname differ from other accounts'. */
function letters(accountId: string, salt: string, n: number): string {
  const next = sequence(hash32(`${salt}|${accountId}`));
  return Array.from({ length: n }, () => String.fromCharCode(65 + Math.floor(next() * 26))).join('');
}

/**
 * What `test_verification_success` completes with instead of the analysis: a live adult face
 * (the account's own test face) and, for ID Check, a valid passport of Utopia (ICAO's specimen
 * country, so no country is claimed) whose portrait is that face, its checks passed.
 */
export function testFindings(type: 'face-match' | 'id-check', accountId: string): AnalysisOutcome {
  const face: FaceFindings = { embedding: testEmbedding(accountId), liveness: 0.95, age: 30, confidence: 0.99 };
  if (type === 'face-match') return { outcome: 'analysed', selfie: face };
  const document: DocumentFindings = {
    barcode: 'not_applicable',
    source: 'mrz',
    fields: {
      firstName: 'TEST',
      lastName: `TEST${letters(accountId, 'name', 6)}`,
      dateOfBirth: '1990-01-01',
      dateOfExpiration: '2099-12-31',
      dateOfIssue: '2020-01-01',
      idNumber: letters(accountId, 'number', 9),
      idNumber2: null,
      address: { street: '', city: '', state: '', postalCode: '', country: '' },
      countryCode: null,
      state: '',
      templateType: 'passport',
    },
    checks: [
      { name: 'mrz_check_digits', passed: true },
      { name: 'mrz_composite_check_digit', passed: true },
    ],
    face,
    edges: 'full',
  };
  return { outcome: 'analysed', selfie: face, document };
}
