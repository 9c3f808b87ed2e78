/**
 * The detection benchmark's report (scripts/bench-detection/report.js) on made-up results: what
 * counts as flagged by Trustgate and by BotD, the summary line over the automated configurations
 * that ran and over the human runs, and the identity cases read from linked_accounts; and the
 * page's BotD result as the customer's back end reads it. The browsers themselves run only in
 * `npm run bench:detection`.
 */
type Row = object;
const bench = require('../../scripts/bench-detection/report') as {
  report(run: { results: Row[]; identities: object[]; crossProfileBrowserLinks: number }): string;
  summary(results: Row[]): string;
  botdCell(r: Row): string;
  linkCase(
    name: string,
    linked: { account_id: string; match_type: string[]; score: number }[],
    other: string,
    want: Record<string, boolean>,
  ): { pass: boolean; found: string; expected: string };
  flagged(r: Row): boolean;
  botdFlagged(r: Row): boolean;
};
const { botdResult } = require('../../scripts/bench-detection/page') as { botdResult(text: string): object };

const row = (name: string, kind: string, over: object = {}) => ({
  name,
  kind,
  device_risk: false,
  device_risk_score: 0,
  bot: 0.02,
  decision: 'Real',
  conditions: [],
  note: '',
  ...over,
});
const bot = (botKind: string) => ({ botd: { bot: true, botKind } });
const notBot = { botd: { bot: false } };

describe('bench-detection report', () => {
  it('flags device_risk, a bot score of 0.5 or more, or Fake, and nothing else', () => {
    expect(bench.flagged(row('a', 'automated'))).toBe(false);
    expect(bench.flagged(row('a', 'automated', { device_risk: true }))).toBe(true);
    expect(bench.flagged(row('a', 'automated', { bot: 0.5 }))).toBe(true);
    expect(bench.flagged(row('a', 'automated', { bot: 0.49 }))).toBe(false);
    expect(bench.flagged(row('a', 'automated', { decision: 'Fake' }))).toBe(true);
  });

  it('counts BotD as flagging only where its detect() said bot', () => {
    expect(bench.botdFlagged(row('a', 'automated', bot('headless_chrome')))).toBe(true);
    expect(bench.botdFlagged(row('a', 'automated', notBot))).toBe(false);
    expect(bench.botdFlagged(row('a', 'automated', { botd: { error: 'BotD posted no result' } }))).toBe(false);
    expect(bench.botdFlagged(row('a', 'automated'))).toBe(false);
  });

  it('shows BotD as bot with its kind, not bot, its failure, or - where no browser ran', () => {
    expect(bench.botdCell(row('a', 'automated', bot('headless_chrome')))).toBe('bot (headless_chrome)');
    expect(bench.botdCell(row('a', 'automated', notBot))).toBe('not bot');
    expect(bench.botdCell(row('a', 'automated', { botd: { error: 'BotD posted no result' } }))).toBe(
      'BotD posted no result',
    );
    expect(bench.botdCell(row('http', 'automated'))).toBe('-');
  });

  it('sums up Trustgate and BotD over the automated runs and the humans, skipped ones apart', () => {
    const results = [
      row('headless', 'automated', { device_risk: true, conditions: ['webdriver'], ...bot('headless_chrome') }),
      row('stealth', 'automated', { bot: 0.9, ...notBot }), // caught by Trustgate alone
      row('patchright', 'automated', notBot), // missed by both
      row('http replay', 'automated', { decision: 'Fake' }), // no browser: no BotD
      { name: 'headful', kind: 'automated', skipped: 'Xvfb is not installed' },
      row('human 1/3', 'human', { ...notBot, note: 'page saw mouse 3' }),
      row('human 2/3', 'human', { bot: 0.7, ...notBot }), // Trustgate's false positive
      row('human 3/3', 'human', bot('unknown')), // BotD's false positive
      { name: 'human 4/4', kind: 'human', skipped: 'the page posted no session id' },
    ];
    expect(bench.summary(results)).toBe('caught 3/4, BotD 1/4, human false positives 1/3 (BotD: 1/3)');
    const text = bench.report({ results, identities: [], crossProfileBrowserLinks: 0 });
    expect(text).toContain('caught 3/4, BotD 1/4, human false positives 1/3 (BotD: 1/3)\n2 configuration(s) skipped');
    expect(text).toMatch(/headless +\| true \(0\) +\| 0\.02 \| Real +\| bot \(headless_chrome\) \| webdriver/);
    expect(text).toMatch(/^http replay +\| false \(0\) +\| 0\.02 \| Fake +\| - +\| none$/m);
    expect(text).toContain('skipped: Xvfb is not installed');
    expect(text).toMatch(/^human 1\/3 +\| .* \| none \(page saw mouse 3\)$/m);
    expect(text).toContain('browser links between different profiles: n/a');
  });

  it('says n/a for the human false positives when no human run ran', () => {
    const text = bench.report({ results: [row('headless', 'automated')], identities: [], crossProfileBrowserLinks: 0 });
    expect(text).toContain(
      'caught 0/1, BotD 0/1, human false positives n/a (BotD: n/a; the human baseline did not run)',
    );
    expect(text).not.toContain('skipped');
  });

  it('checks each expected match type of the link to the other account, present or absent', () => {
    const linked = [
      { account_id: 'a', match_type: ['device', 'network'], score: 0.86 },
      { account_id: 'b', match_type: ['browser', 'device'], score: 1 },
    ];
    expect(bench.linkCase('profiles', linked, 'a', { device: true, browser: false })).toMatchObject({
      pass: true,
      found: 'device network',
      expected: 'device, no browser',
    });
    expect(bench.linkCase('profiles', linked, 'b', { device: true, browser: false }).pass).toBe(false);
    expect(bench.linkCase('profiles', linked, 'c', { device: true })).toMatchObject({
      pass: false,
      found: '(no link)',
    });
    const text = bench.report({
      results: [],
      identities: [bench.linkCase('profiles', linked, 'b', { device: true, browser: false })],
      crossProfileBrowserLinks: 1,
    });
    expect(text).toContain('profiles | device, no browser | browser device (1.00) | NO');
    expect(text).toContain('identity: 0/1 as expected; browser links between different profiles: 1 (target 0)');
  });
});

describe('bench-detection page', () => {
  it("reads BotD's posted result as bot with its kind, not bot, or a failure", () => {
    expect(botdResult('{"bot":true,"botKind":"headless_chrome"}')).toEqual({ bot: true, botKind: 'headless_chrome' });
    expect(botdResult('{"bot":false}')).toEqual({ bot: false });
    expect(botdResult('{"error":"BotdError: State.Undefined"}')).toEqual({
      error: 'BotD failed: BotdError: State.Undefined',
    });
    expect(botdResult('{"bot":true}')).toMatchObject({ error: expect.stringContaining('BotD failed') });
    expect(botdResult('not json')).toEqual({ error: 'BotD posted no JSON' });
  });
});
