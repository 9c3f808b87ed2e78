/**
 * The search page's filters, as the operations' query parameters are named (docs/api-search.md),
 * each with the input its values call for: a choice where the value is one of a set (decision,
 * list, risk signal), a checked two-letter code (country), numbers from 0 to 1 (score range),
 * free text for the rest.
 */
import { NumberInput, Select, TextInput } from '@mantine/core';
import type { RiskSignalName } from '../../api';

type FieldKind = 'text' | 'decision' | 'score' | 'list' | 'country' | 'signal';
export interface Field {
  name: string;
  label: string;
  kind: FieldKind;
  placeholder?: string;
}
export type Kind = 'accounts' | 'sessions';

/** Every risk signal, each once: a Record keyed by the contract's type fails to compile when one is missing. */
const SIGNAL_NAMES: Record<RiskSignalName, true> = {
  device_risk: true,
  proxy: true,
  vpn: true,
  tor: true,
  spoofed_ip: true,
  datacenter: true,
  recent_fraud_ip: true,
  impossible_travel: true,
  device_network_mismatch: true,
  location_spoofing: true,
  ip_reputation: true,
};
const SIGNALS = Object.keys(SIGNAL_NAMES);

const DECISION: Field = { name: 'decision', label: 'Decision', kind: 'decision' };
const MIN_SCORE: Field = { name: 'min_score', label: 'Minimum score', kind: 'score' };
const MAX_SCORE: Field = { name: 'max_score', label: 'Maximum score', kind: 'score' };
const EMAIL_DOMAIN: Field = { name: 'email_domain', label: 'Email domain', kind: 'text', placeholder: 'example.com' };
const MORE: Field[] = [
  { name: 'list', label: 'List', kind: 'list' },
  { name: 'country', label: 'Country', kind: 'country', placeholder: 'GB' },
  { name: 'device_id', label: 'Device id', kind: 'text' },
  { name: 'ip_address', label: 'IP address', kind: 'text' },
  { name: 'network', label: 'Network', kind: 'text', placeholder: '81.2.69.0/24' },
  { name: 'from', label: 'From', kind: 'text', placeholder: '2026-11-01T00:00:00Z' },
  { name: 'to', label: 'To', kind: 'text', placeholder: '2026-12-01T00:00:00Z' },
];
/** The filters of each operation: the first SHOWN always shown, the others behind "More filters" (a phone's screen is short). */
export const FIELDS: Record<Kind, Field[]> = {
  accounts: [
    DECISION,
    MIN_SCORE,
    MAX_SCORE,
    EMAIL_DOMAIN,
    ...MORE,
    { name: 'email', label: 'Email', kind: 'text', placeholder: 'ada@example.com' },
    { name: 'fingerprint', label: 'Fingerprint', kind: 'text' },
  ],
  sessions: [
    { name: 'account_id', label: 'Account id', kind: 'text' },
    DECISION,
    MIN_SCORE,
    MAX_SCORE,
    EMAIL_DOMAIN,
    ...MORE,
    { name: 'signal', label: 'Risk signal', kind: 'signal' },
  ],
};
export const SHOWN = 4;

/** What is wrong with the filters before they are sent (the API would refuse them), by field name. */
export function invalid(draft: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (draft.country && !/^[A-Z]{2}$/.test(draft.country)) out.country = 'Two letters, as GB or US';
  const min = draft.min_score ? Number(draft.min_score) : undefined;
  const max = draft.max_score ? Number(draft.max_score) : undefined;
  if (min !== undefined && max !== undefined && min > max) out.max_score = 'At least the minimum';
  return out;
}

export function FilterInput({
  field,
  value,
  lists,
  error,
  onChange,
}: {
  field: Field;
  value: string;
  /** The project's lists (GET /list), for the list filter. */
  lists: string[];
  error: string | undefined;
  onChange: (v: string) => void;
}) {
  const choice = (data: string[]) => (
    <Select
      label={field.label}
      data={data}
      clearable
      searchable={data.length > 8}
      placeholder="Any"
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
    />
  );
  if (field.kind === 'decision') return choice(['Real', 'Fake']);
  // A list named in the address that the project no longer has still shows (the API's 400 says so).
  if (field.kind === 'list') return choice(value && !lists.includes(value) ? [...lists, value] : lists);
  if (field.kind === 'signal') return choice(SIGNALS);
  if (field.kind === 'score')
    return (
      <NumberInput
        label={field.label}
        min={0}
        max={1}
        clampBehavior="strict"
        step={0.05}
        decimalScale={3}
        value={value}
        error={error}
        onChange={(v) => onChange(v === '' ? '' : String(v))}
      />
    );
  return (
    <TextInput
      label={field.label}
      placeholder={field.placeholder}
      value={value}
      error={error}
      maxLength={field.kind === 'country' ? 2 : undefined}
      onChange={(e) => {
        const v = e.currentTarget.value.trim();
        onChange(field.kind === 'country' ? v.toUpperCase() : v);
      }}
    />
  );
}
