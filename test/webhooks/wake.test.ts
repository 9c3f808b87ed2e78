/** The dispatcher's wake-up call: a wake ends a sleep, and one that comes while nobody sleeps is kept for the next. */
import { makeWake } from '../../src/webhooks/wake';

const TEN_MINUTES = 600_000;

describe('waking a sleeping dispatcher', () => {
  test('when a wake comes during a 10-minute sleep, then the sleep ends woken', async () => {
    const wake = makeWake();
    const slept = wake.sleep(TEN_MINUTES, new AbortController().signal);
    wake.wake();
    expect(await slept).toBe('woken');
    expect(wake.pending).toBe(false);
  });

  test('when a wake comes while nobody sleeps, then the next sleep returns at once, and only that one', async () => {
    const wake = makeWake();
    wake.wake();
    wake.wake();
    expect(wake.pending).toBe(true);
    expect(await wake.sleep(TEN_MINUTES, new AbortController().signal)).toBe('woken');
    expect(wake.pending).toBe(false);
    expect(await wake.sleep(1, new AbortController().signal)).toBe('timer');
  });

  test('when two sleep on one wake, then one wake ends both', async () => {
    const wake = makeWake();
    const stop = new AbortController();
    const both = Promise.all([wake.sleep(TEN_MINUTES, stop.signal), wake.sleep(TEN_MINUTES, stop.signal)]);
    wake.wake();
    expect(await both).toEqual(['woken', 'woken']);
  });

  test('when the signal aborts, then the sleep ends aborted, and a later wake is kept for the next sleep', async () => {
    const wake = makeWake();
    const stop = new AbortController();
    const slept = wake.sleep(TEN_MINUTES, stop.signal);
    stop.abort();
    expect(await slept).toBe('aborted');
    expect(await wake.sleep(TEN_MINUTES, stop.signal)).toBe('aborted');
    wake.wake();
    expect(wake.pending).toBe(true);
  });
});
