/**
 * The rule builder (docs/console.md, "The rules page"): each rule of the draft as a form whose
 * pickers come from the rules language's own catalogue (GET /rules/fields): a field, an operator
 * among those its kind takes, and a value input of the right kind (a list of the field's values
 * where the contract closes them). A rule's condition is a top-level `all` or `any` of
 * comparisons here; a condition that nests groups (or `not`) is shown and kept as it is, to be
 * edited in the JSON tab. Native selects: the browser's own keyboard and screen-reader support.
 */
import { Alert, Button, Code, Fieldset, Group, NativeSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { RuleCondition, RuleDefinition, RuleField, RuleOperator, RuleScalar } from '../../api';

type Comparison = { field: string; op: RuleOperator; value?: RuleCondition['value'] };
type Mode = 'all' | 'any';

const OPERATOR_LABELS: Record<RuleOperator, string> = {
  eq: 'equals',
  neq: 'does not equal',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  in: 'is one of',
  not_in: 'is none of',
  contains: 'contains',
  exists: 'is present',
  not_exists: 'is absent',
};

const isComparison = (c: RuleCondition): c is Comparison => typeof c.field === 'string' && typeof c.op === 'string';

/** The condition as a top-level group of comparisons, or undefined when it nests deeper (JSON tab only). */
export function flatten(when: RuleCondition): { mode: Mode; items: Comparison[] } | undefined {
  if (isComparison(when)) return { mode: 'all', items: [when] };
  for (const mode of ['all', 'any'] as const) {
    const list = when[mode];
    if (list && list.every(isComparison)) return { mode, items: list as Comparison[] };
  }
  return undefined;
}

/** The catalogue's entry for a field (a metadata member: the prefix's). */
function entryOf(fields: RuleField[], name: string): RuleField | undefined {
  return fields.find((f) => (f.prefix ? name.startsWith(f.name) : f.name === name));
}

const takesNoValue = (op: RuleOperator) => op === 'exists' || op === 'not_exists';
const takesList = (op: RuleOperator) => op === 'in' || op === 'not_in';
const comparesNumbers = (op: RuleOperator) => op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte';

/** A value typed as text, as the field's kind reads it; undefined while it is not one yet. */
function parseScalar(text: string, field: RuleField, op: RuleOperator): RuleScalar | undefined {
  const t = text.trim();
  if (field.kind === 'number' || comparesNumbers(op) || (field.kind === 'any' && /^-?\d+(\.\d+)?$/.test(t))) {
    const n = Number(t);
    return t !== '' && Number.isFinite(n) ? n : field.kind === 'any' && !comparesNumbers(op) ? text : undefined;
  }
  if (field.kind === 'boolean') return t === 'true' ? true : t === 'false' ? false : undefined;
  if (field.kind === 'any' && (t === 'true' || t === 'false')) return t === 'true';
  return text;
}

/** The value a comparison starts with when its field or operator is picked. */
function defaultValue(field: RuleField, op: RuleOperator): Comparison['value'] {
  if (takesNoValue(op)) return undefined;
  const one: RuleScalar =
    field.values?.[0] ?? (field.kind === 'boolean' ? true : field.kind === 'number' || comparesNumbers(op) ? 0 : '');
  return takesList(op) ? [one] : one;
}

const textOfValue = (v: Comparison['value']) => (Array.isArray(v) ? v.join(', ') : v === undefined ? '' : String(v));

/**
 * A text input that keeps what is typed (a half-typed number, a trailing comma) and hands the
 * parsed value up whenever the text parses.
 */
function TypedInput<T>({
  label,
  initial,
  parse,
  onValue,
}: {
  label: string;
  initial: string;
  parse: (text: string) => T | undefined;
  onValue: (value: T) => void;
}) {
  const [text, setText] = useState(initial);
  const bad = parse(text) === undefined;
  return (
    <TextInput
      label={label}
      value={text}
      error={bad ? 'Not a value of this field' : undefined}
      onChange={(e) => {
        const t = e.currentTarget.value;
        setText(t);
        const v = parse(t);
        if (v !== undefined) onValue(v);
      }}
    />
  );
}

const listOf = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

function ValueInput({
  c,
  field,
  onValue,
}: {
  c: Comparison;
  field: RuleField;
  onValue: (v: Comparison['value']) => void;
}) {
  if (takesNoValue(c.op)) return null;
  if (takesList(c.op))
    return (
      <TypedInput
        label="Values (separated by commas)"
        initial={textOfValue(c.value)}
        parse={(t) => {
          const items = listOf(t).map((s) => parseScalar(s, field, c.op));
          return items.length > 0 && items.every((v) => v !== undefined) ? (items as RuleScalar[]) : undefined;
        }}
        onValue={onValue}
      />
    );
  const choices = field.kind === 'boolean' ? ['true', 'false'] : comparesNumbers(c.op) ? undefined : field.values;
  if (choices)
    return (
      <NativeSelect
        label="Value"
        data={choices}
        value={String(c.value ?? choices[0])}
        onChange={(e) => onValue(parseScalar(e.currentTarget.value, field, c.op))}
      />
    );
  return (
    <TypedInput
      label="Value"
      initial={textOfValue(c.value)}
      parse={(t) => parseScalar(t, field, c.op)}
      onValue={onValue}
    />
  );
}

function ConditionRow({
  c,
  number,
  fields,
  onChange,
  onRemove,
}: {
  c: Comparison;
  number: number;
  fields: RuleField[];
  onChange: (c: Comparison) => void;
  onRemove?: () => void;
}) {
  const field = entryOf(fields, c.field);
  const pick = (name: string) => {
    const next = entryOf(fields, name)!;
    const op = next.operators.includes(c.op) ? c.op : next.operators[0]!;
    onChange({ field: name, op, ...withValue(defaultValue(next, op)) });
  };
  if (!field)
    return (
      <Alert color="yellow" role="group" aria-label={`Condition ${number}`}>
        Unknown field <Code>{c.field}</Code>: edit it in the JSON tab.
      </Alert>
    );
  const member = field.prefix ? c.field.slice(field.name.length) : undefined;
  return (
    <Group role="group" aria-label={`Condition ${number}`} align="flex-end" gap="xs" wrap="wrap">
      <NativeSelect
        label="Field"
        data={fields.map((f) => ({ value: f.name, label: f.prefix ? `${f.name}<member>` : f.name }))}
        value={field.prefix ? field.name : c.field}
        onChange={(e) => pick(e.currentTarget.value)}
      />
      {member !== undefined && (
        <TextInput
          label="Metadata member"
          value={member}
          onChange={(e) => onChange({ ...c, field: field.name + e.currentTarget.value })}
        />
      )}
      <NativeSelect
        label="Operator"
        data={field.operators.map((op) => ({ value: op, label: `${OPERATOR_LABELS[op]} (${op})` }))}
        value={c.op}
        onChange={(e) => {
          const op = e.currentTarget.value as RuleOperator;
          const kept = takesList(op) === takesList(c.op) && !takesNoValue(c.op) && !comparesNumbers(op);
          onChange({ field: c.field, op, ...withValue(kept ? c.value : defaultValue(field, op)) });
        }}
      />
      <ValueInput key={`${c.field} ${c.op}`} c={c} field={field} onValue={(value) => onChange({ ...c, value })} />
      {onRemove && (
        <Button variant="subtle" color="red" onClick={onRemove} aria-label={`Remove condition ${number}`}>
          Remove
        </Button>
      )}
    </Group>
  );
}

const withValue = (value: Comparison['value']) => (value === undefined ? {} : { value });

function Conditions({
  rule,
  fields,
  onChange,
}: {
  rule: RuleDefinition;
  fields: RuleField[];
  onChange: (when: RuleCondition) => void;
}) {
  const flat = flatten(rule.when);
  if (!flat)
    return (
      <Stack gap="xs">
        <Text size="sm">This condition nests groups or uses `not`: edit it in the JSON tab.</Text>
        <Code block>{JSON.stringify(rule.when, null, 2)}</Code>
      </Stack>
    );
  const write = (mode: Mode, items: Comparison[]) => onChange({ [mode]: items });
  const first = fields.find((f) => f.name === 'account_score') ?? fields[0]!;
  return (
    <Stack gap="xs">
      <NativeSelect
        label="Match"
        data={[
          { value: 'all', label: 'All of these conditions' },
          { value: 'any', label: 'Any of these conditions' },
        ]}
        value={flat.mode}
        onChange={(e) => write(e.currentTarget.value as Mode, flat.items)}
      />
      {flat.items.map((c, i) => (
        <ConditionRow
          key={i}
          c={c}
          number={i + 1}
          fields={fields}
          onChange={(next) =>
            write(
              flat.mode,
              flat.items.map((x, j) => (j === i ? next : x)),
            )
          }
          onRemove={
            flat.items.length > 1
              ? () =>
                  write(
                    flat.mode,
                    flat.items.filter((_, j) => j !== i),
                  )
              : undefined
          }
        />
      ))}
      <Group>
        <Button
          variant="default"
          size="xs"
          disabled={flat.items.length >= 50}
          onClick={() => write(flat.mode, [...flat.items, { field: first.name, op: 'gte', value: 0.8 }])}
        >
          Add a condition
        </Button>
      </Group>
    </Stack>
  );
}

function Actions({ rule, onChange }: { rule: RuleDefinition; onChange: (then: RuleDefinition['then']) => void }) {
  const then = rule.then;
  const set = (key: keyof RuleDefinition['then'], value: unknown) => {
    const next: Record<string, unknown> = { ...then, [key]: value };
    if (value === undefined || (Array.isArray(value) && value.length === 0)) delete next[key];
    onChange(next as RuleDefinition['then']);
  };
  const list = (key: 'add_to_lists' | 'remove_from_lists' | 'tags', label: string) => (
    <TypedInput
      label={`${label} (separated by commas)`}
      initial={(then[key] ?? []).join(', ')}
      parse={listOf}
      onValue={(v) => set(key, v)}
    />
  );
  return (
    <Group align="flex-start" gap="xs" wrap="wrap">
      <NativeSelect
        label="Decision"
        data={[
          { value: '', label: 'No decision' },
          { value: 'Real', label: 'Real' },
          { value: 'Fake', label: 'Fake' },
        ]}
        value={then.decision ?? ''}
        onChange={(e) => set('decision', e.currentTarget.value || undefined)}
      />
      {list('add_to_lists', 'Add to lists')}
      {list('remove_from_lists', 'Remove from lists')}
      {list('tags', 'Tags')}
    </Group>
  );
}

function RuleCard({
  rule,
  number,
  count,
  fields,
  onChange,
  onRemove,
  onMove,
}: {
  rule: RuleDefinition;
  number: number;
  count: number;
  fields: RuleField[];
  onChange: (rule: RuleDefinition) => void;
  onRemove: () => void;
  onMove: (by: -1 | 1) => void;
}) {
  return (
    <Fieldset legend={`Rule ${number}: ${rule.id}`} aria-label={`Rule ${number}`} role="group">
      <Stack gap="sm">
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label="Rule id"
            value={rule.id}
            onChange={(e) => onChange({ ...rule, id: e.currentTarget.value })}
          />
          <TextInput
            label="Description"
            value={rule.description ?? ''}
            onChange={(e) => {
              const { description: _, ...rest } = rule;
              const text = e.currentTarget.value;
              onChange(text ? { ...rest, description: text } : rest);
            }}
          />
          <Switch
            label="Enabled"
            checked={rule.enabled ?? true}
            onChange={(e) => onChange({ ...rule, enabled: e.currentTarget.checked })}
          />
        </Group>
        <Text fw={600} size="sm">
          When
        </Text>
        <Conditions rule={rule} fields={fields} onChange={(when) => onChange({ ...rule, when })} />
        <Text fw={600} size="sm">
          Then
        </Text>
        <Actions rule={rule} onChange={(then) => onChange({ ...rule, then })} />
        <Group gap="xs">
          <Button variant="default" size="xs" disabled={number === 1} onClick={() => onMove(-1)}>
            Move up
          </Button>
          <Button variant="default" size="xs" disabled={number === count} onClick={() => onMove(1)}>
            Move down
          </Button>
          <Button variant="subtle" color="red" size="xs" onClick={onRemove}>
            Remove rule {rule.id}
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}

/** A fresh rule's id: `rule-N`, the first N no rule has. */
function freshId(rules: RuleDefinition[]): string {
  const ids = new Set(rules.map((r) => r.id));
  let n = rules.length + 1;
  while (ids.has(`rule-${n}`)) n++;
  return `rule-${n}`;
}

export function RuleBuilder({
  rules,
  fields,
  onChange,
}: {
  rules: RuleDefinition[];
  fields: RuleField[];
  onChange: (rules: RuleDefinition[]) => void;
}) {
  const replace = (i: number, rule: RuleDefinition) => onChange(rules.map((r, j) => (j === i ? rule : r)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...rules];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    onChange(next);
  };
  return (
    <Stack>
      {rules.length === 0 && <Text size="sm">No rules yet: add one.</Text>}
      {rules.map((rule, i) => (
        <RuleCard
          key={i}
          rule={rule}
          number={i + 1}
          count={rules.length}
          fields={fields}
          onChange={(r) => replace(i, r)}
          onRemove={() => onChange(rules.filter((_, j) => j !== i))}
          onMove={(by) => move(i, by)}
        />
      ))}
      <Group>
        <Button
          variant="default"
          disabled={rules.length >= 200}
          onClick={() =>
            onChange([
              ...rules,
              {
                id: freshId(rules),
                enabled: true,
                when: { all: [{ field: 'account_score', op: 'gte', value: 0.8 }] },
                then: {},
              },
            ])
          }
        >
          Add a rule
        </Button>
      </Group>
    </Stack>
  );
}
