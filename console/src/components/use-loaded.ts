/**
 * What a page loads for its address: the result or the error's message, reset when the address
 * changes, and an answer that comes after the page moved on to another address dropped.
 */
import { useEffect, useState } from 'react';

export function useLoaded<T>(load: () => Promise<T>, deps: readonly unknown[]): { loaded?: T; error?: string } {
  const [state, setState] = useState<{ loaded?: T; error?: string }>({});
  useEffect(() => {
    let live = true;
    setState({});
    load()
      .then((loaded) => live && setState({ loaded }))
      .catch((e: Error) => live && setState({ error: e.message || 'The server could not be reached' }));
    return () => {
      live = false;
    };
    // The caller names what the load depends on, as with useEffect.
  }, deps);
  return state;
}
