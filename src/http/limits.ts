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

/** A member on the way down: its key (`.name` or `[i]`) and the member above it. */
interface Step {
  key: string;
  parent?: Step;
}

/**
 * The path to the first array or object nested deeper than `max` in `value` (`` for the top),
 * or undefined: walked with a stack of its own, not the call stack, each member keeping only a
 * link to the one above it.
 */
export function pathDeeperThan(value: unknown, max: number): string | undefined {
  const stack: [unknown, number, Step | undefined][] = [[value, 1, undefined]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth, at] = next;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) {
      const keys: string[] = [];
      for (let step = at; step; step = step.parent) keys.push(step.key);
      return keys.reverse().join('').replace(/^\./, '');
    }
    for (const [key, child] of Object.entries(node))
      if (child !== null && typeof child === 'object')
        stack.push([child, depth + 1, { key: Array.isArray(node) ? `[${key}]` : `.${key}`, parent: at }]);
  }
  return undefined;
}

/**
 * 400 for a parsed JSON body nested deeper than JSON_MAX_DEPTH, before the validator walks it,
 * naming the member where it goes too deep by its first levels.
 */
export function checkJsonDepth(body: unknown): void {
  const path = pathDeeperThan(body, JSON_MAX_DEPTH);
  if (path === undefined) return;
  const shown = path
    .split(/(?=[.[])/)
    .slice(0, 5)
    .join('');
  // A top-level array's members are the body's own (`body[0][0]…`).
  const named = `${path.startsWith('[') || path === '' ? 'body' : ''}${shown}`;
  const field = shown.length < path.length ? `${named}…` : named;
  throw new BadRequestError(`${field} must not nest arrays and objects more than ${JSON_MAX_DEPTH} levels deep`);
}
