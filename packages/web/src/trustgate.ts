/**
 * The SDK's lifecycle: a session per tab (kept across the pages of one flow), a first post with
 * everything collected, updates while the page lives (every few seconds when something
 * changed, and a beacon when the page is hidden or unloads), and a new session on request.
 *
 * Nothing here may break the host page: every browser call is guarded, every promise the SDK
 * makes for itself is caught, and only `session()` and `reinitialize()` reject, when the
 * session could not be stored at all.
 */
import type { IngestSession } from './types.js';
import { automation, lateSignals } from './automation.js';
import { deviceFacts } from './device.js';
import { countEvents, type EventCounter } from './events.js';
import { watchInput } from './input.js';
import { browserFingerprint, fingerprintComponents } from './fingerprint.js';
import { uuid } from './ids.js';
import { deviceId, loadTabSession, saveTabSession, type TabSession } from './storage.js';
import { tampering } from './tampering.js';
import {
  beaconSession,
  bindChallenge,
  fetchChallenge,
  postSession,
  type Challenge,
  type PostResult,
} from './transport.js';
import { lies } from './lies.js';
import { webrtcAddresses } from './webrtc.js';
import { attempt } from './attempt.js';

export interface TrustgateOptions {
  projectId: string;
  /** Trustgate's origin, for example `https://trustgate.example.com`. */
  endpoint: string;
  /** How often to send changed counts while the page lives. */
  updateIntervalMs?: number;
}

export interface SessionHandle {
  session_id: string;
}

export interface Trustgate {
  /** The current session, once its first post is stored and the latest counts are sent. */
  session(): Promise<SessionHandle>;
  /** Ends the current session and starts a new one (for example on logout). */
  reinitialize(): Promise<SessionHandle>;
}

type Facts = Omit<IngestSession, 'session_id' | 'events'>;

/** Sessions accept updates for 24 hours; a tab starts a new one well before that. */
const TAB_SESSION_MAX_AGE_MS = 12 * 3600 * 1000;
const COLLECT_TIMEOUT_MS = 1500;
const FIRST_POST_ATTEMPTS = 5;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const within = <T>(work: Promise<T>, ms: number, fallback: T): Promise<T> =>
  Promise.race([work.catch(() => fallback), sleep(ms).then(() => fallback)]);

async function collectFacts(device_id: string, events: EventCounter): Promise<Facts> {
  const [device, webrtc_ips, found, lied] = await Promise.all([
    within(deviceFacts(), COLLECT_TIMEOUT_MS, {}),
    within(webrtcAddresses(COLLECT_TIMEOUT_MS - 200), COLLECT_TIMEOUT_MS, [] as string[]),
    within(automation(events.synthetic()), COLLECT_TIMEOUT_MS, {
      webdriver: navigator.webdriver === true,
      signals: [],
    }),
    within(lies(COLLECT_TIMEOUT_MS - 200), COLLECT_TIMEOUT_MS, [] as string[]),
  ]);
  const facts: Facts = { source: 'web', source_version: null, device_id, ...device, automation: found };
  const components = attempt(fingerprintComponents, undefined);
  if (components) {
    facts.browser_fingerprint = browserFingerprint(components);
    facts.fingerprint_components = components;
  }
  const tampered: string[] = attempt(tampering, [] as string[]);
  // A context that disagrees with the page is tampering too (tampering.ts's summary first).
  if (lied.length && !tampered.length) tampered.push('browser_tampering_detected');
  tampered.push(...lied);
  if (tampered.length) facts.tampering = tampered.slice(0, 32);
  if (webrtc_ips.length) facts.webrtc_ips = webrtc_ips;
  return facts;
}

/** The device's location, only when the user already allowed it to this site: the SDK never asks. */
async function grantedGeolocation(): Promise<IngestSession['geolocation']> {
  const status = await navigator.permissions?.query({ name: 'geolocation' });
  if (status?.state !== 'granted') return undefined;
  const position = await new Promise<GeolocationPosition>((resolve, reject) =>
    navigator.geolocation.getCurrentPosition(resolve, reject, { maximumAge: 600_000, timeout: 5000 }),
  );
  const { latitude, longitude, accuracy } = position.coords;
  return { latitude, longitude, accuracy_m: accuracy };
}

