/**
 * The confirmation every change of the console goes through: a focus-trapped modal titled with
 * the question (its accessible name), what the change does, the API's refusal if any, and
 * Cancel / Confirm (focused first). Also the notice a page shows once a change is done.
 */
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

export function ConfirmDialog({
  title,
  onCancel,
  onConfirm,
  busy,
  error,
  children,
}: {
  /** The question; the dialog is open while it is set. */
  title: string | undefined;
  onCancel: () => void;
  onConfirm: () => void;
  busy: boolean;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <Modal opened={title !== undefined} onClose={onCancel} title={title ?? ''} centered>
      <Stack>
        {children}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={onConfirm} loading={busy} data-autofocus>
            Confirm
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A change's outcome, dismissable (`role="status"`: screen readers announce it). */
export function Notice({ text, onDismiss }: { text: string | undefined; onDismiss: () => void }) {
  if (!text) return null;
  return (
    <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={onDismiss}>
      {text}
    </Alert>
  );
}
