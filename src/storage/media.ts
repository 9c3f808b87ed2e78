/**
 * Captured images: what kind they really are (by their first bytes, never by a header), where
 * they are kept (behind `MediaStore`, encrypted at rest with the service's secret box: on
 * SQLite the local disk, here; on PostgreSQL a table every node shares, storage/postgres/media.ts),
 * and the signed URLs that serve them for 60 minutes.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Clock, Random } from '../clock';
import { MINUTE_MS } from '../domain/numbers';
import type { ImageType } from '../domain/verification/analysis';
import { ForbiddenError, ServiceUnavailableError } from '../errors';
import { constantTimeEqual, type SecretBox } from '../security/secrets';

/** Largest accepted capture. */
export const MAX_CAPTURE_BYTES = 8 * 1024 * 1024;
/** Signed media URLs are valid this long. */
export const MEDIA_URL_LIFETIME_MS = 60 * MINUTE_MS;
/** The console's signed media URLs (GET /account/{account_id}/verifications) are valid this long. */
export const CONSOLE_MEDIA_URL_LIFETIME_MS = 5 * MINUTE_MS;

/** The image type from the magic bytes: JPEG FF D8 FF, PNG 89 50 4E 47, WEBP RIFF....WEBP. */
export function sniffImage(bytes: Buffer): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 4 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return 'image/png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}

export interface StoredMedia {
  bytes: Buffer;
  contentType: ImageType;
}

/**
 * Where images are kept. Every adapter keeps an image sealed as `sealMedia` seals it, under an
 * id `MEDIA_ID` matches; an object store (S3-compatible) would be one more adapter of this port.
 */
export interface MediaStore {
  /** Keeps the image and returns its id. */
  put(bytes: Buffer, contentType: ImageType): Promise<string>;
  get(id: string): Promise<StoredMedia | undefined>;
  /** Removes the image (nothing when it is not there). */
  delete(id: string): Promise<void>;
  /** The key that signs this store's URLs. */
  signingKey(): Promise<Buffer>;
}

/** A media id as the stores make them (a UUID); anything else is no image of theirs. */
export const MEDIA_ID = /^[0-9a-f-]{36}$/;

/** The image and its type, sealed (AES-256-GCM) by the secret box: neither is in the clear at rest. */
export function sealMedia(secretBox: SecretBox, bytes: Buffer, contentType: ImageType): string {
  return secretBox.encrypt(`${contentType}\n${bytes.toString('base64')}`);
}

/** What sealMedia sealed. */
export function openMedia(secretBox: SecretBox, sealed: string): StoredMedia {
  const plain = secretBox.decrypt(sealed);
  const newline = plain.indexOf('\n');
  return {
    contentType: plain.slice(0, newline) as ImageType,
    bytes: Buffer.from(plain.slice(newline + 1), 'base64'),
  };
}

/** A fresh URL-signing key, as the stores seal it (base64 inside the box). */
export function sealNewSigningKey(secretBox: SecretBox, random: Random): string {
  return secretBox.encrypt(random.bytes(32).toString('base64'));
}

export const openSigningKey = (secretBox: SecretBox, sealed: string): Buffer =>
  Buffer.from(secretBox.decrypt(sealed.trim()), 'base64');

/**
 * Loads the key once per store (`load`), again after a failure: the key is read from its home
 * when a URL is first signed or checked, never at start-up.
 */
export function memoisedKey(load: () => Promise<Buffer>): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  return () => {
    key ??= load();
    key.catch(() => (key = undefined));
    return key;
  };
}

/** The local store's file of an image. */
const localFileOf = (dir: string, id: string) => path.join(dir, `${id}.bin`);

/** The images the local store holds in `dir` (none when it is absent): their ids and files. */
export async function localMediaFiles(dir: string): Promise<{ id: string; file: string }[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names
    .filter((n) => n.endsWith('.bin') && MEDIA_ID.test(n.slice(0, -4)))
    .map((n) => ({ id: n.slice(0, -4), file: path.join(dir, n) }));
}

/** The local store's URL-signing key file in `dir`. */
export const localSigningKeyFile = (dir: string) => path.join(dir, 'url-signing.key');

