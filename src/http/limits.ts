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

/**
 * How deep a JSON body may nest arrays and objects (the top is level 1). The contract's
 * recursive schemas (a rules document's `all` / `any` / `not`) cannot bound their own depth,
 * and the validator walks them with the call stack: a body thousands of levels deep would
 * overflow it before the rules' own depth check runs. Well above what a valid body needs (a
 * rules document's conditions, MAX_DEPTH levels of two JSON levels each, under three levels of
 * document; Metadata's three levels under an account).
 */
export const JSON_MAX_DEPTH = 64;

/** Whether `value` nests arrays and objects deeper than `max`: walked with a stack of its own, not the call stack. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(node))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** 400 for a parsed JSON body nested deeper than JSON_MAX_DEPTH, before the validator walks it. */
export function checkJsonDepth(body: unknown): void {
  if (nestsDeeperThan(body, JSON_MAX_DEPTH))
    throw new BadRequestError(`body must not nest arrays and objects more than ${JSON_MAX_DEPTH} levels deep`);
}
