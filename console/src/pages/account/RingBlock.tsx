/**
 * **Block the ring**: asks the server what blocking would do (POST /account/{id}/ring/block with
 * `dry_run`, nothing written), shows the count in the confirmation, then blocks exactly the
 * accounts it counted (`account_ids`: the server refuses any that left the ring meanwhile).
 */
import { Button, List, Text } from '@mantine/core';
import { useState } from 'react';
import { api, errorMessage, type RingBlocked, type RingBlockRequest } from '../../api';
import { RED } from '../../components/format';
import { ConfirmDialog } from '../../components/ConfirmDialog';

const accounts = (n: number) => `${n} account${n === 1 ? '' : 's'}`;

export function RingBlock({
  accountId,
  hops,
  onBlocked,
}: {
  accountId: string;
  hops: 1 | 2;
  onBlocked: (notice: string) => Promise<void>;
}) {
  const [counted, setCounted] = useState<RingBlocked>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const path = { params: { path: { account_id: accountId } } };

  /** One call of the operation (a count or the block), `done` with its answer; a refusal shows. */
  const send = async (body: RingBlockRequest, done: (answer: RingBlocked) => void | Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      const { data, error: e, response } = await api.POST('/account/{account_id}/ring/block', { ...path, body });
      if (data) await done(data);
      else setError(errorMessage(e, response));
    } catch {
      setError('The server could not be reached');
    } finally {
      setBusy(false);
    }
  };
  const count = () => send({ hops, dry_run: true }, setCounted);
  const confirm = () =>
    counted &&
    send({ hops, account_ids: counted.account_ids, dry_run: false }, async (data) => {
      setCounted(undefined);
      await onBlocked(`Blocked the ring: ${accounts(data.added)} joined block, ${data.already_blocked} already on it.`);
    });

  return (
    <>
      <Button color={RED} onClick={count} loading={busy && !counted}>
        Block the ring
      </Button>
      {error && !counted && (
        <Text c={RED} role="alert" size="sm">
          {error}
        </Text>
      )}
      <ConfirmDialog
        title={counted ? `Block ${accounts(counted.account_ids.length)} of the ring of ${accountId}?` : undefined}
        onCancel={() => {
          setCounted(undefined);
          setError(undefined);
        }}
        onConfirm={confirm}
        busy={busy}
        error={error}
      >
        {counted && (
          <>
            <Text data-testid="ring-block-count">
              {accounts(counted.added)} will join block; {counted.already_blocked}{' '}
              {counted.already_blocked === 1 ? 'is' : 'are'} on it already. Block decides their next evaluations (Fake);
              an account on allow or main_account leaves it. The block is recorded in the audit log under your name.
            </Text>
            <List size="sm" aria-label="Accounts to block">
              {counted.account_ids.map((id) => (
                <List.Item key={id}>{id}</List.Item>
              ))}
            </List>
          </>
        )}
      </ConfirmDialog>
    </>
  );
}
