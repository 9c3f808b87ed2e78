/**
 * The detection benchmark's report (scripts/bench-detection/report.js) on made-up results: what
 * counts as flagged, the detection rate over automated configurations that ran, the false
 * positives over the human baseline, and the identity cases read from linked_accounts. The browsers themselves
 * run only in `npm run bench:detection`.
 */
const bench = require('../../scripts/bench-detection/report') as {
  report(run: { results: object[]; identities: object[]; crossProfileBrowserLinks: number }): string;
  linkCase(
    name: string,
    linked: { account_id: string; match_type: string[]; score: number }[],
    other: string,
    want: Record<string, boolean>,
  ): { pass: boolean; found: string; expected: string };
  flagged(r: object): boolean;
};

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

describe('bench-detection report', () => {
  it('flags device_risk, a bot score of 0.5 or more, or Fake, and nothing else', () => {
    expect(bench.flagged(row('a', 'automated'))).toBe(false);
    expect(bench.flagged(row('a', 'automated', { device_risk: true }))).toBe(true);
    expect(bench.flagged(row('a', 'automated', { bot: 0.5 }))).toBe(true);
    expect(bench.flagged(row('a', 'automated', { bot: 0.49 }))).toBe(false);
    expect(bench.flagged(row('a', 'automated', { decision: 'Fake' }))).toBe(true);
  });

  it('counts detection over automated runs and false positives over humans, skipped ones apart', () => {
    const text = bench.report({
      results: [
        row('headless', 'automated', { device_risk: true, conditions: ['webdriver'] }),
        row('stealth', 'automated'), // missed
        { name: 'headful', kind: 'automated', skipped: 'Xvfb is not installed' },
        row('human', 'human', { bot: 0.7, note: 'page saw mouse 3' }), // a false positive
      ],
      identities: [],
      crossProfileBrowserLinks: 0,
    });
    expect(text).toContain(
      'detection: 1/2 automated configurations flagged; false positives: 1/1; 1 configuration(s) skipped',
    );
    expect(text).toMatch(/headless +\| true \(0\) +\| 0\.02 \| Real +\| webdriver/);
    expect(text).toContain('skipped: Xvfb is not installed');
    expect(text).toContain('(page saw mouse 3)');
    expect(text).toContain('browser links between different profiles: n/a');
  });

  it('says n/a for false positives when the human baseline did not run', () => {
    const text = bench.report({ results: [row('headless', 'automated')], identities: [], crossProfileBrowserLinks: 0 });
    expect(text).toContain('false positives: n/a (human baseline skipped)');
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
