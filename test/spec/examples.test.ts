/**
 * Every request body and response of every operation and webhook has an example, and every
 * example is valid against its schema (Ajv, JSON Schema 2020-12).
 */
import { describeErrors, loadSpec, validatorAt, type Json, type Spec } from '../helpers/spec';

type Obj = Record<string, Json>;
interface Located {
  node: Obj;
  pointer: string;
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** Follows $refs, keeping the JSON pointer of where the node really is. */
function follow(spec: Spec, start: Located): Located {
  let { node, pointer } = start;
  while (node && typeof node.$ref === 'string') {
    pointer = (node.$ref as string).replace(/^#/, '');
    node = pointer
      .split('/')
      .slice(1)
      // The spec's references resolve (the spec is linted).
      .reduce<Json>((acc, seg) => (acc as Obj)[unescape(seg)]!, spec as Json) as Obj;
  }
  return { node, pointer };
}

interface Case {
  where: string;
  schemaPointer: string;
  /** Undefined for an example without a value: the schema then refuses it. */
  value: Json | undefined;
}

function collect(spec: Spec): { cases: Case[]; missing: string[] } {
  const cases: Case[] = [];
  const missing: string[] = [];
  const visitMedia = (where: string, content: Located) => {
    for (const [type, mediaJson] of Object.entries(content.node ?? {})) {
      const media = mediaJson as Obj;
      const mediaPointer = `${content.pointer}/${escape(type)}`;
      const examples = Object.entries((media.examples ?? {}) as Obj);
      if (examples.length === 0 && media.example === undefined) missing.push(`${where} ${type}`);
      for (const [name, ref] of examples) {
        const ex = follow(spec, { node: ref as Obj, pointer: `${mediaPointer}/examples/${escape(name)}` });
        cases.push({
          where: `${where} ${type} example ${name}`,
          schemaPointer: `${mediaPointer}/schema`,
          value: ex.node.value,
        });
      }
      if (media.example !== undefined)
        cases.push({
          where: `${where} ${type} example`,
          schemaPointer: `${mediaPointer}/schema`,
          value: media.example,
        });
    }
  };
  for (const section of ['paths', 'webhooks']) {
    for (const [route, itemJson] of Object.entries((spec[section] ?? {}) as Obj)) {
      const item = follow(spec, { node: itemJson as Obj, pointer: `/${section}/${escape(route)}` });
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const op = item.node[method] as Obj | undefined;
        if (!op) continue;
        const opPointer = `${item.pointer}/${method}`;
        const label = `${method.toUpperCase()} ${route}`;
        if (op.requestBody) {
          const body = follow(spec, { node: op.requestBody as Obj, pointer: `${opPointer}/requestBody` });
          visitMedia(`${label} request`, { node: body.node.content as Obj, pointer: `${body.pointer}/content` });
        }
        for (const [status, responseJson] of Object.entries((op.responses ?? {}) as Obj)) {
          const response = follow(spec, { node: responseJson as Obj, pointer: `${opPointer}/responses/${status}` });
          if (response.node.content)
            visitMedia(`${label} ${status}`, {
              node: response.node.content as Obj,
              pointer: `${response.pointer}/content`,
            });
        }
      }
    }
  }
  return { cases, missing };
}

describe('the examples of the spec', () => {
  let spec: Spec;
  let collected: { cases: Case[]; missing: string[] };

  beforeAll(async () => {
    spec = await loadSpec();
    collected = collect(spec);
  });

  it('when the spec is read, then every request body and response with a body has an example', () => {
    expect(collected.missing).toEqual([]);
    // The six operations' bodies and responses and the two webhooks' bodies.
    expect(collected.cases.length).toBeGreaterThanOrEqual(40);
  });

  it('when every example is validated against its schema, then none fails', async () => {
    const failures: string[] = [];
    for (const c of collected.cases) {
      const validate = await validatorAt(c.schemaPointer);
      if (!validate(c.value)) failures.push(`${c.where}:\n${describeErrors(validate.errors)}`);
    }
    expect(failures).toEqual([]);
  });

  it('when an example breaks its schema, then the same check catches it', async () => {
    const sessionCase = collected.cases.find((c) => c.where.startsWith('GET /session/{session_id} 200'));
    expect(sessionCase).toBeDefined();
    const validate = await validatorAt(sessionCase!.schemaPointer);
    const value = structuredClone(sessionCase!.value) as Obj;
    expect(validate(value)).toBe(true);
    (value.device as Obj).category = 'toaster';
    expect(validate(value)).toBe(false);
    (value.device as Obj).category = 'desktop';
    (value.network as Obj).asn = 15169; // asn belongs to the evaluated form only
    expect(validate(value)).toBe(false);
  });
});
