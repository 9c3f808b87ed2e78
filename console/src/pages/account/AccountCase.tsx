/**
 * The account's case: the active case it is in (GET /cases?account_id=, one at most), as a link
 * to it, or for an analyst or admin a way to open one, for the account alone or with the
 * accounts linked to it (the first 99, strongest first), with a reason. Opening goes to the case.
 */
import { Alert, Anchor, Button, Card, Checkbox, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { api, errorMessage, mayAct, type Operator } from '../../api';
import { useLoaded } from '../../components/use-loaded';
import { Link, navigate } from '../../router';
import { StatusBadge } from '../CasesPage';

/** A case holds at most 100 accounts (the contract's CaseInput). */
const MAX_LINKED = 99;

export function AccountCase({
  accountId,
  linkedIds,
  operator,
}: {
  accountId: string;
  linkedIds: readonly string[];
  operator: Operator;
}) {
  const { loaded } = useLoaded(async () => {
    const res = await api.GET('/cases', { params: { query: { account_id: accountId, status: 'active' } } });
    return res.data?.cases[0] ?? null;
  }, [accountId]);
  const [opening, setOpening] = useState(false);
  const [reason, setReason] = useState('');
  const [withLinked, setWithLinked] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const group = withLinked ? [accountId, ...linkedIds.slice(0, MAX_LINKED)] : [accountId];

  const open = async () => {
    setBusy(true);
    const res = await api.POST('/cases', { body: { account_ids: group, reason } });
    setBusy(false);
    if (!res.data) return setFailure(errorMessage(res.error, res.response));
    navigate(`/cases/${res.data.case_id}`);
  };

  if (loaded === undefined) return null;
  return (
    <Card withBorder padding="sm" data-testid="account-case">
      {loaded ? (
        <Group gap="xs">
          <Text>In the case</Text>
          <Anchor component={Link} to={`/cases/${loaded.case_id}`}>
            {loaded.reason}
          </Anchor>
          <StatusBadge c={loaded} />
        </Group>
      ) : (
        <Group justify="space-between">
          <Text>In no active case.</Text>
          {mayAct(operator) && (
            <Button variant="default" onClick={() => setOpening(true)}>
              Open a case
            </Button>
          )}
        </Group>
      )}
      <Modal opened={opening} onClose={() => setOpening(false)} title="Open a case" centered>
        <Stack>
          <Textarea
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={500}
            data-autofocus
          />
          {linkedIds.length > 0 && (
            <Checkbox
              label={`With its ${Math.min(linkedIds.length, MAX_LINKED)} linked accounts`}
              checked={withLinked}
              onChange={(e) => setWithLinked(e.currentTarget.checked)}
            />
          )}
          <Text size="sm">
            {group.length} account{group.length === 1 ? '' : 's'} go under review.
          </Text>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpening(false)}>
              Cancel
            </Button>
            <Button onClick={open} loading={busy} disabled={reason.trim() === ''}>
              Open the case
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
