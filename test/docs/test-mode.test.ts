/**
 * docs/test-mode.md's local-mode curl example, run as written with `bash` against the service
 * listening on loopback, configured from the page's `npm start` line (TRUST_PROXY=loopback), in a test project: with
 * each account id of the page's forcing table in place of its `test_real_alice`, the answer is
 * exactly the forced one (the decision, the forced signal and no other: the example's session
 * has no challenge binding, so it is judged forged, and that must not show through). With an
 * ordinary account id the forged post shows, as the page says, and after a `test_fake` from the
 * same address the project's history adds `recent_fraud_ip`.
 *
 * The page's `npx trustgate project create --test` is not run here: the test project is made by
 * the same use case (the CLI's own tests run the command); the example reads its id and key
 * from `$PROJECT_ID` and `$TRUSTGATE_API_KEY`, given here.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AuthenticateResponse } from '../../src/api-types';
import { BOT_WEIGHTS, RISK_SIGNAL_WEIGHTS } from '../../src/domain/scoring';
import { loadConfig } from '../../src/config';
import { FORCED_BOT, TEST_SIGNALS } from '../../src/domain/test-mode';
import { PACKAGE_ROOT } from '../../src/spec';
import type { ProjectCredentials } from '../../src/usecases/projects';
import { makeTestContext, type TestContext } from '../helpers/app';
import { listen, type Listening } from '../helpers/browser';
import { npmStarts, readmeExamples, substitute } from '../readme/examples';

const DOC = 'docs/test-mode.md';
const examples = readmeExamples(fs.readFileSync(path.join(PACKAGE_ROOT, DOC), 'utf8'), DOC);
const EXAMPLE_SESSION = '0b7e4a6c-1f2d-4c3b-8a9e-5d6f7a8b9c01';
const EXAMPLE_ACCOUNT = 'test_real_alice';

function example(name: string): string {
  const found = examples.get(name);
  if (!found) throw new Error(`${DOC} has no example marked <!-- example: ${name} -->`);
  return found.code;
}

let ctx: TestContext;
let server: Listening;
beforeAll(async () => {
  const { starts } = npmStarts(example('local-mode-start'));
  expect(starts).toEqual([{ TRUST_PROXY: 'loopback' }]);
  // The setting as the server reads it from the page's assignment.
  ctx = await makeTestContext({ trustProxy: loadConfig(starts[0]).trustProxy });
  server = await listen(ctx.app);
});
afterAll(async () => {
  await server.close();
  await ctx.close();
});

/** A fresh test project: its history never carries one run's outcome into the next. */
let projects = 0;
const testProject = () => ctx.services.projects.create({ name: `Shop (tests) ${++projects}`, test: true });

/**
 * The example run with bash, its session id a fresh one (ids are unique across the installation)
 * and its account id `accountId`, in `project` (a fresh test project unless given); the two answers (ingest, authenticate), which curl prints one
 * after the other.
 */
async function runExample(accountId: string, project?: ProjectCredentials) {
  project ??= await testProject();
  const sessionId = randomUUID();
  const code = substitute(example('local-mode-curl'), {
    'http://127.0.0.1:3000': server.origin,
    [EXAMPLE_SESSION]: sessionId,
    [`"id":"${EXAMPLE_ACCOUNT}"`]: `"id":${JSON.stringify(accountId)}`,
  });
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', code], {
    env: { PATH: process.env.PATH, PROJECT_ID: project.project_id, TRUSTGATE_API_KEY: project.api_key },
    timeout: 20_000,
  });
  const ingested = JSON.stringify({ session_id: sessionId });
  expect(stdout.startsWith(ingested)).toBe(true);
  return JSON.parse(stdout.slice(ingested.length)) as AuthenticateResponse;
}

const signalsOn = (r: AuthenticateResponse) =>
  Object.keys(r.session.risk_signals).filter((k) => r.session.risk_signals[k as keyof typeof r.session.risk_signals]);

describe("docs/test-mode.md's curl example in a test project", () => {
  test('when run as written (test_real_alice), then the session is London’s address and the answer exactly Real', async () => {
    const r = await runExample(EXAMPLE_ACCOUNT);
    expect(r.session.network.ip_address).toBe('81.2.69.142');
    expect(r.session.location.city).toBe('London');
    expect(r.decision).toBe('Real');
    expect(r.bot).toBe(BOT_WEIGHTS.base);
    expect(r.risk_signals).toBe(0);
    expect(r.multiple_accounts).toBe(0);
    expect(signalsOn(r)).toEqual([]);
    expect(r.session.risk_signal_details).toEqual({ network: [], device: [] });
  });

  test('when the account id is test_fake_42, then the answer is exactly Fake by the bot score, with no risk signal', async () => {
    const r = await runExample('test_fake_42');
    expect(r.decision).toBe('Fake');
    expect(r.bot).toBe(FORCED_BOT);
    expect(r.account_score).toBeGreaterThanOrEqual(FORCED_BOT);
    expect(r.risk_signals).toBe(0);
    expect(signalsOn(r)).toEqual([]);
  });

  test.each(TEST_SIGNALS)(
    'when the account id is test_signal_%s:alice, then that signal alone is on and the scores follow from it',
    async (signal) => {
      const r = await runExample(`test_signal_${signal}:alice`);
      expect(signalsOn(r)).toEqual([signal]);
      if (signal !== 'spoofed_ip') expect(r.session.risk_signal_scores[signal]).toBe(1);
      expect(r.risk_signals).toBeCloseTo(RISK_SIGNAL_WEIGHTS[signal], 2);
      expect(r.bot).toBe(BOT_WEIGHTS.base);
      expect(r.multiple_accounts).toBe(0);
      expect(r.decision).toBe(r.account_score >= 0.8 ? 'Fake' : 'Real');
    },
  );

  test('when the account id is an ordinary one, then the post without a challenge binding shows: device_risk (forged_payload)', async () => {
    const r = await runExample('alice');
    expect(signalsOn(r)).toEqual(['device_risk']);
    expect([...r.session.risk_signal_details.device].sort()).toEqual(['forged_payload', 'user_agent_header_mismatch']);
    // The page's numbers: such a post's facts are not a browser's, which the bot score counts.
    const doc = fs.readFileSync(path.join(PACKAGE_ROOT, DOC), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain(`\`bot\` score of ${r.bot} `);
    expect(doc).toContain(`and ${r.decision}, \`account_score\` ${r.account_score};`);
    expect(r).toMatchObject({ decision: 'Fake' });
  });

  test('when an ordinary account id follows test_fake from the same address in the project, then recent_fraud_ip joins device_risk: Fake', async () => {
    const project = await testProject();
    await runExample('test_fake_42', project);
    const r = await runExample('alice', project);
    expect(signalsOn(r)).toEqual(expect.arrayContaining(['device_risk', 'recent_fraud_ip']));
    expect(r.decision).toBe('Fake');
  });
});
