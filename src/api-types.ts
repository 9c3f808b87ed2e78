/**
 * The one importer of generated/: short names for the wire shapes the code uses. Every shape
 * is spelled once, in openapi.yaml or webhooks.yaml; nothing here redeclares one.
 */
import type { components, operations, paths, webhooks } from '../generated/openapi';

export type { components, operations, paths, webhooks };

type Schemas = components['schemas'];

export type ErrorBody = Schemas['ErrorBody'];
export type Health = Schemas['Health'];
export type Readiness = Schemas['Readiness'];
export type NetworkDataHealth = Schemas['NetworkDataHealth'];
export type GeoDataHealth = Schemas['GeoDataHealth'];
export type DataFileHealth = Schemas['DataFileHealth'];
export type IpListHealth = Schemas['IpListHealth'];

export type Session = Schemas['Session'];
export type EvaluatedSession = Schemas['EvaluatedSession'];
export type SessionFacts = Schemas['SessionFacts'];
export type Network = Schemas['Network'];
export type EvaluatedNetwork = Schemas['EvaluatedNetwork'];
export type Location = Schemas['Location'];
export type Browser = Schemas['Browser'];
export type Device = Schemas['Device'];
export type Bot = Schemas['Bot'];
export type RiskSignals = Schemas['RiskSignals'];
export type EvaluatedRiskSignals = Schemas['EvaluatedRiskSignals'];
export type RiskSignalScores = Schemas['RiskSignalScores'];
export type EvaluatedRiskSignalScores = Schemas['EvaluatedRiskSignalScores'];
export type Mobile = Schemas['Mobile'];
export type RiskSignalDetails = Schemas['RiskSignalDetails'];

export type AccountInput = Schemas['AccountInput'];
/**
 * An account as the code reads it (http/loose-account.ts `readAccount`): the contract's
 * `AccountInput` with its loose forms taken as meant, so `metadata` is an object and `group` a string.
 */
export type AccountRead = Omit<AccountInput, 'metadata' | 'group'> & {
  metadata?: Schemas['Metadata'];
  group?: Schemas['AccountGroup'];
};
export type AuthenticateRequest = Schemas['AuthenticateRequest'];
/** POST /session/authenticate's body with its account read (`AccountRead`). */
export type AuthenticateRead = Omit<AuthenticateRequest, 'account'> & { account: AccountRead };
export type AuthenticateResponse = Schemas['AuthenticateResponse'];
export type UnauthenticatedRequest = Schemas['UnauthenticatedRequest'];
export type UnauthenticatedResponse = Schemas['UnauthenticatedResponse'];
export type VerifyRequest = Schemas['VerifyRequest'];
export type VerificationResultError = Schemas['VerificationResultError'];
export type VerificationResultErrorCode = Schemas['VerificationResultErrorCode'];
export type LivenessError = Schemas['LivenessError'];
export type LivenessErrorCode = Schemas['LivenessErrorCode'];
export type EnrollErrorCode = Schemas['EnrollErrorCode'];
export type VerifyIdentityErrorCode = Schemas['VerifyIdentityErrorCode'];
export type EnrollRequest = Schemas['EnrollRequest'];
export type Enrolled = Schemas['Enrolled'];
export type VerifyIdentityRequest = Schemas['VerifyIdentityRequest'];
export type IdentityVerified = Schemas['IdentityVerified'];
export type CreateVerificationSession = Schemas['CreateVerificationSession'];
export type VerificationSessionCreated = Schemas['VerificationSessionCreated'];
export type VerificationSessionEnded = Schemas['VerificationSessionEnded'];
export type CaptureStored = Schemas['CaptureStored'];
export type VerificationCompletion = Schemas['VerificationCompletion'];
export type Evaluation = Schemas['Evaluation'];
export type Decision = Schemas['Decision'];
export type ListName = Schemas['ListName'];
export type MatchType = Schemas['MatchType'];
export type AccountDetails = Schemas['AccountDetails'];
export type AccountUpdate = Schemas['AccountUpdate'];
export type Metadata = Schemas['Metadata'];
export type EmailIntelligence = Schemas['EmailIntelligence'];
export type SignalAverages = Schemas['SignalAverages'];
export type WindowCounts = Schemas['WindowCounts'];
export type LinkedAccount = Schemas['LinkedAccount'];
export type AccountResponse = Schemas['AccountResponse'];
export type StoredAccount = Schemas['StoredAccount'];
export type AccountHistory = Schemas['AccountHistory'];
export type AccountDeleted = Schemas['AccountDeleted'];
export type AccountSessions = Schemas['AccountSessions'];
export type AccountVerifications = Schemas['AccountVerifications'];
export type AccountVerification = Schemas['AccountVerification'];
export type AccountLinks = Schemas['AccountLinks'];
export type AccountRing = Schemas['AccountRing'];
export type RingNode = Schemas['RingNode'];
export type RingEdge = Schemas['RingEdge'];
export type RingSummary = Schemas['RingSummary'];
export type RingShare = Schemas['RingShare'];
export type RingBlockRequest = Schemas['RingBlockRequest'];
export type RingBlocked = Schemas['RingBlocked'];
export type ListDecision = Schemas['ListDecision'];
export type ListSummary = Schemas['ListSummary'];
export type Lists = Schemas['Lists'];
export type ListPage = Schemas['ListPage'];
export type CreateListRequest = Schemas['CreateListRequest'];
export type ListChange = Schemas['ListChange'];

