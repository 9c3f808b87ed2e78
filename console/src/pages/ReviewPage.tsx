/**
 * A list as a queue (the Lists page; cases are the review queue proper, CasesPage): the accounts of a list chosen in the page (default `review`, which a rule
 * fills with its list action), a page at a time from GET /list/{list_name} (id order, `after`
 * the last id). An analyst or admin approves an account (POST /list/allow/account/{id}) or
 * rejects it (POST /list/block/account/{id}), each after a confirmation; either then takes it
 * off the queue (DELETE /list/{queue}/account/{id}), since a custom list is not cleared by the
 * standard lists (only `allow`, `block` and `main_account` exclude one another). A viewer sees
 * the queue without buttons.
 */
import { Alert, Anchor, Button, Group, Loader, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { api, errorMessage, mayAct, STANDARD_LISTS, type ListPage, type Operator } from '../api';
import { ConfirmDialog, Notice } from '../components/ConfirmDialog';
import { GREEN, RED } from '../components/format';
import { Link, navigate, useLocation, withQuery } from '../router';

const PAGE = 50;
type Verdict = 'approve' | 'reject';
const TARGET: Record<Verdict, 'allow' | 'block'> = { approve: 'allow', reject: 'block' };

export function ReviewPage({ operator }: { operator: Operator }) {
  const { query } = useLocation();
  const queue = query.get('list') || 'review';
  const after = query.get('after') || undefined;
  const [page, setPage] = useState<ListPage>();
  const [lists, setLists] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [pending, setPending] = useState<{ verdict: Verdict; accountId: string }>();
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string>();
  const canAct = mayAct(operator);

  const load = useCallback(async () => {
    const [list, all] = await Promise.all([
      api.GET('/list/{list_name}', { params: { path: { list_name: queue }, query: { limit: PAGE, after } } }),
      api.GET('/list'),
    ]);
    setLists((all.data?.lists ?? []).map((l) => l.name));
    if (!list.data) {
      setPage(undefined);
      setError(errorMessage(list.error, list.response));
      return;
    }
    setError(undefined);
    setPage(list.data);
  }, [queue, after]);

  useEffect(() => {
    setPage(undefined);
    setError(undefined);
    load().catch(() => setError('The server could not be reached'));
  }, [load]);

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    setActionError(undefined);
    const target = TARGET[pending.verdict];
    try {
      const added = await api.POST('/list/{list_name}/account/{account_id}', {
        params: { path: { list_name: target, account_id: pending.accountId } },
      });
      if (added.error !== undefined || !added.response.ok) {
        setActionError(errorMessage(added.error, added.response));
        return;
      }
      // A standard queue was left by joining the other standard list; a custom one is left explicitly.
      if (!STANDARD_LISTS.includes(queue)) {
        const removed = await api.DELETE('/list/{list_name}/account/{account_id}', {
          params: { path: { list_name: queue, account_id: pending.accountId } },
        });
        if (removed.error !== undefined || !removed.response.ok) {
          setActionError(
            `Added to ${target}, but not taken off ${queue}: ${errorMessage(removed.error, removed.response)}`,
          );
          return;
        }
      }
      const done = pending;
      setPending(undefined);
      await load();
      setNotice(`Account ${done.accountId} ${done.verdict === 'approve' ? 'approved (allow)' : 'rejected (block)'}.`);
    } catch {
      setActionError('The server could not be reached');
    } finally {
      setBusy(false);
    }
  };

  const choose = (list: string | null) => list && navigate(withQuery('/review', { list }));
  const last = page?.accounts[page.accounts.length - 1];

  return (
    <Stack>
      <Title order={1}>Lists</Title>
      <Group align="flex-end">
        <Select
          label="Queue (list)"
          data={lists.includes(queue) ? lists : [queue, ...lists]}
          value={queue}
          onChange={choose}
          allowDeselect={false}
          searchable
        />
        {page && (
          <Text data-testid="queue-size">
            {page.num_accounts} accounts on {queue}
          </Text>
        )}
      </Group>
      <Text size="sm">
        Approve adds the account to <b>allow</b> (its next evaluations are Real), reject adds it to <b>block</b> (Fake);
        either takes it off this queue. Each is recorded in the audit log under your name.
      </Text>
      <Notice text={notice} onDismiss={() => setNotice(undefined)} />
      {error && (
        <Alert color="red" role="alert" title={`Cannot show ${queue}`}>
          {error}
          {error === 'List not found' && ' (a rule with a list action creates it, or Add to list on an account page).'}
        </Alert>
      )}
      {!page && !error && <Loader aria-label="Loading" />}
      {page && page.accounts.length === 0 && <Text>No accounts {after ? 'after this one' : 'to review'}.</Text>}
      {page && page.accounts.length > 0 && (
        <Table.ScrollContainer minWidth={300}>
          <Table aria-label="Accounts to review" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Account</Table.Th>
                {canAct && <Table.Th>Decision</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.accounts.map((id) => (
                <Table.Tr key={id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/accounts/${encodeURIComponent(id)}`}>
                      {id}
                    </Anchor>
                  </Table.Td>
                  {canAct && (
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          color={GREEN}
                          aria-label={`Approve ${id}`}
                          onClick={() => setPending({ verdict: 'approve', accountId: id })}
                        >
                          Approve
                        </Button>
                        <Button
                          size="xs"
                          color={RED}
                          aria-label={`Reject ${id}`}
                          onClick={() => setPending({ verdict: 'reject', accountId: id })}
                        >
                          Reject
                        </Button>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group>
        {after && (
          <Button variant="default" onClick={() => navigate(withQuery('/review', { list: queue }))}>
            First page
          </Button>
        )}
        {page && last && page.accounts.length === PAGE && (
          <Button variant="default" onClick={() => navigate(withQuery('/review', { list: queue, after: last }))}>
            Next
          </Button>
        )}
      </Group>

      <ConfirmDialog
        title={
          pending ? `${pending.verdict === 'approve' ? 'Approve' : 'Reject'} account ${pending.accountId}?` : undefined
        }
        onCancel={() => {
          setPending(undefined);
          setActionError(undefined);
        }}
        onConfirm={confirm}
        busy={busy}
        error={actionError}
      >
        <Text>
          {pending?.verdict === 'approve'
            ? 'The account joins allow: its next evaluations are Real.'
            : 'The account joins block: its next evaluations are Fake.'}{' '}
          It leaves {queue}.
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}
