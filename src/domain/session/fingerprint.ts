/**
 * The web SDK's device fingerprint as the server derives it from the components the SDK posts
 * (openapi.yaml, `FingerprintComponents`): MurmurHash3 (x86, 128-bit) of their canonical JSON,
 * the same derivation as packages/web/src/fingerprint.ts. The server keeps its own result, so a
 * post cannot choose the `device` it links to without choosing components that give it.
 */
import murmur from 'murmurhash3js-revisited';
import type { FingerprintComponents, IngestSession } from '../../api-types';
import { canonicalJson } from './integrity';

export function deriveFingerprint(components: FingerprintComponents): string {
  return murmur.x86.hash128(new TextEncoder().encode(canonicalJson(components)));
}

/**
 * The posted facts with the server's own fingerprint when they carry components, and the one the
 * post claimed beside them (kept to compare: `fingerprint_mismatch`). Without components the
 * posted fingerprint stands as it is (an SDK bundle from before the components were posted).
 */
export function withDerivedFingerprint<T extends Pick<IngestSession, 'browser_fingerprint' | 'fingerprint_components'>>(
  posted: T,
): { facts: T; claimed?: string } {
  const components = posted.fingerprint_components;
  if (!components) return { facts: posted };
  const claimed = posted.browser_fingerprint;
  return {
    facts: { ...posted, browser_fingerprint: deriveFingerprint(components) },
    ...(claimed === undefined ? {} : { claimed }),
  };
}
