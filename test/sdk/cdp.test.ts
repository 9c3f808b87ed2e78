/**
 * The SDK's DevTools Protocol checks outside a browser (in a browser, with and without a
 * protocol client: test/e2e/integrity.test.ts). Jest's console formats a logged Error through
 * its stack, as a protocol client does, so `cdp:runtime_enabled` is expected here.
 */
import { cdpSignals } from '../../packages/web/src/cdp';

describe('cdpSignals', () => {
  const quiet = jest.spyOn(console, 'debug').mockImplementation(() => undefined);
  afterAll(() => quiet.mockRestore());

  it('when the SDK is started from a protocol evaluation (a driver frame in its stack), then cdp:evaluation_stack', () => {
    // How puppeteer names the scripts it evaluates.
    const evaluated = new Function('run', 'return run();\n//# sourceURL=__puppeteer_evaluation_script__') as (
      run: () => string[],
    ) => string[];
    expect(evaluated(cdpSignals)).toContain('cdp:evaluation_stack');
  });

  it('when it is started from the page’s own code, then no cdp:evaluation_stack', () => {
    expect(cdpSignals()).not.toContain('cdp:evaluation_stack');
  });

  it('when the console formats a logged Error through its stack (a protocol client), then cdp:runtime_enabled, and the page’s own prepareStackTrace is put back', () => {
    quiet.mockImplementation((...args: unknown[]) => void String((args[0] as Error).stack));
    const own = () => 'own';
    (Error as { prepareStackTrace?: unknown }).prepareStackTrace = own;
    try {
      expect(cdpSignals()).toContain('cdp:runtime_enabled');
      expect((Error as { prepareStackTrace?: unknown }).prepareStackTrace).toBe(own);
    } finally {
      delete (Error as { prepareStackTrace?: unknown }).prepareStackTrace;
    }
  });

  it('when the console keeps the message without formatting it (no client), then no cdp:runtime_enabled', () => {
    quiet.mockImplementation(() => undefined);
    expect(cdpSignals()).not.toContain('cdp:runtime_enabled');
  });
});
