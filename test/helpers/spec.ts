/**
 * The contract as data, for tests: the bundled spec (webhooks.yaml inlined), its examples,
 * and Ajv (JSON Schema 2020-12) validators for any of its schemas. The webhook issue's tests
 * validate every body sent with `validateWebhookBody`.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
const { bundleSpec } = require('../../scripts/bundle-spec') as { bundleSpec(): Promise<Record<string, unknown>> };

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Spec = Record<string, Json>;

let cached: Promise<{ spec: Spec; ajv: Ajv2020 }> | undefined;

async function load() {
  cached ??= (async () => {
    const spec = (await bundleSpec()) as Spec;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(spec as object, 'spec');
    return { spec, ajv };
  })();
  return cached;
}

export async function loadSpec(): Promise<Spec> {
  return (await load()).spec;
}

/** A validator for the schema at a JSON pointer of the bundled spec, e.g. `/components/schemas/Session`. */
export async function validatorAt(pointer: string): Promise<ValidateFunction> {
  const { ajv } = await load();
  return ajv.getSchema(`spec#${pointer}`) ?? ajv.compile({ $ref: `spec#${pointer}` });
}

export async function schemaValidator(name: string): Promise<ValidateFunction> {
  return validatorAt(`/components/schemas/${name}`);
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`).join('\n');
}

/** Errors of a webhook body against the schema of its event type (empty when it conforms). */
export async function validateWebhookBody(body: unknown): Promise<string[]> {
  const eventType = (body as { event_type?: string })?.event_type;
  const schema = (
    {
      'verification.face-match.completed': 'FaceMatchCompleted',
      'verification.id-check.completed': 'IdCheckCompleted',
      'list.account_added': 'ListAccountAdded',
      'list.account_removed': 'ListAccountRemoved',
      'evaluation.rule_matched': 'EvaluationRuleMatched',
      'webhook.test': 'WebhookTest',
    } as Record<string, string>
  )[eventType ?? ''];
  if (!schema) return [`unknown event_type ${JSON.stringify(eventType)}`];
  const validate = await schemaValidator(schema);
  return validate(body) ? [] : describeErrors(validate.errors).split('\n');
}

/** A named example of components/examples, by name. */
export async function example<T = Json>(name: string): Promise<T> {
  const spec = await loadSpec();
  const { examples } = spec.components as { examples: Record<string, { value: Json }> };
  const found = examples[name];
  if (!found) throw new Error(`no example named ${name}`);
  return structuredClone(found.value) as T;
}

/** The statuses openapi.yaml declares for an operation, by its method and spec path (`/account/{account_id}`). */
export async function declaredStatuses(method: string, specPath: string): Promise<number[]> {
  const spec = await loadSpec();
  const operation = (spec.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)[specPath]?.[
    method.toLowerCase()
  ];
  if (!operation) throw new Error(`no operation ${method} ${specPath} in the spec`);
  return Object.keys(operation.responses).map(Number);
}
