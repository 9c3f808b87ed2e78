/**
 * What an analyst or admin does with the accounts selected on a search page: put them all on a
 * list (one POST /list/{list}/account/{id} each, in the page's order, with the progress shown
 * and a summary of those that failed) or open one case for them (POST /cases, the first selected
 * the one the case is about, then go to the case). Each asks first, saying how many accounts it
 * changes.
 */
import { Button, Group, List, Select, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { api, errorMessage, STANDARD_LISTS } from '../../api';
import { ConfirmDialog, Notice } from '../../components/ConfirmDialog';
import { navigate } from '../../router';

/** A case holds at most 100 accounts (the contract's CaseInput). */
export const MAX_CASE_ACCOUNTS = 100;

type Pending = { action: 'list'; list: string } | { action: 'case' };

const accounts = (n: number) => `${n} account${n === 1 ? '' : 's'}`;

export function BulkActions({
  selected,
  lists,
  onChanged,
}: {
  /** The selected accounts' ids, in the page's order. */
  selected: string[];
  /** The project's lists (GET /list). */
  lists: string[];
  /** Called once accounts were changed (the page reads them again). */
  onChanged: () => void;
}) {
  const [list, setList] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string>();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const [failures, setFailures] = useState<string[]>([]);
  const n = selected.length;

  const close = () => {
    setPending(undefined);
    setError(undefined);
    setProgress(undefined);
  };

  const addToList = async (name: string) => {
    const failed: string[] = [];
    for (const [i, id] of selected.entries()) {
      setProgress(`Adding ${i + 1} of ${n}…`);
      const res = await api
        .POST('/list/{list_name}/account/{account_id}', { params: { path: { list_name: name, account_id: id } } })
        .catch(() => undefined);
      if (!res?.response.ok) failed.push(`${id}: ${res ? errorMessage(res.error, res.response) : 'no answer'}`);
    }
    close();
    setFailures(failed);
    setDone(
      failed.length === 0
        ? `Added ${accounts(n)} to ${name}.`
        : `Added ${n - failed.length} of ${accounts(n)} to ${name}; ${failed.length} failed.`,
    );
    onChanged();
  };

  const openCase = async () => {
    if (reason.trim() === '') return setError('Say why the case is opened.');
    const res = await api.POST('/cases', { body: { account_ids: selected, reason: reason.trim() } });
    if (!res.data) return setError(errorMessage(res.error, res.response));
    close();
    navigate(`/cases/${res.data.case_id}`);
  };

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    setError(undefined);
    try {
      if (pending.action === 'list') await addToList(pending.list);
      else await openCase();
    } catch {
      setError('The server could not be reached');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Group align="flex-end" data-testid="bulk-actions">
        <Text size="sm" aria-live="polite">
          {n === 0 ? 'Select accounts to act on them.' : `${accounts(n)} selected.`}
        </Text>
        <Select label="List" placeholder="Choose a list" data={lists} value={list} onChange={setList} searchable />
        <Button disabled={n === 0 || !list} onClick={() => list && setPending({ action: 'list', list })}>
          Add to list
        </Button>
        <Button
          variant="default"
          disabled={n === 0 || n > MAX_CASE_ACCOUNTS}
          onClick={() => {
            setReason('');
            setPending({ action: 'case' });
          }}
        >
          Open a case
        </Button>
      </Group>
      <Notice
        text={done}
        onDismiss={() => {
          setDone(undefined);
          setFailures([]);
        }}
      />
      {failures.length > 0 && (
        <List size="sm" aria-label="Accounts not added">
          {failures.map((f) => (
            <List.Item key={f}>{f}</List.Item>
          ))}
        </List>
      )}
      <ConfirmDialog
        title={
          pending?.action === 'list'
            ? `Add ${accounts(n)} to ${pending.list}?`
            : pending
              ? `Open a case for ${accounts(n)}?`
              : undefined
        }
        onCancel={close}
        onConfirm={() => void confirm()}
        busy={busy}
        error={error}
      >
        {pending?.action === 'list' && (
          <Text>
            This changes {accounts(n)}: each joins {pending.list}
            {STANDARD_LISTS.includes(pending.list) ? ' and leaves the other standard lists' : ''}.
          </Text>
        )}
        {pending?.action === 'case' && (
          <>
            <Text>
              This puts {accounts(n)} under review in one case, about {selected[0]}.
            </Text>
            <Textarea
              label="Reason"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              maxLength={500}
            />
          </>
        )}
        {progress && (
          <Text size="sm" role="status">
            {progress}
          </Text>
        )}
      </ConfirmDialog>
    </>
  );
}
