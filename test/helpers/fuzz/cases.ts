/**
 * Bad inputs of every kind for one operation, each a change of one valid request (the
 * baseline), so that the change is what the answer is about: wrong types, limits, U+0000,
 * lone surrogates and control characters in every declared string, huge, wide and deep bodies,
 * wrong content types and malformed bodies, unknown and missing members and parameters, path
 * tricks, wrong and missing keys, and requests that are not well-formed HTTP.
 */
import type { Json } from '../spec';
import type { Method, Operation, Schema } from './schema';

export interface HttpRequest {
  method: Method;
  /** Path and query, as sent (already percent-encoded where the case wants it). */
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface Case {
  kind: string;
  title: string;
  request?: HttpRequest;
  /** Bytes sent as they are on a fresh connection (requests Node's client refuses to make). */
  raw?: string;
  /** The body sent, when it is JSON text: the suite asks Ajv whether the spec allows it. */
  json?: string;
  /** A declared string holding text the spec's Text refuses: a 400 naming this field is required. */
  textRuleField?: string;
}

type Path = (string | number)[];

/** A body's member, as the validator names it in a message: `account.first_name`, `languages.1`. */
export const fieldOf = (path: Path): string => (path.length ? path.join('.') : 'body');

const clone = <T>(v: T): T => structuredClone(v);

function setAt(root: Json, path: Path, value: Json | undefined): Json {
  if (!path.length) return value as Json;
  const out = clone(root);
  let node = out as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = path[path.length - 1]!; // not empty: returned above
  if (value === undefined) delete node[last];
  // Defined, not assigned: a member named `__proto__` stays a member.
  else Object.defineProperty(node, last, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

const typeOfJson = (v: Json): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'number'
        : typeof v;

/** The branch of a oneOf/anyOf that a value takes, merged with the schema's own keywords. */
function effective(schema: Schema, value: Json): Schema {
  const branches = schema.oneOf ?? schema.anyOf;
  if (!branches) return schema;
  const { oneOf: _o, anyOf: _a, ...base } = schema;
  const type = typeOfJson(value);
  const branch =
    branches.find((b) =>
      [b.type ?? base.type ?? []].flat().some((t) => t === type || (t === 'number' && type === 'integer')),
    ) ?? branches[0]!; // oneOf and anyOf are never empty
  return { ...base, ...branch, type: branch.type ?? base.type };
}

interface Position {
  path: Path;
  schema: Schema;
  value: Json;
  /** Reached through declared members (`properties`, `items`), not through a free-form object's own keys. */
  declared: boolean;
}

/** Every member of a valid value, with its schema. */
function positions(schema: Schema, value: Json, path: Path = [], declared = true): Position[] {
  const s = effective(schema, value);
  const out: Position[] = [{ path, schema: s, value, declared }];
  if (Array.isArray(value) && s.items) {
    value.slice(0, 2).forEach((v, i) => out.push(...positions(s.items!, v, [...path, i], declared)));
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const sub = s.properties?.[key];
      if (sub) out.push(...positions(sub, v, [...path, key], declared));
      else if (s.additionalProperties && typeof s.additionalProperties === 'object')
        out.push(...positions(s.additionalProperties, v, [...path, key], false));
    }
  }
  return out;
}

export const deepArray = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

/**
 * JSON text no value stringifies to (a body nested 20,000 deep, `1e400`): a mutation puts a
 * token string in its place, and the body's text has the token's JSON replaced by the text.
 */
const rawTexts = new Map<string, string>();
function rawJson(text: string): string {
  const token = `\u0000raw ${rawTexts.size}\u0000`;
  rawTexts.set(JSON.stringify(token), text);
  return token;
}
const withRawTexts = (json: string): string =>
  json.includes('\\u0000raw ') ? json.replace(/"\\u0000raw \d+\\u0000"/g, (t) => rawTexts.get(t) ?? t) : json;
const DEEP = rawJson(deepArray(20_000));
/** Numbers JSON can write and JavaScript reads as ±Infinity (JSON.parse, and the validator's coercion of a query). */
const NON_FINITE = [
  ['1e400', '1e400'],
  ['-1e400', '-1e400'],
  ['400 digits', '9'.repeat(400)],
] as const;
const NON_FINITE_JSON = NON_FINITE.map(([title, text]) => [title, rawJson(text)] as const);
/** The texts above; a case's own are dropped when the next operation's cases are made. */
const FIXED_RAW_TEXTS = rawTexts.size;
/** How many levels a recursion case nests: far past the call stack of a validator that recurses. */
const RECURSION = 5_000;

/** The mutations of one position: [kind, title, new value (undefined: removed), text rule applies]. */
function mutationsAt(p: Position, rng: () => number): [string, string, Json | undefined, boolean][] {
  const out: [string, string, Json | undefined, boolean][] = [];
  const s = p.schema;
  const types = [s.type ?? []].flat();
  const where = fieldOf(p.path);
  const others: [string, Json][] = [
    ['null', null],
    ['boolean', true],
    ['integer', 7],
    ['number', 1.5],
    ['string', 'x'],
    ['array', []],
    ['object', {}],
  ];
  const wrong = others.filter(
    ([t]) => types.length && !types.includes(t) && !(t === 'integer' && types.includes('number')),
  );
  for (const [t, v] of wrong.sort(() => rng() - 0.5).slice(0, 2))
    out.push(['type', `${where}: ${t} instead of ${types.join('|')}`, v, false]);
  out.push(['depth', `${where}: 20,000 nested arrays`, DEEP, false]);

  if (typeof p.value === 'string') {
    const v = p.value;
    const at = Math.floor(rng() * (v.length + 1));
    const insert = (text: string) => v.slice(0, at) + text + v.slice(at);
    out.push(['text', `${where}: U+0000 inserted`, insert('\u0000'), p.declared]);
    out.push(['text', `${where}: a lone high surrogate`, insert('\ud800'), p.declared]);
    out.push(['text', `${where}: a lone low surrogate`, insert('\udfff'), p.declared]);
    out.push(['text', `${where}: control characters`, insert('\u0001\u001b\u007f\u0085'), false]);
    out.push(['text', `${where}: zero-width and right-to-left marks`, insert('\u200b\u202e\ufeff'), false]);
    if (s.maxLength !== undefined)
      out.push(['limit', `${where}: ${s.maxLength + 1} characters`, 'x'.repeat(s.maxLength + 1), false]);
    if (s.minLength) out.push(['limit', `${where}: ${s.minLength - 1} characters`, v.slice(0, s.minLength - 1), false]);
    out.push(['limit', `${where}: 200,000 characters`, 'é'.repeat(200_000), false]);
    if (s.pattern || s.format) out.push(['limit', `${where}: not its pattern or format`, `${v} !`, false]);
    if (s.enum) out.push(['limit', `${where}: not one of its values`, `${v}x`.toUpperCase(), false]);
  }
  if (typeof p.value === 'number') {
    const integer = types.includes('integer');
    if (s.maximum !== undefined)
      out.push(['limit', `${where}: over its maximum`, s.maximum + (integer ? 1 : 0.5), false]);
    if (s.minimum !== undefined)
      out.push(['limit', `${where}: under its minimum`, s.minimum - (integer ? 1 : 0.5), false]);
    if (integer) out.push(['type', `${where}: a fraction`, p.value + 0.5, false]);
    out.push(['limit', `${where}: 1e20`, 1e20, false]);
    out.push(['limit', `${where}: 2^53 + 2`, 2 ** 53 + 2, false]);
    out.push(['limit', `${where}: -1.7e308`, -1.7e308, false]);
    for (const [title, token] of NON_FINITE_JSON) out.push(['non-finite', `${where}: ${title}`, token, false]);
  }
  if (Array.isArray(p.value)) {
    if (s.maxItems !== undefined && p.value.length)
      out.push([
        'limit',
        `${where}: ${s.maxItems + 1} items`,
        Array.from({ length: s.maxItems + 1 }, () => clone((p.value as Json[])[0]!)), // p.value.length above
        false,
      ]);
    if (s.minItems) out.push(['limit', `${where}: no items`, [], false]);
  }
  if (p.value && typeof p.value === 'object' && !Array.isArray(p.value)) {
    const value = p.value as Record<string, Json>;
    // A member that holds an object (a rules condition's `not`), nested in itself thousands of times.
    for (const [name] of Object.entries(s.properties ?? {}).filter(([, sub]) => !isScalar(sub))) {
      const text = `{"${name}":`.repeat(RECURSION) + JSON.stringify(value) + '}'.repeat(RECURSION);
      out.push(['recursion', `${where}: ${name} nested in itself ${RECURSION} times`, rawJson(text), false]);
    }
    if (s.additionalProperties === false || s.unevaluatedProperties === false)
      out.push(['unknown member', `${where}: an unknown member`, { ...value, zz_unknown: 1 }, false]);
    for (const key of s.required ?? [])
      if (key in value)
        out.push([
          'missing member',
          `${where}: without ${key}`,
          Object.fromEntries(Object.entries(value).filter(([k]) => k !== key)),
          false,
        ]);
    out.push([
      'unknown member',
      `${where}: a __proto__ member`,
      JSON.parse(withMembers(value, '"__proto__":{"polluted":true}')) as Json,
      false,
    ]);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') {
      // A free-form object (metadata): any text is allowed inside it; its bounds are not.
      out.push([
        'text',
        `${where}: U+0000 and lone surrogates in a free-form member`,
        { ...value, 'k\u0000\ud800': 'v\u0000\udfff' },
        false,
      ]);
      out.push([
        'size',
        `${where}: 10,000 members`,
        Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])),
        false,
      ]);
      out.push(['size', `${where}: a member of 100 KB`, { ...value, blob: 'x'.repeat(100_000) }, false]);
      out.push(['depth', `${where}: a member nested 20,000 deep`, { ...value, deep: DEEP }, false]);
    }
  }
  return out;
}

