/**
 * The limits of the interface that JSON Schema cannot state, checked before a use case runs.
 * openapi.yaml states each in the description of what it bounds; the schema bounds the rest
 * (Metadata's depth, members and key length).
 */
import type { Metadata } from '../api-types';
import { BadRequestError } from '../errors';

/** `metadata` as stored (JSON, UTF-8): every linked account in an answer carries its metadata. */
export const METADATA_MAX_BYTES = 16_384;

/** 400 naming `field` when `metadata` is larger than METADATA_MAX_BYTES as JSON. */
export function checkMetadataSize(metadata: Metadata | undefined, field: string): void {
  if (metadata === undefined) return;
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
  if (bytes > METADATA_MAX_BYTES)
    throw new BadRequestError(`${field} must not be larger than ${METADATA_MAX_BYTES} bytes as JSON (it is ${bytes})`);
}
