/** Small shared views of the contract's values: a decision badge, a score, a time. */
import { Badge, Text } from '@mantine/core';
import type { Decision } from '../api';

/** Fake and Real, and the fraud and legit buttons: white text on them is above 4.5:1 (WCAG AA). */
export const RED = '#a51d1d';
export const GREEN = '#1b5e20';

export function DecisionBadge({ decision }: { decision?: Decision | undefined }) {
  if (!decision)
    return (
      <Text span size="sm">
        not evaluated
      </Text>
    );
  return (
    <Badge color={decision === 'Fake' ? RED : GREEN} variant="filled">
      {decision}
    </Badge>
  );
}

export const score = (value?: number | null) => (value === undefined || value === null ? '—' : value.toFixed(3));

export const time = (iso?: string | null) =>
  iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : '—';

/** The four scores of an evaluation, in the order the pages show them, with their names. */
export const SCORES = [
  ['account_score', 'Account score'],
  ['bot', 'Bot'],
  ['multiple_accounts', 'Multiple accounts'],
  ['risk_signals', 'Risk signals'],
] as const;