/**
 * What a crafted cursor may carry under its encoding, which hides it from the validator: text
 * the service never encodes (U+0000, a lone surrogate), text that is not JSON, and JSON of a
 * cursor's shape with the wrong types or values.
 */
const CURSOR_PAYLOADS: readonly (readonly [string, string])[] = [
  ['a key with U+0000', JSON.stringify({ a: ['x\u0000y'], s: [1, '7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d\u0000'] })],
  ['a key with a lone surrogate', JSON.stringify({ a: ['x\ud800'], s: [1, '\udfff'] })],
  ['raw U+0000 bytes', '\u0000\u0000\u0000'],
  ['invalid JSON', '{"a":["x"'],
  ['JSON null', 'null'],
  ['wrong types', JSON.stringify({ a: [7], s: ['x', 1] })],
  ['a start time of 1e400', '{"s":[1e400,"7b1c3a9e-2f4d-4c1b-9a8e-5d6f7a8b9c0d"]}'],
  ['a key 100,000 characters long', JSON.stringify({ a: ['k'.repeat(100_000)] })],
];
const encodeText = (text: string, encoding: 'base64url' | 'base64'): string =>
  Buffer.from(text, 'utf8').toString(encoding);

/** Whether a schema can only hold a scalar (no object or array to nest another level in). */
function isScalar(schema: Schema): boolean {
  const types = [schema.type ?? []].flat();
  const branches = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  if (branches.length) return branches.every(isScalar);
  return types.length > 0 && !types.includes('object') && !types.includes('array');
}

