/**
 * Valid values sampled from a (flattened) JSON Schema, as fast-check arbitraries: strings of
 * any script within their lengths and patterns (fast-check's stringMatching), the formats the
 * spec uses, numbers within their bounds, objects with their required members and some of
 * the optional ones, free-form objects with a few members. The caller checks each sample
 * against the spec (Ajv), so a sampler's approximation can never make a bad input pass as good.
 *
 * `known` offers values by member or parameter name (the id of a session that exists, a
 * capture token), taken about half the time, so that samples reach past "not found".
 */
import fc from 'fast-check';
import type { Json } from '../spec';
import type { Schema } from './schema';

export type Known = Record<string, Json[]>;

/** Code points, as JSON Schema counts a string's length. */
export const lengthOf = (s: string): number => [...s].length;

const typesOf = (schema: Schema): string[] => {
  if (schema.type) return [schema.type].flat();
  if (schema.properties || schema.additionalProperties !== undefined) return ['object'];
  if (schema.items) return ['array'];
  if (schema.enum) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  return ['string', 'number', 'boolean', 'null'];
};

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 48, Math.max(min, 48));
  const fits = (s: string) => lengthOf(s) >= min && lengthOf(s) <= (schema.maxLength ?? Infinity);
  let base: fc.Arbitrary<string>;
  switch (schema.format) {
    case 'uuid':
      base = fc.uuid();
      break;
    case 'uri':
      base = fc.webUrl({ withQueryParameters: true, withFragments: true });
      break;
    case 'ipv4':
      base = fc.ipV4();
      break;
    case 'ipv6':
      base = fc.ipV6();
      break;
    case 'date-time':
      base = fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
      break;
    default: {
      const anyText = fc.oneof(
        fc.string({ minLength: min, maxLength: max }),
        fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
      );
      if (!schema.pattern) {
        base = anyText;
        break;
      }
      const pattern = new RegExp(schema.pattern, 'u');
      // A broad pattern (the spec's Text) also gets text of every script, which stringMatching rarely makes.
      base = pattern.test('aé 😀')
        ? fc.oneof(
            fc.stringMatching(pattern),
            anyText.filter((s) => pattern.test(s)),
          )
        : fc.stringMatching(pattern);
    }
  }
  if (schema.pattern && schema.format) base = base.filter((s) => new RegExp(schema.pattern!, 'u').test(s));
  return base.filter(fits);
}

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (integer ? -1_000_000 : -1e9);
  const max = schema.maximum ?? (integer ? 1_000_000 : 1e9);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));
}

/**
 * Values of the schema. `full`: every declared member present (a baseline whose every member
 * can then be changed); otherwise the optional ones about half the time.
 */
export function arbitraryOf(
  schema: Schema,
  known: Known = {},
  name?: string,
  depth = 0,
  full = false,
): fc.Arbitrary<Json> {
  const own = generated(schema, known, depth, full);
  // A known value is offered only where the schema's type can take it (an account's `id` is
  // not the ID Check switch `id=true`).
  const offered = name ? known[name]?.filter((v) => fitsType(schema, v)) : undefined;
  return offered?.length ? fc.oneof(own, fc.constantFrom(...offered)) : own;
}

/** Whether `value` is of (one of) the schema's types; a schema without a type takes anything. */
function fitsType(schema: Schema, value: Json): boolean {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return types.length === 0 || types.some((t) => t === kind || (t === 'integer' && Number.isInteger(value)));
}

function generated(schema: Schema, known: Known, depth: number, full: boolean): fc.Arbitrary<Json> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) {
    const { oneOf: _o, anyOf: _a, ...base } = schema;
    return fc.oneof(
      ...branches.map((b) => generated({ ...base, ...b, type: b.type ?? base.type }, known, depth, full)),
    );
  }
  const arbitraries = typesOf(schema).map((type): fc.Arbitrary<Json> => {
    switch (type) {
      case 'string':
        return stringOf(schema);
      case 'integer':
        return numberOf(schema, true);
      case 'number':
        return numberOf(schema, false);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const item = schema.items ?? {};
        const maxLength = Math.min(schema.maxItems ?? 4, 4);
        return fc.array(arbitraryOf(item, known, undefined, depth + 1, full), {
          minLength: Math.min(Math.max(schema.minItems ?? 0, full ? 1 : 0), maxLength),
          maxLength,
        });
      }
      default:
        return objectOf(schema, known, depth, full);
    }
  });
  return arbitraries.length === 1 ? arbitraries[0]! : fc.oneof(...arbitraries);
}

function objectOf(schema: Schema, known: Known, depth: number, full: boolean): fc.Arbitrary<Json> {
  const properties = schema.properties ?? {};
  const required = schema.required ?? [];
  const declared = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([key, s]) => [key, arbitraryOf(s, known, key, depth + 1, full)]),
    ),
    { requiredKeys: full ? Object.keys(properties) : required.filter((k) => k in properties) },
  ) as fc.Arbitrary<Record<string, Json>>;
  const extra = schema.additionalProperties;
  if (extra === undefined || extra === false || depth > 6) return declared;
  // A free-form object: a few members of any name (metadata), within its bounds.
  const value =
    extra === true
      ? fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null))
      : arbitraryOf(extra, known, undefined, depth + 1);
  const maxKeys = Math.min((schema.maxProperties as number | undefined) ?? 4, 4);
  const keyMax = ((schema.propertyNames as Schema | undefined)?.maxLength as number | undefined) ?? 24;
  const free = fc.dictionary(
    fc.string({ minLength: 1, maxLength: Math.min(keyMax, 24) }).filter((k) => !(k in properties)),
    value,
    { maxKeys },
  );
  return fc.tuple(declared, free).map(([d, f]) => ({ ...f, ...d }) as Json);
}

/** `count` samples of an arbitrary from a seed: the same seed gives the same samples. */
export function samples<T>(arbitrary: fc.Arbitrary<T>, seed: number, count: number): T[] {
  return fc.sample(arbitrary, { seed, numRuns: count });
}