export type FaceMatchResult = Schemas['FaceMatchResult'];
export type IdCheckResult = Schemas['IdCheckResult'];
export type FaceMatchCompleted = Schemas['FaceMatchCompleted'];
export type IdCheckCompleted = Schemas['IdCheckCompleted'];
export type WebhookTest = Schemas['WebhookTest'];
export type ListAccountAdded = Schemas['ListAccountAdded'];
export type ListAccountRemoved = Schemas['ListAccountRemoved'];
export type EvaluationRuleMatched = Schemas['EvaluationRuleMatched'];
/**
 * Any webhook body: the union of the events' bodies (the verification events, the list events,
 * the rules' and `trustgate webhooks test`'s).
 */
export type WebhookEnvelope =
  FaceMatchCompleted | IdCheckCompleted | ListAccountAdded | ListAccountRemoved | EvaluationRuleMatched | WebhookTest;
export type EventType = Schemas['EventType'];
/** The events a project can subscribe to (`webhook_events`). */
export type SubscribableEventType = Schemas['SubscribableEventType'];
export type RiskFlag = Schemas['RiskFlag'];
export type Rule = Schemas['Rule'];
export type VerificationMatchType = Schemas['VerificationMatchType'];
export type FaceMatchReferringSessionSignals = Schemas['FaceMatchReferringSessionSignals'];
export type IdCheckReferringSessionSignals = Schemas['IdCheckReferringSessionSignals'];
export type DocumentSignals = Schemas['DocumentSignals'];
export type DocumentData = Schemas['DocumentData'];
/** The capture device and network of a result (`session_data`, without Face Match's true country). */
export type VerificationSessionData = Schemas['VerificationSessionData'];
/** The age band of the selfie's estimated age (DocumentSignals.face_age_estimate). */
export type FaceAgeEstimate = DocumentSignals['face_age_estimate'];
/** The kind of identity document read (DocumentData.template_info.template_type). */
export type DocumentTemplateType = DocumentData['template_info']['template_type'];
export type WebhookErrorCode = Schemas['WebhookErrorCode'];

export type IngestSession = Schemas['IngestSession'];
export type IngestSessionResponse = Schemas['IngestSessionResponse'];
export type IngestChallenge = Schemas['IngestChallenge'];
export type IngestIntegrity = Schemas['IngestIntegrity'];
export type IngestEvents = Schemas['IngestEvents'];
export type IngestInput = Schemas['IngestInput'];
export type FingerprintComponents = Schemas['FingerprintComponents'];
export type ClientHints = Schemas['ClientHints'];
export type DeviceFields = Schemas['DeviceFields'];

export type ProjectSettings = Schemas['ProjectSettings'];
export type ProjectUpdate = Schemas['ProjectUpdate'];
export type AuditEvent = Schemas['AuditEvent'];
export type AuditEvents = Schemas['AuditEvents'];
export type WebhookSecretRotated = Schemas['WebhookSecretRotated'];