const encode = (v: Json): string => (typeof v === 'string' ? v : JSON.stringify(v));

export interface Baseline {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The body's media type and value (JSON), or bytes. */
  body?: { type: string; value?: Json; bytes?: Buffer };
}

/** Percent-encoded with nothing reserved left bare (encodeURIComponent leaves `!'()*`), as OpenAPI's allowReserved: false wants. */
export const strictEncode = (v: string): string =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function targetOf(
  op: Operation,
  path: Record<string, string>,
  query: Record<string, string>,
  rawQuery = '',
): string {
  // Every parameter of the path is given.
  const p = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => path[name]!);
  const q = Object.entries(query)
    .map(([k, v]) => `${strictEncode(k)}=${strictEncode(v)}`)
    .join('&');
  const all = [q, rawQuery].filter(Boolean).join('&');
  return all ? `${p}?${all}` : p;
}

const encodePath = (path: Record<string, string>) =>
  Object.fromEntries(Object.entries(path).map(([k, v]) => [k, encodeURIComponent(v)]));

/** JSON text of an object with members written before its own (`members`: `"a":1,"b":2`). */
const withMembers = (value: Json, members: string): string => {
  const own = JSON.stringify(value).slice(1);
  return `{${members}${own === '}' ? '' : ','}${own}`;
};

