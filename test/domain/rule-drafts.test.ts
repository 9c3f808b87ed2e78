/**
 * The pure parts of rules drafts (src/domain/rules/drafts.ts, catalogue.ts): the diff an approver
 * reads, a draft's status against the current version, the four-eyes rule, and the fields
 * catalogue made from the one list the checks use.
 */
import type { RuleDefinition } from '../../src/api-types';
import {
  diffRules,
  draftStatus,
  fourEyesRefusal,
  ruleFieldCatalogue,
  RULE_FIELDS,
  validateRules,
} from '../../src/domain/rules';

const rule = (id: string, decision: 'Real' | 'Fake' = 'Fake', extra: Partial<RuleDefinition> = {}): RuleDefinition =>
  ({
    id,
    when: { field: 'bot', op: 'gte', value: 0.5 },
    then: { decision },
    ...extra,
  }) as RuleDefinition;

describe('diffRules', () => {
  test('when nothing changed, then no change', () => {
    expect(diffRules([rule('a'), rule('b')], [rule('a'), rule('b')])).toEqual([]);
  });

  test('when rules are added, removed and changed, then each once, removed first, then in the draft’s order', () => {
    const before = [rule('a'), rule('gone'), rule('b')];
    const after = [rule('new'), rule('a', 'Real'), rule('b')];
    expect(diffRules(before, after)).toEqual([
      { rule_id: 'gone', change: 'removed', before: rule('gone'), after: null },
      { rule_id: 'new', change: 'added', before: null, after: rule('new') },
      { rule_id: 'a', change: 'changed', before: rule('a'), after: rule('a', 'Real') },
    ]);
  });

  test('when only the order of kept rules changes, then they are moved; an insertion alone moves nothing', () => {
    expect(
      diffRules([rule('a'), rule('b'), rule('c')], [rule('b'), rule('a'), rule('c')]).map((c) => [c.rule_id, c.change]),
    ).toEqual([
      ['b', 'moved'],
      ['a', 'moved'],
    ]);
    expect(diffRules([rule('a'), rule('b')], [rule('a'), rule('x'), rule('b')]).map((c) => c.change)).toEqual([
      'added',
    ]);
  });

  test('when members differ only in their order or in an explicit `enabled: true`, then the rule is unchanged; disabling changes it', () => {
    const reordered = {
      then: { decision: 'Fake' },
      when: { value: 0.5, op: 'gte', field: 'bot' },
      id: 'a',
    } as RuleDefinition;
    expect(diffRules([rule('a')], [reordered])).toEqual([]);
    expect(diffRules([rule('a')], [rule('a', 'Fake', { enabled: true })])).toEqual([]);
    expect(diffRules([rule('a')], [rule('a', 'Fake', { enabled: false })]).map((c) => c.change)).toEqual(['changed']);
  });
});

describe('draftStatus', () => {
  test.each([
    ['pending', 3, 3, 'pending'],
    ['pending', 3, 4, 'superseded'],
    ['published', 3, 4, 'published'],
    ['rejected', 3, 5, 'rejected'],
  ] as const)('when stored %s over version %i and the rules are at %i, then %s', (stored, base, current, status) => {
    expect(draftStatus(stored, base, current)).toBe(status);
  });
});

describe('fourEyesRefusal', () => {
  test('when the approver is the author, then refused naming the rule; another actor may', () => {
    expect(fourEyesRefusal('operator:a', 'operator:a')).toBe(
      'Four-eyes rule: operator:a proposed this draft and cannot also publish it; another admin must approve it',
    );
    expect(fourEyesRefusal('operator:a', 'operator:b')).toBeUndefined();
    expect(fourEyesRefusal('api_key:0123456789ab', 'operator:a')).toBeUndefined();
  });
});

describe('ruleFieldCatalogue', () => {
  const catalogue = ruleFieldCatalogue();
  test('when read, then every field of the checks once, and the metadata prefix', () => {
    expect(catalogue.map((f) => f.name)).toEqual([...Object.keys(RULE_FIELDS), 'account.account.metadata.']);
  });

  test.each(
    ruleFieldCatalogue()
      .filter((f) => !f.prefix)
      .map((f) => [f.name, f] as const),
  )(
    'when %s is offered with an operator, then the checks take a comparison of it with that operator',
    (_name, field) => {
      for (const op of field.operators) {
        const value =
          op === 'exists' || op === 'not_exists'
            ? undefined
            : field.kind === 'number' || ['gt', 'gte', 'lt', 'lte'].includes(op)
              ? op === 'in' || op === 'not_in'
                ? [1]
                : 1
              : field.kind === 'boolean'
                ? true
                : op === 'in' || op === 'not_in'
                  ? [field.values?.[0] ?? 'x']
                  : (field.values?.[0] ?? 'x');
        const checked = validateRules({ rules: [{ id: 'r', when: { field: field.name, op, value }, then: {} }] });
        expect({ op, ok: checked.ok }).toEqual({ op, ok: true });
      }
    },
  );
});
