/**
 * The rules language (src/domain/rules): the checks of a document (every error names the
 * path and the rule), its compilation and its application to an evaluation's fields, and
 * docs/rules.md kept to the fields the code knows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { RulesDocument } from '../../src/api-types';
import {
  applyRules,
  compileRules,
  describeError,
  listsAfterActions,
  MAX_DEPTH,
  MAX_RULES,
  RULE_FIELDS,
  validateRules,
  type RuleSubject,
} from '../../src/domain/rules';

const SPEC = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'generated', 'openapi.json'), 'utf8'));
const EXAMPLE = SPEC.components.examples.AuthenticateResponseReal.value;

/** The spec's example authenticate response, as the rules read it. */
function subject(overrides: Partial<RuleSubject> = {}): RuleSubject {
  const { session, account, decision, account_score, bot, multiple_accounts, risk_signals, accounts_linked, lists } =
    structuredClone(EXAMPLE);
  return {
    decision,
    account_score,
    bot,
    multiple_accounts,
    risk_signals,
    accounts_linked,
    lists,
    session,
    account,
    linked_accounts: [{ account_id: 'other', score: 0.9, match_type: ['device', 'email'] }],
    ...overrides,
  };
}

const errorsOf = (doc: unknown) => {
  const v = validateRules(doc);
  return v.ok ? [] : v.errors.map(describeError);
};

const compiled = (doc: unknown, version = 1) => {
  const v = validateRules(doc);
  if (!v.ok) throw new Error(v.errors.map(describeError).join('\n'));
  return compileRules(v.document, version);
};

