/**
 * Interaction counts: mouse, click, keyboard, touch and clipboard events since the session
 * started. Only events the browser marks as trusted (made by the user or the OS) count; events
 * a script dispatched itself are counted apart, as a sign of automation.
 */
export type EventCounts = { mouse: number; click: number; keyboard: number; touch: number; clipboard: number };

const KINDS: Record<string, keyof EventCounts> = {
  mousemove: 'mouse',
  mousedown: 'mouse',
  mouseup: 'mouse',
  wheel: 'mouse',
  click: 'click',
  keydown: 'keyboard',
  touchstart: 'touch',
  touchmove: 'touch',
  touchend: 'touch',
  copy: 'clipboard',
  cut: 'clipboard',
  paste: 'clipboard',
};

export function zeroCounts(): EventCounts {
  return { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 };
}

export interface EventCounter {
  /** Counts since the session started (including `base`, the counts of earlier page loads). */
  counts(): EventCounts;
  /** Events that scripts dispatched (isTrusted false). */
  synthetic(): number;
  /** Starts counting afresh from `base` (a new session). */
  reset(base?: Partial<EventCounts>): void;
}

export function countEvents(target: Document): EventCounter {
  let current = zeroCounts();
  let synthetic = 0;
  const listener = (event: Event) => {
    if (!event.isTrusted) {
      synthetic += 1;
      return;
    }
    // Only the types in KINDS are listened to, so the lookup always finds a kind.
    current[KINDS[event.type]!] += 1;
  };
  for (const type of Object.keys(KINDS)) {
    target.addEventListener(type, listener, { capture: true, passive: true });
  }
  return {
    counts: () => ({ ...current }),
    synthetic: () => synthetic,
    reset(base = {}) {
      current = { ...zeroCounts(), ...base };
      synthetic = 0;
    },
  };
}
