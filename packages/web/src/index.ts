/**
 * The SDK as an ES module, for pages built with a bundler (the script tag's entry is
 * script-tag.ts):
 *
 *   import { load, session, reinitialize } from '@trustgate/web';
 *
 *   load({ projectId: 'PROJECT_ID', endpoint: 'https://trustgate.example.com' });
 *   const { session_id } = await session(); // then send session_id to your backend
 *
 * One SDK per page: `load` starts it once (a second call with the same options returns the same
 * one) and `session` and `reinitialize` act on it. Importing the module does nothing by itself,
 * so it is safe in code that also runs on a server; `load` itself needs a browser.
 */
import { startTrustgate, type SessionHandle, type Trustgate, type TrustgateOptions } from './trustgate.js';

export type { SessionHandle, Trustgate, TrustgateOptions };

let loaded: { options: TrustgateOptions; sdk: Trustgate } | undefined;

/** Starts collecting the page's session for the project (once per page) and returns the SDK. */
export function load(options: TrustgateOptions): Trustgate {
  const { projectId, updateIntervalMs } = options ?? {};
  if (typeof projectId !== 'string' || projectId === '')
    throw new TypeError('Trustgate: load needs { projectId } (your project id)');
  if (typeof options.endpoint !== 'string' || !/^https?:\/\//.test(options.endpoint))
    throw new TypeError("Trustgate: load needs { endpoint } (Trustgate's origin, https://…)");
  const endpoint = options.endpoint.replace(/\/+$/, '');
  if (loaded) {
    const same = loaded.options.projectId === projectId && loaded.options.endpoint === endpoint;
    if (!same)
      throw new Error(
        `Trustgate: already loaded for project ${loaded.options.projectId} at ${loaded.options.endpoint}`,
      );
    return loaded.sdk;
  }
  if (typeof window === 'undefined' || typeof document === 'undefined')
    throw new Error('Trustgate: load runs in a browser, not on a server');
  const normalised = { projectId, endpoint, updateIntervalMs };
  loaded = { options: normalised, sdk: startTrustgate(normalised) };
  return loaded.sdk;
}

const notLoaded = () => Promise.reject(new Error('Trustgate: call load({ projectId, endpoint }) first'));

/** The current session, once its first post is stored and the latest counts are sent. */
export function session(): Promise<SessionHandle> {
  return loaded ? loaded.sdk.session() : notLoaded();
}

/** Ends the current session and starts a new one (for example on logout). */
export function reinitialize(): Promise<SessionHandle> {
  return loaded ? loaded.sdk.reinitialize() : notLoaded();
}