describe('validateRules', () => {
  it('when the document is valid, then it passes as given', () => {
    const doc = {
      rules: [
        {
          id: 'tor',
          when: {
            any: [
              { field: 'session.risk_signals.tor', op: 'eq', value: true },
              { not: { field: 'lists', op: 'contains', value: 'allow' } },
            ],
          },
          then: { decision: 'Fake', add_to_lists: ['review'], tags: ['tor'] },
        },
      ],
    };
    expect(validateRules(doc)).toEqual({ ok: true, document: doc });
  });

  it('when a field is unknown, then the error names its path and the rule', () => {
    const doc = {
      rules: [
        { id: 'a', when: { field: 'bot', op: 'gt', value: 0.5 }, then: {} },
        { id: 'b', when: { field: 'bot', op: 'gt', value: 0.5 }, then: {} },
        { id: 'block-tor', when: { all: [{ field: 'session.tor', op: 'eq', value: true }] }, then: {} },
      ],
    };
    expect(errorsOf(doc)).toEqual([
      'rules[2].when.all[0].field (rule "block-tor"): unknown field "session.tor"; docs/rules.md lists the fields rules can name',
    ]);
  });

  it.each([
    [
      { id: 'x', when: { field: 'bot', op: 'contains', value: 1 }, then: {} },
      'rules[0].when.op (rule "x"): contains does not apply to bot (number)',
    ],
    [
      { id: 'x', when: { field: 'bot', op: 'gt', value: '0.5' }, then: {} },
      'rules[0].when.value (rule "x"): must be a number with gt',
    ],
    [
      { id: 'x', when: { field: 'session.risk_signals.vpn', op: 'eq', value: 'yes' }, then: {} },
      'rules[0].when.value (rule "x"): must be a boolean',
    ],
    [
      { id: 'x', when: { field: 'bot', op: 'in', value: [] }, then: {} },
      'rules[0].when.value (rule "x"): must be a list of 1 to 500 values with in',
    ],
    [
      { id: 'x', when: { field: 'bot', op: 'exists', value: 1 }, then: {} },
      'rules[0].when.value (rule "x"): must be absent with exists',
    ],
    [
      { id: 'x', when: { field: 'bot', op: 'like', value: 1 }, then: {} },
      'rules[0].when.op (rule "x"): must be one of',
    ],
    [
      { id: 'x', when: { all: [], any: [] }, then: {} },
      'rules[0].when (rule "x"): holds `all` and must hold nothing else',
    ],
    [
      { id: 'x', when: { field: 'bot', op: 'gt', value: 1 }, then: { decision: 'Maybe' } },
      'rules[0].then.decision (rule "x"): must be Real or Fake',
    ],
    [
      { id: 'x', when: { field: 'bot', op: 'gt', value: 1 }, then: { tags: ['Bad Tag'] } },
      'rules[0].then.tags[0] (rule "x"): must be a tag',
    ],
    [
      { id: 'x', when: { field: 'bot', op: 'gt', value: 1 }, then: { block: true } },
      'rules[0].then.block (rule "x"): is not an action',
    ],
    [
      { id: 'has space', when: { field: 'bot', op: 'gt', value: 1 }, then: {} },
      'rules[0].id (rule "has space"): is required',
    ],
    [{ when: { field: 'bot', op: 'gt', value: 1 }, then: {} }, 'rules[0].id: is required'],
  ])('when a rule is %j, then the error is %s', (rule, message) => {
    const errors = errorsOf({ rules: [rule] });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });

  it('when text holds NUL or an unpaired surrogate, then refused; an emoji is text like any other', () => {
    const rule = (description: string, value: string) => ({
      id: 'r',
      description,
      when: { field: 'session.location.city', op: 'eq', value },
      then: { add_to_lists: [value || 'x'] },
    });
    expect(errorsOf({ rules: [rule('caf\u00e9 \u{1F600}', 'K\u00f8benhavn \u{1F600}')] })).toEqual([]);
    expect(errorsOf({ rules: [rule('a\u0000b', 'ok')] })).toEqual([
      'rules[0].description (rule "r"): must be text of at most 1024 characters, without U+0000 (NUL) or an unpaired surrogate',
    ]);
    expect(errorsOf({ rules: [rule('ok', 'lone \ud800')] })).toEqual([
      'rules[0].when.value (rule "r"): must be at most 256 characters, without U+0000 (NUL) or an unpaired surrogate',
      'rules[0].then.add_to_lists[0] (rule "r"): must be a list name: text of 1 to 64 characters, without U+0000 (NUL) or an unpaired surrogate',
    ]);
  });

  it('when two rules share an id, then the second is refused naming the first', () => {
    const rule = { id: 'same', when: { field: 'bot', op: 'gt', value: 0.5 }, then: {} };
    expect(errorsOf({ rules: [rule, rule] })).toEqual([
      'rules[1].id (rule "same"): must be unique: rules[0] has the same id',
    ]);
  });

  it('when conditions nest too deep, then refused; at the limit, accepted', () => {
    const nest = (depth: number): unknown =>
      depth === 1 ? { field: 'bot', op: 'gt', value: 0.5 } : { not: nest(depth - 1) };
    expect(errorsOf({ rules: [{ id: 'd', when: nest(MAX_DEPTH), then: {} }] })).toEqual([]);
    const errors = errorsOf({ rules: [{ id: 'd', when: nest(MAX_DEPTH + 1), then: {} }] });
    expect(errors).toEqual([
      `rules[0].when${'.not'.repeat(MAX_DEPTH)} (rule "d"): nests deeper than ${MAX_DEPTH} levels`,
    ]);
  });

  it('when there are more rules than the cap, then refused', () => {
    const rules = Array.from({ length: MAX_RULES + 1 }, (_, i) => ({
      id: `r${i}`,
      when: { field: 'bot', op: 'gt', value: 0.5 },
      then: {},
    }));
    expect(errorsOf({ rules })).toEqual([`rules: must hold at most ${MAX_RULES} rules (has ${MAX_RULES + 1})`]);
  });

  it('when the document is not an object of rules, then refused', () => {
    expect(errorsOf([])).toEqual(['document: must be an object']);
    expect(errorsOf({ rule: [] })).toEqual([
      'rule: is not a member of a rules document',
      'rules: must be a list of rules',
    ]);
  });
});

