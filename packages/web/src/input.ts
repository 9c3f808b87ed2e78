/**
 * How input arrives, as counts: key presses that came faster than a person types or in a rhythm
 * steadier than a person's, and pointer clicks that landed on the exact centre of what they
 * clicked. A driver's `type()` presses keys a millisecond or two apart, or at one fixed delay,
 * and its `click()` aims at the element's centre; a person does neither.
 *
 * Only when each key went down and where a click fell against its element's centre are read,
 * never which key, what was typed or where on the page: the counts are all that leaves the page.
 */
import type { IngestSession } from './types.js';

export type InputCounts = Required<NonNullable<IngestSession['input']>>;

/** Presses further apart than this are a pause (between fields, to think), not typing. */
const PAUSE_MS = 2000;
/** Faster than anyone types a run of keys (a fast typist's presses are 60–120 ms apart). */
const FAST_MS = 30;
/** An interval within this share (or STEADY_FLOOR_MS) of the one before is "steady". */
const STEADY_SHARE = 0.05;
const STEADY_FLOOR_MS = 3;
/** A click on the exact centre: within a CSS pixel of it on both axes. */
const CENTRE_PX = 1;
/** Elements smaller than this are not judged: hitting a small box's centre is no surprise. */
const MIN_TARGET_PX = 16;
/** The clicked element and this many of its ancestors: a driver aims at the one it was given. */
const TARGET_DEPTH = 3;

export function zeroInput(): InputCounts {
  return { key_intervals: 0, fast_key_intervals: 0, steady_key_intervals: 0, pointer_clicks: 0, centred_clicks: 0 };
}

/** Judged (big enough) and centred, over the clicked element and its nearest ancestors. */
function landing(event: MouseEvent): { judged: boolean; centred: boolean } {
  let judged = false;
  let element = event.target instanceof Element ? event.target : null;
  for (let depth = 0; element && depth <= TARGET_DEPTH; depth++, element = element.parentElement) {
    const box = element.getBoundingClientRect();
    if (box.width < MIN_TARGET_PX || box.height < MIN_TARGET_PX) continue;
    judged = true;
    const dx = Math.abs(event.clientX - (box.left + box.width / 2));
    const dy = Math.abs(event.clientY - (box.top + box.height / 2));
    if (dx <= CENTRE_PX && dy <= CENTRE_PX) return { judged, centred: true };
  }
  return { judged, centred: false };
}

export interface InputWatch {
  /** Counts since the session started (including `base`, the counts of earlier page loads). */
  counts(): InputCounts;
  /** Starts afresh from `base` (a new session). */
  reset(base?: Partial<InputCounts>): void;
}

export function watchInput(target: Document): InputWatch {
  let current = zeroInput();
  let lastPress: number | undefined;
  let lastInterval: number | undefined;
  const key = (event: KeyboardEvent) => {
    // A held key's repeats and an input method's composition are not presses of the typist's.
    if (!event.isTrusted || event.repeat || event.isComposing) return;
    const interval = lastPress === undefined ? Infinity : event.timeStamp - lastPress;
    lastPress = event.timeStamp;
    if (interval >= PAUSE_MS) {
      lastInterval = undefined;
      return;
    }
    current.key_intervals += 1;
    if (interval < FAST_MS) current.fast_key_intervals += 1;
    if (
      lastInterval !== undefined &&
      Math.abs(interval - lastInterval) <= Math.max(STEADY_FLOOR_MS, STEADY_SHARE * lastInterval)
    )
      current.steady_key_intervals += 1;
    lastInterval = interval;
  };
  const click = (event: MouseEvent) => {
    // detail 0: a click the keyboard made (Enter, Space), which has no landing point.
    if (!event.isTrusted || event.detail === 0) return;
    const { judged, centred } = landing(event);
    if (judged) current.pointer_clicks += 1;
    if (centred) current.centred_clicks += 1;
  };
  target.addEventListener('keydown', key, { capture: true, passive: true });
  target.addEventListener('click', click, { capture: true, passive: true });
  return {
    counts: () => ({ ...current }),
    reset(base = {}) {
      current = { ...zeroInput(), ...base };
      lastPress = undefined;
      lastInterval = undefined;
    },
  };
}
