/**
 * Client routes under /console (the server answers index.html for each): the path and query
 * of the address bar as React state, `navigate` to change them (history.pushState), and
 * `Link`, an anchor that navigates without reloading (a modified click opens a new tab as
 * usual). A route is a pattern matched in routes.tsx; /console/me and POST /console/login
 * are the contract's, so no client route uses those names.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export const BASE = '/console';

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => window.location.pathname + window.location.search;

/** The current address: its path under /console ('/search') and its query. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, current);
  const url = new URL(href, window.location.origin);
  const path = url.pathname.slice(BASE.length) || '/';
  return { path, query: url.searchParams };
}

/** Goes to a console path ('/accounts/u1'), adding to the history unless `replace`. */
export function navigate(to: string, { replace = false } = {}): void {
  const href = BASE + to;
  if (href === current()) return;
  if (replace) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  listeners.forEach((l) => l());
  window.scrollTo(0, 0);
}

/** A path with a query, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `${path}?${s}` : path;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

export function Link({ to, onClick, ...rest }: LinkProps) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={BASE + to} onClick={click} {...rest} />;
}