export type RulesDocument = Schemas['RulesDocument'];
export type RuleDefinition = Schemas['RuleDefinition'];
export type RuleCondition = Schemas['RuleCondition'];
export type RuleScalar = Schemas['RuleScalar'];
export type RuleValue = Schemas['RuleValue'];
export type RuleActions = Schemas['RuleActions'];
export type Rules = Schemas['Rules'];
export type EvaluationRules = Schemas['EvaluationRules'];
export type EvaluationReceipt = Schemas['EvaluationReceipt'];
export type ReceiptInputs = Schemas['ReceiptInputs'];
export type ScoreTerm = Schemas['ScoreTerm'];
export type ScoreBreakdown = Schemas['ScoreBreakdown'];
export type RulesTestRequest = Schemas['RulesTestRequest'];
export type RulesTestResult = Schemas['RulesTestResult'];
export type RuleField = Schemas['RuleField'];
export type RuleFields = Schemas['RuleFields'];
export type RuleFieldKind = Schemas['RuleFieldKind'];
export type RuleOperator = Schemas['RuleOperator'];
export type RulesPreviewRequest = Schemas['RulesPreviewRequest'];
export type RulesPreview = Schemas['RulesPreview'];
export type RuleDraftStatus = Schemas['RuleDraftStatus'];
export type RuleDraftRequest = Schemas['RuleDraftRequest'];
export type RuleDraftRejection = Schemas['RuleDraftRejection'];
export type RuleDraftSummary = Schemas['RuleDraftSummary'];
export type RuleDraft = Schemas['RuleDraft'];
export type RuleDrafts = Schemas['RuleDrafts'];
export type RuleChange = Schemas['RuleChange'];
export type DecisionSource = Schemas['DecisionSource'];
export type LabelValue = Schemas['LabelValue'];
export type AccountLabelInput = Schemas['AccountLabelInput'];

export type Case = Schemas['Case'];
export type CaseStatus = Schemas['CaseStatus'];
export type CaseSnapshot = Schemas['CaseSnapshot'];
export type CaseNote = Schemas['CaseNote'];
export type CasePage = Schemas['CasePage'];
export type CaseInput = Schemas['CaseInput'];
export type CaseUpdate = Schemas['CaseUpdate'];
export type CaseClose = Schemas['CaseClose'];
export type CaseNoteInput = Schemas['CaseNoteInput'];
export type AccountLabel = Schemas['AccountLabel'];
export type AccountLabelled = Schemas['AccountLabelled'];
export type AccountLabels = Schemas['AccountLabels'];
export type LabelReport = Schemas['LabelReport'];
export type ConfusionCounts = Schemas['ConfusionCounts'];

export type RiskSignalName = Schemas['RiskSignalName'];
export type EvaluationStats = Schemas['EvaluationStats'];
export type WebhookDeliveryStatus = Schemas['WebhookDeliveryStatus'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveries = Schemas['WebhookDeliveries'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];
export type WebhookDeliveryReplayed = Schemas['WebhookDeliveryReplayed'];
export type WebhookDeliveryQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;
export type AccountSummary = Schemas['AccountSummary'];
export type AccountPage = Schemas['AccountPage'];
export type SessionSummary = Schemas['SessionSummary'];
export type SessionPage = Schemas['SessionPage'];
/** The filters of GET /accounts (and its export, which adds `format`). */
export type AccountSearchQuery = NonNullable<operations['listAccounts']['parameters']['query']>;
/** The filters of GET /sessions (and its export, which adds `format`). */
export type SessionSearchQuery = NonNullable<operations['listSessions']['parameters']['query']>;
export type AccountExportQuery = operations['exportAccounts']['parameters']['query'];
export type SessionExportQuery = operations['exportSessions']['parameters']['query'];
export type ExportFormat = AccountExportQuery['format'];
export type Operator = Schemas['Operator'];
export type Operators = Schemas['Operators'];
export type OperatorRole = Schemas['OperatorRole'];
export type ConsoleSession = Schemas['ConsoleSession'];
export type ConsoleLoginRequest = Schemas['ConsoleLoginRequest'];
export type ConsoleSignInOptions = Schemas['ConsoleSignInOptions'];
