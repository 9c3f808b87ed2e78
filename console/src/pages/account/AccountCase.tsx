/**
 * Cases from an account's page: the active case the account is in (GET /cases?account_id=, one
 * at most) as a link to it, and **Open a case** (POST /cases with a reason, then the case's page)
 * for an analyst or admin: for the account alone here, or for its ring from the graph's actions
 * (the account first, then the ring's others, at most 100 in all).
 */
import { Alert, Anchor, Button, Card, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { api, errorMessage, mayAct, type Operator } from '../../api';
import { useLoaded } from '../../components/use-loaded';
import { Link, navigate } from '../../router';
import { StatusBadge } from '../CasesPage';

/** A case holds at most 100 accounts (the contract's CaseInput). */
export const MAX_CASE_ACCOUNTS = 100;

export function AccountCase({ accountId, operator }: { accountId: string; operator: Operator }) {
  const { loaded } = useLoaded(async () => {
    const res = await api.GET('/cases', { params: { query: { account_id: accountId, status: 'active' } } });
    return res.data?.cases[0] ?? null;
  }, [accountId]);
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
          {mayAct(operator) && <OpenCase accountIds={[accountId]} label="Open a case" />}
        </Group>
      )}
    </Card>
  );
}

/** A button that asks for a reason, then opens a case of `accountIds` (the first 100) and goes to it. */
export function OpenCase({ accountIds, label }: { accountIds: readonly string[]; label: string }) {
  const [opening, setOpening] = useState(false);
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const ids = accountIds.slice(0, MAX_CASE_ACCOUNTS);

  const open = async () => {
    setBusy(true);
    const res = await api.POST('/cases', { body: { account_ids: ids, reason } });
    setBusy(false);
    if (!res.data) return setFailure(errorMessage(res.error, res.response));
    navigate(`/cases/${res.data.case_id}`);
  };

  return (
    <>
      <Button variant="default" onClick={() => setOpening(true)}>
        {label}
      </Button>
      <Modal opened={opening} onClose={() => setOpening(false)} title={label} centered>
        <Stack>
          <Textarea
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={500}
            data-autofocus
          />
          <Text size="sm">
            {ids.length} account{ids.length === 1 ? '' : 's'} go under review
            {accountIds.length > ids.length ? ` (the first ${MAX_CASE_ACCOUNTS} of ${accountIds.length})` : ''}.
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
    </>
  );
}
