/**
 * The rules language's fields as GET /rules/fields gives them (the console's rule builder
 * offers them in its pickers): made from the one list the checks use (fields.ts) and the ops
 * each kind takes (validate.ts), so the builder cannot offer what a document may not say.
 */
import type { RuleField } from '../../api-types';
import { FIELD_VALUES, METADATA_PREFIX, RULE_FIELDS } from './fields';
import { OPS_OF } from './validate';

/** Every field, in the list's order, and the metadata prefix last. */
export function ruleFieldCatalogue(): RuleField[] {
  const field = (name: string, kind: RuleField['kind'], prefix: boolean): RuleField => {
    const values = FIELD_VALUES[name];
    return { name, kind, operators: [...OPS_OF[kind]], ...(values ? { values: [...values] } : {}), prefix };
  };
  return [
    ...Object.entries(RULE_FIELDS).map(([name, kind]) => field(name, kind, false)),
    field(METADATA_PREFIX, 'any', true),
  ];
}
