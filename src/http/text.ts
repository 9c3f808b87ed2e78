/**
 * openapi.yaml's `Text`, the rule for every string of a request: no U+0000 (PostgreSQL cannot
 * store it) and no unpaired surrogate (not Unicode). The validator applies the spec's pattern;
 * this reads the same pattern, for the error message and for the routes outside the spec.
 */
import { bundledSpec } from '../spec';

export const TEXT_RULE = 'must not contain U+0000 (NUL) or an unpaired surrogate';

let text: RegExp | undefined;
/** The pattern as the validator compiles it (JSON Schema patterns are Unicode regular expressions). */
export function textPattern(): RegExp {
  const pattern = bundledSpec().components.schemas.Text?.pattern;
  if (!pattern) throw new Error('openapi.yaml has no components.schemas.Text.pattern');
  text ??= new RegExp(pattern, 'u');
  return text;
}

export const isText = (value: string): boolean => textPattern().test(value);
