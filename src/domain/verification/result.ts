/**
 * The result object of a verification from its gathered facts: the engine's findings, the
 * project's matches and the account's lists, the capture device's signals and the comparison
 * with the referring session, judged by the verdict. Pure: media URLs come in as the capture's
 * stored (unsigned) URL of each kind.
 */
import type { FaceMatchResult, IdCheckResult, Session, VerificationSessionData } from '../../api-types';
import type { CaptureKind, DocumentFindings, FaceFindings } from './analysis';
import { documentData, documentFlags, documentSignals } from './document';
import { compareWithReferring, referringBooleans, type ReferringComparison } from './referring';
import { verdict } from './verdict';

/** The verification session as its result names it. */
export interface VerifiedSession {
  id: string;
  projectId: string;
  type: 'face-match' | 'id-check';
  accountId?: string;
  referringSessionId?: string;
}

export interface ResultInput {
  session: VerifiedSession;
  /** The project's decision threshold. */
  threshold: number;
  selfie: FaceFindings;
  document?: DocumentFindings;
  /** The capture session (the web SDK on the hosted page) in its top-level form. */
  device: Session;
  referring?: Session;
  matches: FaceMatchResult['matches'];
  repeat: { face: boolean; document: boolean; device: boolean };
  /** The account's standard lists. */
  lists: string[];
  /** The capture's stored (unsigned) URL. */
  mediaUrl: (kind: CaptureKind) => string;
  requestId: string;
  now: Date;
}

export function verificationResult(facts: ResultInput): FaceMatchResult | IdCheckResult {
  const { session, selfie, document, device, now } = facts;
  const docCountry = document?.fields?.countryCode ?? null;
  const ipDocumentCountryMismatch =
    !!docCountry && !!device.location.country_code && device.location.country_code !== docCountry;
  const judged = verdict({
    flags: document ? documentFlags(selfie, document, now) : [],
    liveness: selfie.liveness,
    repeat: facts.repeat,
    deviceRisk: device.risk_signals.device_risk,
    ipDocumentCountryMismatch,
    lists: facts.lists,
    threshold: facts.threshold,
  });
  const base = {
    metadata: {
      project_id: session.projectId,
      session_id: session.id,
      account_id: session.accountId ?? null,
      referring_session_id: session.referringSessionId ?? null,
      request_id: facts.requestId,
      timestamp: now.toISOString(),
    },
    decision: judged.decision,
    risk_score: judged.risk_score,
    risk_flags: judged.risk_flags,
    matches: facts.matches,
    // The hosted page takes still images; no videos are recorded.
    video_urls: [],
  };
  const comparison = compareWithReferring(device, facts.referring);
  if (session.type === 'face-match')
    return { ...base, lists: facts.lists, rules: judged.rules, ...faceMatchParts(facts, comparison) };
  if (!document) throw new Error('the analysis engine returned an ID Check without document findings');
  return {
    ...base,
    device_network_signals: { ip_document_country_mismatch: ipDocumentCountryMismatch, ...idCheckSignals(device) },
    referring_session_signals: referringBooleans(comparison),
    session_data: sessionData(device),
    document_signals: documentSignals(selfie, document, now),
    document_data: documentData(document, {
      face: facts.mediaUrl('selfie'),
      id_scan_front: facts.mediaUrl('id_front'),
      id_scan_back: facts.mediaUrl('id_back'),
    }),
  };
}

/** The capture session's data; its device without its screen size (the result's DeviceSummary has the device fields only). */
function sessionData(device: Session): VerificationSessionData {
  const { screen_width: _w, screen_height: _h, ...deviceSummary } = device.device;
  return completeSessionData({
    network: device.network,
    location: device.location,
    browser: device.browser,
    device: deviceSummary,
  });
}

/**
 * The members the published results always carry, whether known or not (clients such as the
 * PHP client read them unconditionally): `location.zip_code` ('' when unknown), the device's
 * `memory` and `gpu` (null when the browser did not report them). Results stored before they
 * were filled in are completed by it too (stored.ts).
 */
export function completeSessionData<T extends PartialSessionData>(data: T): T & VerificationSessionData {
  return {
    ...data,
    location: { ...data.location, zip_code: data.location.zip_code ?? '' },
    device: { ...data.device, memory: data.device.memory ?? null, gpu: data.device.gpu ?? null },
  };
}

/** Session data that may lack what completeSessionData fills in. */
type PartialSessionData = Omit<VerificationSessionData, 'location' | 'device'> & {
  location: Partial<VerificationSessionData['location']>;
  device: Partial<VerificationSessionData['device']>;
};

/** Face Match's own parts: the signals as scores, the comparison as scores, the selfie's URL. */
function faceMatchParts(
  facts: ResultInput,
  comparison: ReferringComparison,
): Pick<FaceMatchResult, 'device_network_signals' | 'referring_session_signals' | 'photo_urls' | 'session_data'> {
  const { device } = facts;
  const scores = device.risk_signal_scores;
  return {
    device_network_signals: {
      device_risk: scores.device_risk,
      proxy: scores.proxy,
      vpn: scores.vpn,
      datacenter: scores.datacenter,
      tor: scores.tor,
      // Spoofing is a yes/no finding (the address the SDK saw differs from the request's).
      spoofed_ip: device.risk_signals.spoofed_ip ? 1 : 0,
      recent_fraud_ip: scores.recent_fraud_ip,
      device_network_mismatch: scores.device_network_mismatch,
      location_spoofing: scores.location_spoofing,
    },
    referring_session_signals: comparison,
    photo_urls: { face: facts.mediaUrl('selfie') },
    session_data: {
      ...sessionData(device),
      true_country_code: device.true_country_code ?? device.location.country_code,
    },
  };
}

/** ID Check's signals: each as the boolean the capture session raised. */
function idCheckSignals(device: Session) {
  const signals = device.risk_signals;
  return {
    device_risk: signals.device_risk,
    proxy: signals.proxy,
    vpn: signals.vpn,
    datacenter: signals.datacenter,
    tor: signals.tor,
    spoofed_ip: signals.spoofed_ip,
    recent_fraud_ip: signals.recent_fraud_ip,
    device_network_mismatch: signals.device_network_mismatch,
  };
}
