/**
 * Erasing the account (DELETE /account/{id}), for admins only: a dialog where the operator types
 * the account id to confirm. The server records the erasure in the audit log as
 * `account.erased` (who and when, never the account).
 */
import { Alert, Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api, errorMessage } from '../../api';
import { RED } from '../../components/format';

export function EraseAccount({ accountId, onErased }: { accountId: string; onErased: () => void }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const close = () => {
    setOpen(false);
    setTyped('');
    setError(undefined);
  };
  const erase = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api.DELETE('/account/{account_id}', { params: { path: { account_id: accountId } } });
      if (answer.error !== undefined || !answer.response.ok) {
        setError(errorMessage(answer.error, answer.response));
        return;
      }
      close();
      onErased();
    } catch {
      setError('The server could not be reached');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder component="section" aria-labelledby="erase-title">
      <Title order={2} size="h4" id="erase-title">
        Erase
      </Title>
      <Text size="sm" mb="xs">
        Erases the account’s personal data, labels, list memberships, links and verification images. Its sessions stay,
        without it. This cannot be undone.
      </Text>
      <Button color={RED} variant="outline" onClick={() => setOpen(true)}>
        Erase account
      </Button>
      <Modal opened={open} onClose={close} title={`Erase account ${accountId}?`} centered>
        <Stack>
          <Text>
            The erasure is recorded in the audit log under your name (without the account). Type the account id to
            confirm.
          </Text>
          <TextInput
            label="Account id"
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            data-autofocus
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color={RED} disabled={typed !== accountId} loading={busy} onClick={erase}>
              Erase
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
