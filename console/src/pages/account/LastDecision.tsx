/**
 * What decided the account and when, beside what its lists decide now: the decision is its last
 * evaluation's, which a list added since does not change until the next evaluation, so the page
 * says both rather than one badge that reads as the account's present state.
 */
import { Badge, Stack, Text } from '@mantine/core';
import type { AccountResponse } from '../../api';
import { DecisionBadge, time } from '../../components/format';

export function LastDecision({ account }: { account: AccountResponse }) {
  const forced = account.list_decision;
  return (
    <Stack gap={4} align="flex-end" data-testid="account-decision">
      <Text size="sm">
        <Text span fw={600}>
          Last evaluation
        </Text>{' '}
        <DecisionBadge decision={account.decision} />{' '}
        {account.last_evaluation ? `on ${time(account.last_evaluation.created_at)}` : ''}
      </Text>
      {forced && (
        <Text size="sm" data-testid="list-decision">
          <Badge variant="outline" color="dark">
            {forced.list}
          </Badge>{' '}
          decides{' '}
          {forced.decision === account.decision ? (
            <>it now</>
          ) : (
            <Text span fw={600}>
              its next evaluation: {forced.decision}
            </Text>
          )}
        </Text>
      )}
    </Stack>
  );
}