describe('applyRules', () => {
  const doc = (rules: unknown[]): RulesDocument => ({ rules }) as RulesDocument;

  it('when rules match, then the first decision wins, list actions apply in order and tags are gathered once', () => {
    const rules = compiled(
      doc([
        {
          id: 'mobile',
          when: { field: 'session.network.connection_type', op: 'eq', value: 'mobile' },
          then: { tags: ['mobile'], add_to_lists: ['review'] },
        },
        { id: 'never', when: { field: 'bot', op: 'gt', value: 0.99 }, then: { decision: 'Real' } },
        {
          id: 'us',
          when: { field: 'session.location.country_code', op: 'in', value: ['US', 'CA'] },
          then: { decision: 'Fake', tags: ['mobile', 'na'] },
        },
        { id: 'off', enabled: false, when: { field: 'bot', op: 'gte', value: 0 }, then: { decision: 'Real' } },
        {
          id: 'later',
          when: { field: 'linked_accounts.match_type', op: 'contains', value: 'email' },
          then: { decision: 'Real', remove_from_lists: ['review'] },
        },
      ]),
      7,
    );
    expect(applyRules(rules, subject())).toEqual({
      version: 7,
      matched: ['mobile', 'us', 'later'],
      decision: 'Fake',
      decidedBy: 'us',
      listActions: [
        { action: 'add', list: 'review', rule: 'mobile' },
        { action: 'remove', list: 'review', rule: 'later' },
      ],
      tags: ['mobile', 'na'],
    });
  });

  it('when a field is missing (no account), then comparisons are false and not_exists is true', () => {
    const rules = compiled(
      doc([
        { id: 'eq', when: { field: 'account.email.disposable', op: 'eq', value: false }, then: {} },
        { id: 'neq', when: { field: 'account.email.disposable', op: 'neq', value: true }, then: {} },
        { id: 'not_in', when: { field: 'account.country', op: 'not_in', value: ['FR'] }, then: {} },
        { id: 'exists', when: { field: 'account.email.disposable', op: 'exists' }, then: {} },
        { id: 'absent', when: { field: 'account.email.disposable', op: 'not_exists' }, then: {} },
      ]),
    );
    expect(applyRules(rules, subject({ account: undefined })).matched).toEqual(['absent']);
    const withAccount = applyRules(rules, subject());
    expect(withAccount.matched).toEqual(['eq', 'neq', 'not_in', 'exists']);
  });

  it('when each op compares, then it holds exactly as documented', () => {
    const s = subject({ account_score: 0.5 });
    const holds = (when: unknown) => applyRules(compiled(doc([{ id: 'r', when, then: {} }])), s).matched.length === 1;
    expect(holds({ field: 'account_score', op: 'eq', value: 0.5 })).toBe(true);
    expect(holds({ field: 'account_score', op: 'neq', value: 0.5 })).toBe(false);
    expect(holds({ field: 'account_score', op: 'gt', value: 0.5 })).toBe(false);
    expect(holds({ field: 'account_score', op: 'gte', value: 0.5 })).toBe(true);
    expect(holds({ field: 'account_score', op: 'lt', value: 0.6 })).toBe(true);
    expect(holds({ field: 'account_score', op: 'lte', value: 0.4 })).toBe(false);
    expect(holds({ field: 'session.browser.user_agent', op: 'contains', value: 'iPhone' })).toBe(true);
    expect(holds({ field: 'session.browser.user_agent', op: 'contains', value: 'HeadlessChrome' })).toBe(false);
    expect(
      holds({
        all: [{ field: 'bot', op: 'lt', value: 1 }, { not: { field: 'lists', op: 'contains', value: 'block' } }],
      }),
    ).toBe(true);
    expect(
      holds({
        any: [
          { field: 'bot', op: 'gt', value: 1 },
          { field: 'bot', op: 'lt', value: 0 },
        ],
      }),
    ).toBe(false);
  });

  it("when a rule reads the account's metadata, then the member is compared as given", () => {
    const s = subject();
    s.account = { ...s.account!, account: { ...s.account!.account, metadata: { plan: 'free', 'a.b': 3 } } };
    const rules = compiled(
      doc([
        { id: 'free', when: { field: 'account.account.metadata.plan', op: 'eq', value: 'free' }, then: {} },
        { id: 'dotted', when: { field: 'account.account.metadata.a.b', op: 'gt', value: 2 }, then: {} },
        { id: 'none', when: { field: 'account.account.metadata.missing', op: 'exists' }, then: {} },
      ]),
    );
    expect(applyRules(rules, s).matched).toEqual(['free', 'dotted']);
  });

  it('when a document names one field many times, then each evaluation reads it once and each compares as alone', () => {
    // Every comparison of the field shares one read per subject (a document of thousands of
    // `linked_accounts.match_type` comparisons would otherwise walk the linked accounts for each).
    const types = ['device', 'email', 'phone', 'browser', 'name'];
    const rules = compiled(
      doc(
        Array.from({ length: 100 }, (_, i) => ({
          id: `r${i}`,
          when: { field: 'linked_accounts.match_type', op: 'contains', value: types[i % types.length] },
          then: {},
        })),
      ),
    );
    const counted = (links: RuleSubject['linked_accounts']) => {
      const s = subject();
      let reads = 0;
      Object.defineProperty(s, 'linked_accounts', {
        get: () => (reads++, links),
        enumerable: true,
      });
      return { s, reads: () => reads };
    };
    const first = counted([
      { account_id: 'a', score: 0.9, match_type: ['device'] },
      { account_id: 'b', score: 0.8, match_type: ['email', 'browser'] },
    ]);
    const matched = applyRules(rules, first.s).matched;
    expect(first.reads()).toBe(1);
    expect(matched).toEqual(
      Array.from({ length: 100 }, (_, i) => i)
        .filter((i) => i % 5 !== 2 && i % 5 !== 4)
        .map((i) => `r${i}`),
    );
    // Another evaluation reads its own links, once.
    const second = counted([{ account_id: 'c', score: 0.9, match_type: ['phone'] }]);
    expect(applyRules(rules, second.s).matched).toEqual(Array.from({ length: 20 }, (_, i) => `r${i * 5 + 2}`));
    expect(second.reads()).toBe(1);
  });

  it('when rules add a standard list, then it replaces the other two; a removal takes a list off', () => {
    expect(
      listsAfterActions(
        ['allow', 'vip'],
        [
          { action: 'add', list: 'block', rule: 'a' },
          { action: 'remove', list: 'vip', rule: 'b' },
          { action: 'add', list: 'review', rule: 'c' },
        ],
      ),
    ).toEqual(['block', 'review']);
  });
});

