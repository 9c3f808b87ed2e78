/**
 * The risk signals: a registry (a plain array) of small functions from the evaluation context
 * to a finding. A signal is raised (its boolean is true) when its score reaches ON_THRESHOLD.
 * docs/scoring.md explains each one; the weights live beside the conditions they weigh.
 */
import type { EvaluatedRiskSignalScores, EvaluatedRiskSignals, RiskSignalDetails } from '../../api-types';
import type { Finding, SignalContext } from './context';
import { deviceNetworkMismatch, deviceRisk, locationSpoofing } from './device';
import { impossibleTravel, ipReputation, recentFraudIp } from './history';
import { datacenter, proxy, spoofedAddresses, tor, vpn } from './network';

export { deviceBotEvidence } from './device';
export { CONDITION_IDS, conditionCode, conditionName } from './conditions';
export { ipLocationAccuracyKm } from './geo';
export { isAnonymised } from './network';
export {
  EMPTY_HISTORY,
  type IpListName,
  type PreviousSession,
  type SignalContext,
  type SignalHistory,
} from './context';

export const ON_THRESHOLD = 0.5;

type ScoredSignal = keyof EvaluatedRiskSignalScores;

export const SIGNALS: readonly { name: ScoredSignal; compute: (ctx: SignalContext) => Finding }[] = [
  { name: 'device_risk', compute: deviceRisk },
  { name: 'proxy', compute: proxy },
  { name: 'vpn', compute: vpn },
  { name: 'tor', compute: tor },
  { name: 'datacenter', compute: datacenter },
  { name: 'recent_fraud_ip', compute: recentFraudIp },
  { name: 'impossible_travel', compute: impossibleTravel },
  { name: 'device_network_mismatch', compute: deviceNetworkMismatch },
  { name: 'location_spoofing', compute: locationSpoofing },
  { name: 'ip_reputation', compute: ipReputation },
];

export interface SignalResult {
  risk_signals: EvaluatedRiskSignals;
  risk_signal_scores: EvaluatedRiskSignalScores;
  risk_signal_details: RiskSignalDetails;
}

/** The signals' booleans from their kept scores: each raised at ON_THRESHOLD, as evaluateSignals raises them. */
export function signalFlags(scores: EvaluatedRiskSignalScores, spoofedIp: boolean): EvaluatedRiskSignals {
  const flags = Object.fromEntries(Object.entries(scores).map(([name, score]) => [name, score >= ON_THRESHOLD]));
  return { ...(flags as Omit<EvaluatedRiskSignals, 'spoofed_ip'>), spoofed_ip: spoofedIp };
}

export function evaluateSignals(ctx: SignalContext): SignalResult {
  const scores = {} as EvaluatedRiskSignalScores;
  const flags = {} as EvaluatedRiskSignals;
  const network = new Set<string>();
  const device = new Set<string>();
  for (const signal of SIGNALS) {
    const finding = signal.compute(ctx);
    scores[signal.name] = finding.score;
    flags[signal.name] = finding.score >= ON_THRESHOLD;
    finding.network?.forEach((n) => network.add(n));
    finding.device?.forEach((d) => device.add(d));
  }
  const spoofed = spoofedAddresses(ctx, ctx.session.network.ip_address ?? '');
  flags.spoofed_ip = spoofed.length > 0;
  return {
    risk_signals: flags,
    risk_signal_scores: scores,
    risk_signal_details: { network: [...network], device: [...device] },
  };
}
