/**
 * Shared pieces of the risk engine's scenario tests: a fresh project per test (so that one
 * test's history of addresses, devices and decisions never reaches another's), the reads that
 * check what was stored, and the assertions on one risk signal.
 */
import request from 'supertest';
import type { Evaluation, EvaluatedRiskSignalScores, IngestSession } from '../../../src/api-types';
import { TEST_NOW, type TestContext } from '../../helpers/app';
import { scenario } from '../../helpers/evaluation';

/** Residential addresses from the shipped IP data (DB-IP city + ASN), each in its own /24. */
export const GB_IPS = {
  /** Sky UK, London (Europe/London). */
  sky: '2.120.1.1',
  /** Sky UK, London. */
  sky2: '5.64.1.1',
  /** BT, London. */
  bt: '86.150.1.1',
  /** Sky UK, London. */
  sky3: '90.200.1.1',
} as const;
export const US_IPS = {
  /** Comcast, Monterey, California (America/Los_Angeles). */
  monterey: '73.162.0.1',
  /** Comcast, Santa Maria, California. */
  santaMaria: '24.4.1.1',
} as const;
/** Amazon AWS in New York (America/New_York), a hosting network. */
export const AWS_NY_IP = '52.95.110.1';

export const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
export const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36';

/** What a headless browser driven by a script posts: webdriver set, no interaction at all. */
export const BOT: Partial<IngestSession> = {
  automation: { webdriver: true, signals: [] },
  events: { mouse: 0, click: 0, keyboard: 0, touch: 0, clipboard: 0 },
};

/** A native app session (iOS) of a person: touches, the device's facts, a mobile user agent. */
export function iosSession(overrides: Partial<IngestSession> = {}): Partial<IngestSession> {
  return {
    source: 'ios',
    source_version: '2.4.0',
    browser_fingerprint: undefined,
    user_agent: IPHONE_UA,
    events: { mouse: 0, click: 0, keyboard: 0, touch: 60, clipboard: 0 },
    mobile: {
      brand: 'Apple',
      model: 'iPhone16,1',
      emulator: false,
      rooted: false,
      oem_app_integrity: 'passed',
      oem_device_integrity: 'passed',
    },
    ...overrides,
  };
}

/** A native app session (Android) of a person. */
export function androidSession(overrides: Partial<IngestSession> = {}): Partial<IngestSession> {
  return {
    source: 'android',
    source_version: '2.4.0',
    browser_fingerprint: undefined,
    user_agent: ANDROID_UA,
    events: { mouse: 0, click: 0, keyboard: 0, touch: 60, clipboard: 0 },
    mobile: {
      brand: 'Google',
      model: 'Pixel 8',
      emulator: false,
      rooted: false,
      oem_app_integrity: 'passed',
      oem_device_integrity: 'passed',
    },
    ...overrides,
  };
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

let projects = 0;

/** A new project of `ctx` and the scenario helpers bound to it, with the reads tests check. */
export async function freshProject(ctx: TestContext, options: { groups?: boolean } = {}) {
  const created = await ctx.services.projects.create({ name: `scenario ${++projects}`, groups: options.groups });
  const s = scenario(ctx, created.api_key, created.project_id);
  return Object.assign(s, {
    apiKey: created.api_key,
    projectId: created.project_id,
    getAccount: (id: string) =>
      request(ctx.app)
        .get(`/account/${encodeURIComponent(id)}`)
        .set('x-api-key', created.api_key),
    getSession: (id: string) => request(ctx.app).get(`/session/${id}`).set('x-api-key', created.api_key),
    unauthenticate: (sessionId: string) =>
      request(ctx.app)
        .post('/session/unauthenticated')
        .set('x-api-key', created.api_key)
        .send({ session_id: sessionId }),
  });
}
export type Project = Awaited<ReturnType<typeof freshProject>>;

/** An account's GET body without what differs from one read to the next: its request id, and the email intelligence (as of the read). */
export function storedAccount(body: Record<string, unknown>): Record<string, unknown> {
  const { request_id: _request, email: _email, ...rest } = body;
  return rest;
}

/** Runs `body` with the test clock free to move, and puts it back at TEST_NOW afterwards. */
export async function withClock(ctx: TestContext, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } finally {
    ctx.clock.set(TEST_NOW);
  }
}

type Scored = keyof EvaluatedRiskSignalScores;
type Kind = 'network' | 'device';

/** The signal is raised: its boolean, a score at or above 0.5 (or exactly `score`), and the condition named. */
export function expectOn(ev: Evaluation, signal: Scored, condition: string, kind: Kind, score?: number): void {
  const { risk_signals, risk_signal_scores, risk_signal_details } = ev.session;
  expect({ signal, on: risk_signals[signal] }).toEqual({ signal, on: true });
  if (score === undefined) expect(risk_signal_scores[signal]).toBeGreaterThanOrEqual(0.5);
  else expect(risk_signal_scores[signal]).toBeCloseTo(score, 3);
  expect(risk_signal_details[kind]).toContain(condition);
}

/** The signal stays off: its boolean, a score below 0.5 (or exactly `score`), and the condition not named. */
export function expectOff(ev: Evaluation, signal: Scored, condition: string, kind: Kind, score?: number): void {
  const { risk_signals, risk_signal_scores, risk_signal_details } = ev.session;
  expect({ signal, on: risk_signals[signal] }).toEqual({ signal, on: false });
  if (score === undefined) expect(risk_signal_scores[signal]).toBeLessThan(0.5);
  else expect(risk_signal_scores[signal]).toBeCloseTo(score, 3);
  expect(risk_signal_details[kind]).not.toContain(condition);
}

/** GET /session/{id} recomputes the same signals: the same booleans and scores, without ip_reputation. */
export async function expectSameOnGet(p: Project, ev: Evaluation): Promise<void> {
  const res = await p.getSession(ev.session_id);
  expect(res.status).toBe(200);
  const { ip_reputation: _flag, ...flags } = ev.session.risk_signals;
  const { ip_reputation: _score, ...scores } = ev.session.risk_signal_scores;
  expect(res.body.risk_signals).toEqual(flags);
  expect(res.body.risk_signal_scores).toEqual(scores);
}
