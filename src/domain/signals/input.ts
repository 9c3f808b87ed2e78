/**
 * Conditions of `device_risk` from how input arrived (the web SDK's `input` counts): typing
 * faster or steadier than a person types, and clicks on their elements' exact centres. Both
 * are what a driver's `type()` and `click()` do by default, whatever the browser's own facts
 * say, so they catch a driver that leaves nothing else on the page. docs/scoring.md gives the
 * rules; docs/detection.md what it costs a driver to pass them.
 */
import type { IngestInput } from '../../api-types';

/** The thresholds (docs/scoring.md, "How input arrived"). */
export const INPUT_EVIDENCE = {
  /** Fewer intervals than this say nothing of the typing. */
  min_key_intervals: 5,
  /** More than this share of the intervals under 30 ms: no person keeps that pace. */
  fast_share: 0.5,
  /** Steadiness is judged from this many intervals on. */
  min_steady_intervals: 8,
  /** More than this share of intervals within 5 % of the one before: a metronome, not a person. */
  steady_share: 0.6,
  /** At least this many centred clicks, and more than centred_share of the clicks judged. */
  min_centred_clicks: 2,
  centred_share: 0.5,
} as const;

/** Weights of the conditions (docs/scoring.md, `device_risk`); both are automation bot evidence. */
export const INPUT_WEIGHTS = { robotic_typing: 0.9, centred_clicks: 0.8 } as const satisfies Record<string, number>;

export type InputCondition = keyof typeof INPUT_WEIGHTS;

export function roboticTyping(input: IngestInput | undefined): boolean {
  const intervals = input?.key_intervals ?? 0;
  if (intervals < INPUT_EVIDENCE.min_key_intervals) return false;
  const fast = (input?.fast_key_intervals ?? 0) / intervals;
  const steady = (input?.steady_key_intervals ?? 0) / intervals;
  return (
    fast > INPUT_EVIDENCE.fast_share ||
    (intervals >= INPUT_EVIDENCE.min_steady_intervals && steady > INPUT_EVIDENCE.steady_share)
  );
}

export function centredClicks(input: IngestInput | undefined): boolean {
  const centred = input?.centred_clicks ?? 0;
  const clicks = input?.pointer_clicks ?? 0;
  return centred >= INPUT_EVIDENCE.min_centred_clicks && centred > INPUT_EVIDENCE.centred_share * clicks;
}

/** Which of the conditions hold for the session's input counts. */
export function inputConditions(input: IngestInput | undefined): Record<InputCondition, boolean> {
  return { robotic_typing: roboticTyping(input), centred_clicks: centredClicks(input) };
}
