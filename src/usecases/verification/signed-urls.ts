/**
 * A stored result as it leaves the service, when verify-face / verify-id answers and at each
 * delivery attempt of its webhook: in the current shape (domain/verification/stored.ts), its
 * media URLs signed from the moment they are sent. Results are stored unsigned.
 */
import type { FaceMatchCompleted, FaceMatchResult, IdCheckCompleted, IdCheckResult } from '../../api-types';
import { currentResult } from '../../domain/verification/stored';

/** The stored result in the current shape, every media URL (photo_urls, document_data.photo_urls, video_urls) signed with `sign`. */
export async function signResultUrls<T extends FaceMatchResult | IdCheckResult>(
  stored: T,
  sign: (url: string) => Promise<string>,
): Promise<T> {
  const signAll = async <O extends Record<string, string>>(urls: O): Promise<O> =>
    Object.fromEntries(await Promise.all(Object.entries(urls).map(async ([k, v]) => [k, await sign(v)]))) as O;
  const result = currentResult(stored);
  const out = { ...result, video_urls: await Promise.all(result.video_urls.map(sign)) };
  if ('photo_urls' in out && out.photo_urls) out.photo_urls = await signAll(out.photo_urls);
  if ('document_data' in out && out.document_data)
    out.document_data = { ...out.document_data, photo_urls: await signAll(out.document_data.photo_urls) };
  return out;
}

/** A webhook's body as it is sent now: its media URLs signed from this moment (each attempt anew). */
export async function renderWebhook(body: string, sign: (url: string) => Promise<string>): Promise<string> {
  const envelope = JSON.parse(body) as FaceMatchCompleted | IdCheckCompleted;
  if (!envelope.data) return body;
  return JSON.stringify({ ...envelope, data: await signResultUrls(envelope.data, sign) });
}