describe('the fields', () => {
  type Schema = {
    $ref?: string;
    allOf?: Schema[];
    properties?: Record<string, Schema>;
    items?: Schema;
    type?: string | string[];
  };
  const resolve = (s: Schema): Schema => (s.$ref ? resolve(SPEC.components.schemas[s.$ref.split('/').pop()!]) : s);
  /** The member `name` of an object schema, through $ref and allOf. */
  function member(schema: Schema, name: string): Schema | undefined {
    const s = resolve(schema);
    if (s.properties?.[name]) return resolve(s.properties[name]!);
    for (const part of s.allOf ?? []) {
      const found = member(part, name);
      if (found) return found;
    }
    return undefined;
  }
  const kindOf = (s: Schema): string => {
    const type = [s.type ?? (s.allOf ?? []).map(resolve).find((p) => p.type)?.type].flat()[0];
    if (type === 'array') return kindOf(resolve(s.items!)) === 'string' ? 'strings' : 'array';
    return type === 'integer' ? 'number' : String(type);
  };

  it.each(Object.entries(RULE_FIELDS))(
    'when a rule names %s, then the contract has it, of that kind',
    (field, kind) => {
      let schema: Schema | undefined = SPEC.components.schemas.AuthenticateResponse;
      for (const key of field.split('.')) {
        // Through a list of objects (the linked accounts), to each item's member.
        const s: Schema = resolve(schema!);
        schema = member(s.type === 'array' ? resolve(s.items!) : s, key);
        if (key === 'linked_accounts' && schema) schema = resolve(schema.items!);
        expect({ field, key, found: schema !== undefined }).toEqual({ field, key, found: true });
      }
      expect({ field, kind: kindOf(schema!) }).toEqual({ field, kind });
    },
  );
});

describe('docs/rules.md', () => {
  it("when the worked example's document is checked, then it passes, and its rules match as the page tells", () => {
    const read = (file: string) => fs.readFileSync(path.join(__dirname, '..', '..', file), 'utf8');
    const yamlBlocks = (text: string) => [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!));
    const [example] = yamlBlocks(read('docs/rules.md').split('## A worked example')[1]!);
    expect(errorsOf(example)).toEqual([]);
    const rules = compiled(example);
    // The page's evaluation: a disposable address from a hosting network in Germany, a shared device.
    const s = subject({ account_score: 0.64, bot: 0.15 });
    s.session.risk_signals.datacenter = true;
    s.session.location.country_code = 'DE';
    s.account!.email = { ...s.account!.email!, disposable: true };
    expect(applyRules(rules, s)).toMatchObject({
      matched: ['disposable-email-on-datacenter', 'shared-device-high-risk', 'trusted-region-low-bot'],
      decision: 'Fake',
      decidedBy: 'disposable-email-on-datacenter',
      tags: ['disposable_datacenter', 'shared_device'],
      listActions: [{ action: 'add', list: 'review', rule: 'disposable-email-on-datacenter' }],
    });
  });

  it('when the fields are listed, then every field the code knows is there', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
    const section = doc.split('## Fields')[1]!.split('\n## ')[0]!;
    const listed = new Set([...section.matchAll(/`([a-z0-9_.]+)`/g)].map((m) => m[1]!).filter((f) => /[a-z]/.test(f)));
    const expanded = new Set<string>();
    // A `prefix.{a,b}` line lists several fields.
    for (const m of section.matchAll(/`([a-z0-9_.]+)\.\{([a-z0-9_, ]+)\}`/g))
      for (const name of m[2]!.split(',')) expanded.add(`${m[1]}.${name.trim()}`);
    const documented = new Set([...listed, ...expanded].filter((f) => Object.hasOwn(RULE_FIELDS, f)));
    expect([...Object.keys(RULE_FIELDS)].filter((f) => !documented.has(f))).toEqual([]);
  });
});
