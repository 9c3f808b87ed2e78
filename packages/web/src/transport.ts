/**
 * Posts to Trustgate's `POST /ingest/session`: `fetch` with JSON and the `x-project-id` header
 * while the page lives, `navigator.sendBeacon` (a text/plain body and the `project_id` query
 * parameter, since a beacon cannot set headers) when it goes away.
 */
import type { IngestSession } from './types.js';

export interface PostResult {
  ok: boolean;
  /** 0 when the request never got an answer (offline, blocked, CORS). */
  status: number;
  message?: string;
}

export async function postSession(endpoint: string, projectId: string, body: IngestSession): Promise<PostResult> {
  try {
    const response = await fetch(`${endpoint}/ingest/session`, {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      headers: { 'content-type': 'application/json', 'x-project-id': projectId },
      body: JSON.stringify(body),
    });
    if (response.ok) return { ok: true, status: response.status };
    const error = (await response.json().catch(() => ({}))) as { message?: unknown };
    return {
      ok: false,
      status: response.status,
      message: typeof error.message === 'string' ? error.message : undefined,
    };
  } catch {
    return { ok: false, status: 0 };
  }
}

/** Queues the post with the browser, which sends it even as the page unloads. */
export function beaconSession(endpoint: string, projectId: string, body: IngestSession): boolean {
  try {
    return navigator.sendBeacon(
      `${endpoint}/ingest/session?project_id=${encodeURIComponent(projectId)}`,
      JSON.stringify(body),
    );
  } catch {
    return false;
  }
}

/** A single-use challenge of `POST /ingest/challenge`: its id and the key that signs the post. */
export interface Challenge {
  challenge: string;
  key: string;
}

/** Asks Trustgate for a challenge; undefined when none came (the post then goes unsigned, and the server says so). */
export async function fetchChallenge(endpoint: string, projectId: string): Promise<Challenge | undefined> {
  try {
    const response = await fetch(`${endpoint}/ingest/challenge`, {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      cache: 'no-store',
      headers: { 'x-project-id': projectId },
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as Partial<Challenge>;
    return typeof body.challenge === 'string' && typeof body.key === 'string'
      ? { challenge: body.challenge, key: body.key }
      : undefined;
  } catch {
    return undefined;
  }
}

/** JSON with object members sorted at every depth (the spec's `IngestIntegrity` canonical form). */
export const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonical(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
};

/** The body bound to the challenge: `integrity` with the hex HMAC-SHA256 of its canonical JSON. Unsigned where WebCrypto is missing (not a secure context). */
export async function bindChallenge(body: IngestSession, challenge: Challenge | undefined): Promise<IngestSession> {
  const subtle = globalThis.crypto?.subtle;
  if (!challenge || !subtle) return body;
  try {
    const { integrity: _old, ...content } = body;
    const keyBytes = new Uint8Array((challenge.key.match(/../g) ?? []).map((h) => parseInt(h, 16)));
    const key = await subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const mac = new Uint8Array(await subtle.sign('HMAC', key, new TextEncoder().encode(canonical(content))));
    return {
      ...content,
      integrity: {
        challenge: challenge.challenge,
        mac: Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join(''),
      },
    };
  } catch {
    return body;
  }
}
