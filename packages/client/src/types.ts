/**
 * The package's one importer of its generated types: short names for the wire shapes a
 * customer's backend handles. Every shape is spelled once, in openapi.yaml or webhooks.yaml.
 */
import type { components, operations, paths, webhooks } from './generated/openapi.js';

export type { components, operations, paths, webhooks };

type Schemas = components['schemas'];

export type ErrorBody = Schemas['ErrorBody'];
export type Session = Schemas['Session'];
export type AuthenticateRequest = Schemas['AuthenticateRequest'];
export type AuthenticateResponse = Schemas['AuthenticateResponse'];
export type UnauthenticatedRequest = Schemas['UnauthenticatedRequest'];
export type UnauthenticatedResponse = Schemas['UnauthenticatedResponse'];
export type Decision = Schemas['Decision'];
export type CreateVerificationSession = Schemas['CreateVerificationSession'];
export type VerificationSessionCreated = Schemas['VerificationSessionCreated'];
export type FaceMatchResult = Schemas['FaceMatchResult'];
export type IdCheckResult = Schemas['IdCheckResult'];
export type FaceMatchCompleted = Schemas['FaceMatchCompleted'];
export type IdCheckCompleted = Schemas['IdCheckCompleted'];
export type WebhookTest = Schemas['WebhookTest'];
export type ListAccountAdded = Schemas['ListAccountAdded'];
export type ListAccountRemoved = Schemas['ListAccountRemoved'];
export type EvaluationRuleMatched = Schemas['EvaluationRuleMatched'];
export type Case = Schemas['Case'];
export type CasePage = Schemas['CasePage'];
export type CaseNote = Schemas['CaseNote'];
/** Any webhook body: the union of the bodies of every webhook the spec declares. */
export type WebhookEnvelope = {
  [Event in keyof webhooks]: webhooks[Event]['post']['requestBody']['content']['application/json'];
}[keyof webhooks];
export type EventType = Schemas['EventType'];
