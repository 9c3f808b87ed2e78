/**
 * The device id and the tab's session, kept on the host page's own origin.
 *
 * The device id lives in localStorage with a first-party cookie as the fallback (and as a
 * second copy, so clearing one of them keeps the id). The current session lives in
 * sessionStorage, so the pages of one sign-up flow in a tab share a session. Every access is
 * guarded: storage can be disabled, full or blocked, and that must never break the page.
 */
import { uuid } from './ids.js';
import { attempt } from './attempt.js';

const DEVICE_KEY = 'trustgate_device_id';
const SESSION_KEY = 'trustgate_session';
const DEVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TWO_YEARS_S = 2 * 365 * 24 * 3600;

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const found = attempt(() => document.cookie.split('; ').find((c) => c.startsWith(prefix)));
  return found ? decodeURIComponent(found.slice(prefix.length)) : undefined;
}

function writeCookie(name: string, value: string): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  attempt(() => {
    document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${TWO_YEARS_S}; Path=/; SameSite=Lax${secure}`;
  });
}

/** The persistent device id: found in localStorage or the cookie, or made and stored in both. */
export function deviceId(): string {
  const stored = [attempt(() => localStorage.getItem(DEVICE_KEY)), readCookie(DEVICE_KEY)].find(
    (v): v is string => typeof v === 'string' && DEVICE_ID.test(v),
  );
  const id = stored ?? uuid();
  attempt(() => localStorage.setItem(DEVICE_KEY, id));
  writeCookie(DEVICE_KEY, id);
  return id;
}

export interface TabSession {
  id: string;
  projectId: string;
  /** Epoch milliseconds of the session's first post. */
  started: number;
  /** Event counts of earlier page loads in this session. */
  events: Record<string, number>;
  /** Input counts of earlier page loads in this session (input.ts); absent in tabs of older SDKs. */
  input?: Record<string, number>;
}

export function loadTabSession(): TabSession | undefined {
  const raw = attempt(() => sessionStorage.getItem(SESSION_KEY));
  const parsed = raw ? attempt(() => JSON.parse(raw) as TabSession) : undefined;
  return parsed && typeof parsed.id === 'string' && typeof parsed.started === 'number' ? parsed : undefined;
}

export function saveTabSession(session: TabSession): void {
  attempt(() => sessionStorage.setItem(SESSION_KEY, JSON.stringify(session)));
}
