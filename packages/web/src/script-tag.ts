/**
 * The script tag's entry point:
 *
 *   <script src="https://TRUSTGATE_HOST/sdk.js" data-project-id="PROJECT_ID"></script>
 *
 * exposes `window.Trustgate` with `session()` and `reinitialize()`. Trustgate's origin is the
 * script's own, or `data-endpoint` when the site proxies Trustgate under its own domain.
 */
import { startTrustgate, type Trustgate } from './trustgate.js';

declare global {
  interface Window {
    Trustgate?: Trustgate;
  }
}

function refusing(reason: string): Trustgate {
  const fail = () => Promise.reject(new Error(`Trustgate: ${reason}`));
  return { session: fail, reinitialize: fail };
}

(function boot() {
  if (window.Trustgate) return; // the script was included twice
  try {
    const script = document.currentScript as HTMLScriptElement | null;
    const projectId = script?.dataset.projectId;
    if (!projectId) {
      console.warn('Trustgate: the script tag needs data-project-id="…"');
      window.Trustgate = refusing('no data-project-id on the script tag');
      return;
    }
    const origin =
      script?.dataset.endpoint || (script?.src ? new URL(script.src, location.href).origin : location.origin);
    window.Trustgate = startTrustgate({ projectId, endpoint: origin.replace(/\/+$/, '') });
  } catch (error) {
    window.Trustgate = refusing(error instanceof Error ? error.message : 'could not start');
  }
})();
