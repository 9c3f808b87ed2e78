/**
 * "Lies": the browser's facts as the page sees them against a Web Worker's and a fresh
 * iframe's. Stealth scripts and emulation patch the page's `navigator` (and WebGL), rarely
 * every context, so a disagreement names the patched fact, for example
 * `worker_mismatch:user_agent` or `iframe_mismatch:webgl_renderer`. A context that cannot be
 * made (a Content Security Policy without `blob:` workers, no OffscreenCanvas WebGL) is
 * skipped: a missing value is never a mismatch.
 */
import { gpuRenderer } from './device.js';

interface Seen {
  user_agent?: string;
  platform?: string;
  languages?: string;
  hardware_concurrency?: number;
  webgl_renderer?: string;
}

function seenBy(
  nav: Pick<Navigator, 'userAgent' | 'platform' | 'languages' | 'hardwareConcurrency'>,
  renderer: string | undefined,
): Seen {
  return {
    user_agent: nav.userAgent,
    platform: nav.platform,
    languages: (nav.languages ?? []).join(','),
    hardware_concurrency: nav.hardwareConcurrency,
    webgl_renderer: renderer,
  };
}

const WORKER_SOURCE = `var n=navigator,g;try{var c=new OffscreenCanvas(1,1).getContext('webgl');if(c){var i=c.getExtension('WEBGL_debug_renderer_info');g=c.getParameter(i?i.UNMASKED_RENDERER_WEBGL:c.RENDERER)}}catch(e){}postMessage({user_agent:n.userAgent,platform:n.platform,languages:(n.languages||[]).join(','),hardware_concurrency:n.hardwareConcurrency,webgl_renderer:typeof g=='string'&&g?g.slice(0,512):undefined})`;

function workerSeen(timeoutMs: number): Promise<Seen | undefined> {
  return new Promise((resolve) => {
    let worker: Worker | undefined;
    let url = '';
    const done = (seen: Seen | undefined) => {
      clearTimeout(timer);
      worker?.terminate();
      if (url) URL.revokeObjectURL(url);
      resolve(seen);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    try {
      url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
      worker = new Worker(url);
      worker.onmessage = (e: MessageEvent<Seen>) => done(e.data);
      worker.onerror = () => done(undefined);
    } catch {
      done(undefined);
    }
  });
}

function iframeSeen(): Seen | undefined {
  const frame = document.createElement('iframe');
  try {
    frame.style.display = 'none';
    frame.setAttribute('aria-hidden', 'true');
    (document.body ?? document.documentElement).appendChild(frame);
    const win = frame.contentWindow;
    if (!win?.document) return undefined;
    return seenBy(win.navigator, gpuRenderer(win.document));
  } catch {
    return undefined;
  } finally {
    frame.remove();
  }
}

function differences(page: Seen, other: Seen | undefined, prefix: string): string[] {
  if (!other) return [];
  return (Object.keys(page) as (keyof Seen)[])
    .filter((k) => page[k] !== undefined && other[k] !== undefined && page[k] !== other[k])
    .map((k) => `${prefix}:${k}`);
}

export async function lies(timeoutMs: number): Promise<string[]> {
  const page = seenBy(navigator, gpuRenderer());
  const fromFrame = differences(page, iframeSeen(), 'iframe_mismatch');
  return [...fromFrame, ...differences(page, await workerSeen(timeoutMs), 'worker_mismatch')];
}
