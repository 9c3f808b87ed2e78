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