/** The baseline as an HTTP request (path values percent-encoded). */
export function requestOf(
  op: Operation,
  b: Baseline,
  change: Partial<HttpRequest> & { rawQuery?: string; pathRaw?: Record<string, string> } = {},
): HttpRequest {
  const path = { ...encodePath(b.path), ...change.pathRaw };
  const headers: Record<string, string> = {
    ...b.headers,
    ...(b.body ? { 'content-type': b.body.type } : {}),
    ...change.headers,
  };
  for (const [k, v] of Object.entries(headers)) if (v === '') delete headers[k];
  const body = change.body ?? (b.body ? (b.body.bytes ?? JSON.stringify(b.body.value)) : undefined);
  return { method: op.method, target: change.target ?? targetOf(op, path, b.query, change.rawQuery), headers, body };
}

/**
 * Every bad input for the operation, as changes of the baseline. `rng` is the suite's seeded
 * generator (the choices of where to insert and which wrong types to send).
 */
export function badCases(op: Operation, b: Baseline, rng: () => number): Case[] {
  for (const token of [...rawTexts.keys()].slice(FIXED_RAW_TEXTS)) rawTexts.delete(token);
  const cases: Case[] = [];
  const add = (kind: string, title: string, change: Parameters<typeof requestOf>[2] = {}, extra: Partial<Case> = {}) =>
    cases.push({ kind, title, request: requestOf(op, b, change), ...extra });

  // Keys.
  if (op.secured) {
    add('key', 'no x-api-key', { headers: { 'x-api-key': '' } });
    add('key', 'an unknown x-api-key', { headers: { 'x-api-key': `tg_${Math.floor(rng() * 1e12).toString(36)}` } });
    add('key', 'an x-api-key of 8 KB', { headers: { 'x-api-key': 'k'.repeat(8_192) } });
    add('key', 'the key in Authorization instead', {
      headers: { 'x-api-key': '', authorization: `Bearer ${b.headers['x-api-key']}` },
    });
    add('key', 'an x-api-key of Latin-1 characters', { headers: { 'x-api-key': 'tg_\u00ff\u00e9' } });
  }

  // Query parameters: unknown ones, and every kind of bad value for the declared ones.
  add('parameter', 'an unknown query parameter', { rawQuery: 'zz_unknown=1' });
  add('parameter', 'a query string that is not percent-encoded UTF-8', { rawQuery: 'zz=%E0%A4%A' });
  const encodedPath = encodePath(b.path);
  const requiredOf = (query: Record<string, string>) =>
    Object.fromEntries(Object.entries(query).filter(([k]) => op.parameters.some((q) => q.name === k && q.required)));
  for (const p of op.parameters.filter((p) => p.in === 'query')) {
    const valid = strictEncode(b.query[p.name] ?? '1');
    const { [p.name]: _, ...rest } = b.query;
    const withRaw = (raw: string) => ({ target: targetOf(op, encodedPath, rest, raw) });
    add('parameter', `${p.name}: U+0000`, withRaw(`${p.name}=${valid}%00`), {
      textRuleField: p.schema.type === 'string' ? `query parameter ${p.name}` : undefined,
    });
    add('parameter', `${p.name}: given twice`, withRaw(`${p.name}=${valid}&${p.name}=${valid}`));
    add('parameter', `${p.name}: as an array`, withRaw(`${p.name}[]=1&${p.name}[]=2`));
    add('parameter', `${p.name}: as an object`, withRaw(`${p.name}[a]=1`));
    add('parameter', `${p.name}: empty`, withRaw(`${p.name}=`));
    add('parameter', `${p.name}: 10,000 characters`, withRaw(`${p.name}=${'q'.repeat(10_000)}`));
    add(
      'parameter',
      `${p.name}: not its type`,
      withRaw(`${p.name}=${p.schema.type === 'string' ? '%F0%9F%98%80%20x' : 'abc'}`),
    );
    if (p.required) add('parameter', `${p.name}: missing`, { target: targetOf(op, encodedPath, rest) });
    // Alone (with the required parameters only), so that no other sampled value is refused first.
    const alone = (raw: string) => ({ target: targetOf(op, encodedPath, requiredOf(rest), raw) });
    if (p.schema.type === 'integer' || p.schema.type === 'number')
      for (const [title, text] of NON_FINITE) add('non-finite', `${p.name}: ${title}`, alone(`${p.name}=${text}`));
    if (p.name === 'cursor')
      for (const [title, text] of CURSOR_PAYLOADS)
        for (const encoding of ['base64url', 'base64'] as const)
          add(
            'cursor',
            `${p.name}: ${encoding} of ${title}`,
            alone(`${p.name}=${strictEncode(encodeText(text, encoding))}`),
          );
  }

  // Path parameters: tricks in the path itself.
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    const tricks: [string, string][] = [
      ['U+0000', 'a%00b'],
      ['only U+0000', '%00'],
      ['an encoded lone surrogate (not UTF-8)', 'a%ED%A0%80b'],
      ['a broken percent-encoding', 'a%E0%A4%A'],
      ['%zz', '%zz'],
      ['..', '..'],
      ['encoded ..', '%2e%2e'],
      ['an encoded slash', 'a%2Fb'],
      ['a slash', 'a/b'],
      ['empty', ''],
      ['a space and a plus', 'a%20b+c'],
      ['an emoji', '%F0%9F%98%80'],
      ['control characters', '%01%1B%7F'],
      ['300 characters', 'p'.repeat(300)],
      ['20,000 characters (a head over 16 KB)', 'p'.repeat(20_000)],
      // The baseline has every parameter of the path.
      ['upper case', encodeURIComponent(b.path[p.name]!).toUpperCase()],
      ['a trailing slash', `${encodeURIComponent(b.path[p.name]!)}/`],
      ['a query-looking value', 'a%3Fb%3Dc'],
    ];
    for (const [title, raw] of tricks) {
      add(
        'path',
        `${p.name}: ${title}`,
        { pathRaw: { [p.name]: raw } },
        { textRuleField: raw === 'a%00b' || raw === '%00' ? `path parameter ${p.name}` : undefined },
      );
    }
  }

  // Bodies.
  const json = b.body?.value !== undefined;
  if (b.body && json) {
    const { type, value } = b.body as { type: string; value: Json };
    const bodyCase = (
      kind: string,
      title: string,
      text: string,
      headers: Record<string, string> = {},
      extra: Partial<Case> = {},
    ) => add(kind, title, { body: text, headers }, { json: text, ...extra });
    for (const [title, text] of [
      ['no body', ''],
      ['not JSON', '{"session_id":'],
      ['JSON null', 'null'],
      ['a JSON number', '1'],
      ['a JSON string', '"x"'],
      ['a JSON array', '[]'],
      ['a trailing comma', JSON.stringify(value).replace(/}$/, ',}')],
      ['a byte-order mark', `\ufeff${JSON.stringify(value)}`],
      ['U+0000 outside a string', `${JSON.stringify(value)}\u0000`],
      ['duplicate members', withMembers(value, '"zz_dup":1,"zz_dup":2')],
    ] as [string, string][]) {
      bodyCase('body', title, text);
    }
    const text = JSON.stringify(value);
    for (const [title, contentType] of [
      ['text/plain', 'text/plain'],
      ['form-urlencoded', 'application/x-www-form-urlencoded'],
      ['multipart', 'multipart/form-data; boundary=x'],
      ['XML', 'application/xml'],
      ['a +json type', 'application/merge-patch+json'],
      ['JSON in Latin-1', 'application/json; charset=latin1'],
      ['JSON in UTF-16', 'application/json; charset=utf-16'],
      ['a content type that is not one', 'not a type'],
    ] as [string, string][]) {
      if (contentType !== type) add('content type', title, { body: text, headers: { 'content-type': contentType } });
    }
    add('content type', 'gzip claimed, not gzipped', { body: text, headers: { 'content-encoding': 'gzip' } });
    add('content type', 'an unknown content encoding', { body: text, headers: { 'content-encoding': 'x-unknown' } });
    cases.push({
      kind: 'content type',
      title: 'no content type',
      raw: rawRequest(requestOf(op, b, { headers: { 'content-type': '' } })),
    });
    bodyCase('size', 'a body of 1.5 MB', JSON.stringify({ ...(value as object), zz_blob: 'x'.repeat(1_500_000) }));
    bodyCase(
      'size',
      '10,000 unknown members',
      JSON.stringify({
        ...(value as object),
        ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`zz${i}`, i])),
      }),
    );
    bodyCase('depth', 'a body of 20,000 nested arrays', deepArray(20_000));

    // A body has at least one media type.
    for (const pos of positions((op.body!.media.find((m) => m.type === type) ?? op.body!.media[0]!).schema, value)) {
      for (const [kind, title, next, textRule] of mutationsAt(pos, rng)) {
        const mutated = withRawTexts(JSON.stringify(setAt(value, pos.path, next) ?? null));
        bodyCase(kind, title, mutated, {}, { textRuleField: textRule ? fieldOf(pos.path) : undefined });
      }
    }
  } else if (b.body?.bytes) {
    add('body', 'an empty body', { body: Buffer.alloc(0) });
    add('body', 'bytes that are no image', { body: Buffer.from('not an image at all') });
    add('content type', 'JSON instead', { body: '{}', headers: { 'content-type': 'application/json' } });
    add('content type', 'text/plain', { body: b.body.bytes, headers: { 'content-type': 'text/plain' } });
    add('size', 'a body of 9 MB', { body: Buffer.alloc(9 * 1024 * 1024, 0xff) });
  } else {
    // No body is declared: one sent anyway is not read.
    add('body', 'a 1.5 MB JSON body it does not take', {
      body: JSON.stringify({ blob: 'x'.repeat(1_500_000) }),
      headers: { 'content-type': 'application/json' },
    });
    add('body', 'a body that is not JSON', { body: '{"a":', headers: { 'content-type': 'application/json' } });
  }

  // A method the path does not have.
  cases.push({ kind: 'method', title: 'PATCH', request: { ...requestOf(op, b), method: 'patch' } });

  // Requests that are not well-formed HTTP, or too large for the server to read.
  const target = requestOf(op, b).target;
  const host = 'Host: 127.0.0.1\r\n';
  const key = b.headers['x-api-key'] ? `x-api-key: ${b.headers['x-api-key']}\r\n` : '';
  const upper = op.method.toUpperCase();
  cases.push(
    {
      kind: 'http',
      title: 'U+0000 in the request target',
      raw: `${upper} ${target}\u0000x HTTP/1.1\r\n${host}${key}\r\n`,
    },
    {
      kind: 'http',
      title: 'a header line without a colon',
      raw: `${upper} ${target} HTTP/1.1\r\n${host}${key}no colon\r\n\r\n`,
    },
    {
      kind: 'http',
      title: 'a control character in a header value',
      raw: `${upper} ${target} HTTP/1.1\r\n${host}${key}x-note: a\u0001b\r\n\r\n`,
    },
    {
      kind: 'http',
      title: 'two Content-Lengths',
      raw: `${upper} ${target} HTTP/1.1\r\n${host}${key}Content-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
    },
    {
      kind: 'http',
      title: 'Transfer-Encoding with Content-Length',
      raw: `${upper} ${target} HTTP/1.1\r\n${host}${key}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n`,
    },
    { kind: 'http', title: 'an unknown HTTP version', raw: `${upper} ${target} HTTP/9.9\r\n${host}${key}\r\n` },
    {
      kind: 'http',
      title: 'headers of 20 KB',
      request: requestOf(op, b, { headers: { 'x-filler': 'f'.repeat(20_000) } }),
    },
  );
  return cases;
}

/** An HTTP/1.1 request as bytes. */
export function rawRequest(r: HttpRequest): string {
  const body = r.body === undefined ? '' : r.body.toString();
  const headers = {
    host: '127.0.0.1',
    ...r.headers,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  return `${r.method.toUpperCase()} ${r.target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n${body}`;
}