export function startTrustgate(options: TrustgateOptions): Trustgate {
  const { projectId, endpoint } = options;
  const device_id = deviceId();
  const events = countEvents(document);
  const input = watchInput(document);

  const newTab = (): TabSession => ({ id: uuid(), projectId, started: Date.now(), events: {}, input: {} });
  const restored = loadTabSession();
  let tab =
    restored && restored.projectId === projectId && Date.now() - restored.started < TAB_SESSION_MAX_AGE_MS
      ? restored
      : newTab();
  events.reset(tab.events);
  input.reset(tab.input);
  saveTabSession(tab);

  let facts: Facts | undefined;
  const factsReady = collectFacts(device_id, events).then((f) => (facts = f));
  let geolocation: IngestSession['geolocation'];
  within(grantedGeolocation(), 6000, undefined).then((g) => (geolocation = g));

  /** What later posts carry: the counts and findings that can change while the page lives. */
  const update = (): IngestSession => {
    const signals = [...(facts?.automation?.signals ?? [])];
    if (events.synthetic() > 0 && !signals.includes('synthetic_events')) signals.push('synthetic_events');
    for (const late of lateSignals()) if (!signals.includes(late) && signals.length < 32) signals.push(late);
    const body: IngestSession = {
      session_id: tab.id,
      source: 'web',
      device_id,
      events: events.counts(),
      input: input.counts(),
      automation: { webdriver: facts?.automation?.webdriver ?? navigator.webdriver === true, signals },
    };
    if (geolocation) body.geolocation = geolocation;
    return body;
  };
  const changeKey = (body: IngestSession) =>
    JSON.stringify([body.session_id, body.events, body.input, body.automation, body.geolocation]);
  let lastSent = '';

  const remember = () => {
    tab.events = events.counts();
    tab.input = input.counts();
    saveTabSession(tab);
  };

  /** The challenge that binds the current session's full posts (one per session: the server lets a session reuse its own). */
  let challenge: Promise<Challenge | undefined> | undefined;
  let bound: Challenge | undefined;
  const sessionChallenge = () => {
    challenge ??= fetchChallenge(endpoint, projectId).then((c) => (bound = c));
    return challenge;
  };
  sessionChallenge();

  async function establish(): Promise<SessionHandle> {
    await factsReady;
    let renewed = false;
    for (let i = 0; i < FIRST_POST_ATTEMPTS; i++) {
      const found = await sessionChallenge();
      // No challenge (Trustgate unreachable): ask again on the next attempt.
      if (!found) challenge = undefined;
      const body = await bindChallenge({ ...facts!, ...update() }, found);
      const result: PostResult = await postSession(endpoint, projectId, body);
      if (result.ok) {
        lastSent = changeKey(body);
        remember();
        return { session_id: body.session_id };
      }
      if (result.status === 400 && !renewed && restored?.id === tab.id) {
        // The tab's earlier session expired or belongs to another project: start afresh.
        renewed = true;
        challenge = undefined;
        tab = newTab();
        events.reset();
        input.reset();
        saveTabSession(tab);
        continue;
      }
      if (result.status >= 400 && result.status < 500 && result.status !== 429 && result.status !== 408) {
        throw new Error(
          `Trustgate: the session was refused (${result.status}${result.message ? `: ${result.message}` : ''})`,
        );
      }
      await sleep(500 * 2 ** i);
    }
    throw new Error('Trustgate: the session could not be stored (Trustgate unreachable)');
  }

  let established = establish();
  established.catch(() => undefined);

  /** Sends the counts when they changed since the last stored post; one post at a time. */
  let queue: Promise<unknown> = Promise.resolve();
  const flush = (): Promise<unknown> => {
    queue = queue
      .then(async () => {
        const current = established;
        await current;
        if (current !== established) return;
        const body = update();
        const key = changeKey(body);
        if (key === lastSent) return;
        const result = await postSession(endpoint, projectId, body);
        if (result.ok) lastSent = key;
        remember();
      })
      .catch(() => undefined);
    return queue;
  };

  setInterval(flush, options.updateIntervalMs ?? 5000);

  const leaving = () => {
    remember();
    if (!facts) return;
    // Until the first post is stored, the beacon carries everything, so it can create the
    // session, bound to the session's challenge (signing is asynchronous: the page is hidden,
    // not yet gone, when this runs).
    const body = lastSent ? update() : { ...facts, ...update() };
    const key = changeKey(body);
    if (key === lastSent) return;
    if (lastSent) {
      if (beaconSession(endpoint, projectId, body)) lastSent = key;
      return;
    }
    bindChallenge(body, bound)
      .then((signed) => {
        if (beaconSession(endpoint, projectId, signed)) lastSent = key;
      })
      .catch(() => undefined);
  };
  addEventListener('pagehide', leaving);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leaving();
  });

  return {
    async session() {
      const handle = await established;
      await flush();
      return handle;
    },
    reinitialize() {
      challenge = undefined;
      tab = newTab();
      events.reset();
      input.reset();
      lastSent = '';
      saveTabSession(tab);
      established = establish();
      established.catch(() => undefined);
      return established;
    },
  };
}