/**
 * The local disk: one file per image in `dir`, sealed (AES-256-GCM) by the secret box, so the
 * file holds neither the image nor its type in the clear. The URL-signing key is a random key
 * kept in the same folder, sealed the same way, created on first use.
 */
export function makeLocalMediaStore(dir: string, secretBox: SecretBox, random: Random): MediaStore {
  async function loadKey(): Promise<Buffer> {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = localSigningKeyFile(dir);
    try {
      return openSigningKey(secretBox, await fs.readFile(file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const fresh = sealNewSigningKey(secretBox, random);
    try {
      await fs.writeFile(file, fresh + '\n', { mode: 0o600, flag: 'wx' });
      return openSigningKey(secretBox, fresh);
    } catch (err) {
      // Another process created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return openSigningKey(secretBox, await fs.readFile(file, 'utf8'));
    }
  }
  return {
    async put(bytes, contentType) {
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const id = random.uuid();
      await fs.writeFile(localFileOf(dir, id), sealMedia(secretBox, bytes, contentType), { mode: 0o600, flag: 'wx' });
      return id;
    },
    async get(id) {
      if (!MEDIA_ID.test(id)) return undefined;
      let sealed: string;
      try {
        sealed = await fs.readFile(localFileOf(dir, id), 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
      return openMedia(secretBox, sealed);
    },
    async delete(id) {
      if (!MEDIA_ID.test(id)) return;
      await fs.rm(localFileOf(dir, id), { force: true });
    },
    signingKey: memoisedKey(loadKey),
  };
}

/** Where no media folder was configured: captures are refused with a 503 saying so. */
export const unconfiguredMediaStore: MediaStore = {
  put() {
    return Promise.reject(new ServiceUnavailableError('Media storage is not configured on this server'));
  },
  get: async () => undefined,
  delete: async () => undefined,
  signingKey() {
    return Promise.reject(new ServiceUnavailableError('Media storage is not configured on this server'));
  },
};

/**
 * `/media/{id}?expires=…&signature=…`: HMAC-SHA256 over the id and the expiry, base64url, on
 * the configured public base URL (`publicBaseUrl()`, config.ts), never on a request's Host.
 */
export function makeMediaUrls(store: MediaStore, clock: Clock, publicBaseUrl: () => string) {
  const signatureOf = (key: Buffer, id: string, expires: number) =>
    createHmac('sha256', key).update(`${id}.${expires}`).digest('base64url');
  /** The media's URL without a signature, as results store it until they are sent. */
  const unsigned = (id: string) => `${publicBaseUrl()}/media/${id}`;
  /**
   * A stored unsigned URL (`…/media/{id}`), signed for 60 minutes from now (results are signed
   * when they are sent), on the base URL configured now: whatever host a stored URL carries
   * (one written before PUBLIC_BASE_URL existed took the request's Host) is not sent.
   */
  async function sign(url: string): Promise<string> {
    const id = /\/media\/([0-9a-f-]{36})$/.exec(url)?.[1];
    if (!id) throw new Error(`not a stored media URL: ${url}`);
    return (await signId(id, MEDIA_URL_LIFETIME_MS)).url;
  }
  /** The media `id`'s URL signed for `lifetimeMs` from now (whole seconds, rounded down), and when it expires. */
  async function signId(id: string, lifetimeMs: number): Promise<{ url: string; expiresAt: Date }> {
    const expires = Math.floor((clock.now().getTime() + lifetimeMs) / 1000);
    const url = `${unsigned(id)}?expires=${expires}&signature=${signatureOf(await store.signingKey(), id, expires)}`;
    return { url, expiresAt: new Date(expires * 1000) };
  }
  return {
    unsigned,
    sign,
    signId,
    /** The image behind a signed URL; 403 when the URL is expired or altered. */
    async open(id: string, expires: unknown, signature: unknown): Promise<StoredMedia> {
      const forbidden = new ForbiddenError('The media URL is expired or its signature is not valid');
      if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') throw forbidden;
      if (!constantTimeEqual(signature, signatureOf(await store.signingKey(), id, Number(expires)))) throw forbidden;
      if (clock.now().getTime() >= Number(expires) * 1000) throw forbidden;
      const media = await store.get(id);
      if (!media) throw forbidden;
      return media;
    },
  };
}

export type MediaUrls = ReturnType<typeof makeMediaUrls>;
