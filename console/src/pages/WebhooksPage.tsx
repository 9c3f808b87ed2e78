/**
 * The webhooks page: the project's deliveries newest first from GET /webhooks/deliveries, 50 a
 * page (the server's keyset cursor), filtered by status, event and the UTC days they were
 * queued (all in the address: shareable, reloadable); and one delivery
 * (GET /webhooks/deliveries/{id}): its event as queued, each attempt's time, HTTP status,
 * latency and the start of the receiver's answer. **Send again** (analysts and admins, after a
 * confirmation) queues the same event with the same id (POST …/replay): the receiver
 * de-duplicates on x-event-id. A viewer sees no button, and the API refuses the call anyway.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import {
  api,
  errorMessage,
  mayAct,
  type Operator,
  type SubscribableEventType,
  type WebhookDeliveries,
  type WebhookDeliveryDetail,
  type WebhookDeliveryStatus,
} from '../api';
import { ConfirmDialog, Notice } from '../components/ConfirmDialog';
import { GREEN, RED, time } from '../components/format';
import { Link, navigate, useLocation, withQuery } from '../router';

const PAGE = 50;
const DAY_MS = 86_400_000;

/** Every event a project can be sent (a Record over the contract's union: a new event fails the build until named here). */
const EVENTS: Record<SubscribableEventType, string> = {
  'verification.face-match.completed': 'Face Match completed',
  'verification.id-check.completed': 'ID Check completed',
  'list.account_added': 'Account added to a list',
  'list.account_removed': 'Account removed from a list',
  'evaluation.rule_matched': 'A rule matched',
};
const eventName = (t: string) => EVENTS[t as SubscribableEventType] ?? t;

const STATUS_COLOUR: Record<WebhookDeliveryStatus, string> = { pending: 'gray.8', delivered: GREEN, failed: RED };

function StatusBadge({ status }: { status: WebhookDeliveryStatus }) {
  return (
    <Badge color={STATUS_COLOUR[status]} variant="filled" autoContrast>
      {status}
    </Badge>
  );
}

/** A `YYYY-MM-DD` day as its first instant (UTC); `after` the day after it (a `to` that includes the day). */
function dayStart(day: string, after = false): string | undefined {
  const t = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isNaN(t) ? undefined : new Date(t + (after ? DAY_MS : 0)).toISOString();
}

export function WebhooksPage() {
  const { query } = useLocation();
  const status = (query.get('status') || undefined) as WebhookDeliveryStatus | undefined;
  const eventType = query.get('event_type') || undefined;
  const from = query.get('from') || '';
  const to = query.get('to') || '';
  const cursor = query.get('cursor') || undefined;
  const [page, setPage] = useState<WebhookDeliveries>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    setPage(undefined);
    setError(undefined);
    const fromAt = from ? dayStart(from) : undefined;
    const toAt = to ? dayStart(to, true) : undefined;
    api
      .GET('/webhooks/deliveries', {
        params: { query: { limit: PAGE, cursor, status, event_type: eventType, from: fromAt, to: toAt } },
      })
      .then(({ data, error: e, response }) => (data ? setPage(data) : setError(errorMessage(e, response))))
      .catch(() => setError('The server could not be reached'));
  }, [status, eventType, from, to, cursor]);

  /** The address with one filter changed (and the first page again). */
  const filtered = (change: Record<string, string | undefined>) =>
    navigate(withQuery('/webhooks', { status, event_type: eventType, from, to, ...change }));

  return (
    <Stack>
      <Title order={1}>Webhooks</Title>
      <Text size="sm">
        The events sent to the project’s webhook URL, newest first: pending (waiting for its next attempt), delivered
        (the receiver answered 2xx) or failed (the retries ran out). Open one for its attempts and the receiver’s
        answers.
      </Text>
      <Group align="flex-end">
        <Select
          label="Status"
          data={['pending', 'delivered', 'failed']}
          clearable
          placeholder="Any"
          value={status ?? null}
          onChange={(v) => filtered({ status: v ?? undefined })}
        />
        <Select
          label="Event"
          data={Object.entries(EVENTS).map(([value, label]) => ({ value, label }))}
          clearable
          placeholder="Any"
          value={eventType ?? null}
          onChange={(v) => filtered({ event_type: v ?? undefined })}
        />
        <TextInput
          label="From (UTC day)"
          type="date"
          value={from}
          onChange={(e) => filtered({ from: e.currentTarget.value || undefined })}
        />
        <TextInput
          label="To (UTC day, included)"
          type="date"
          value={to}
          onChange={(e) => filtered({ to: e.currentTarget.value || undefined })}
        />
      </Group>
      {error && (
        <Alert color="red" role="alert" title="Cannot show the deliveries">
          {error}
        </Alert>
      )}
      {!page && !error && <Loader aria-label="Loading" />}
      {page && page.deliveries.length === 0 && <Text>No webhooks.</Text>}
      {page && page.deliveries.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table aria-label="Webhook deliveries" striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Queued</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>Last error or next attempt</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.deliveries.map((d) => (
                <Table.Tr key={d.request_id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Anchor component={Link} to={`/webhooks/${encodeURIComponent(d.request_id)}`}>
                      {time(d.created_at)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={d.status} />
                  </Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td>{eventName(d.event_type)}</Table.Td>
                  <Table.Td>
                    {d.last_error ?? ''}
                    {d.next_attempt_at && ` (next ${time(d.next_attempt_at)})`}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group>
        {cursor && (
          <Button variant="default" onClick={() => filtered({})}>
            Newest
          </Button>
        )}
        {page?.next_cursor && (
          <Button variant="default" onClick={() => filtered({ cursor: page.next_cursor ?? undefined })}>
            Older
          </Button>
        )}
      </Group>
    </Stack>
  );
}

type Delivery = WebhookDeliveryDetail['delivery'];

export function WebhookDeliveryPage({ requestId, operator }: { requestId: string; operator: Operator }) {
  const [delivery, setDelivery] = useState<Delivery>();
  const [error, setError] = useState<string>();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [replayError, setReplayError] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async () => {
    const {
      data,
      error: e,
      response,
    } = await api.GET('/webhooks/deliveries/{request_id}', {
      params: { path: { request_id: requestId } },
    });
    if (data) setDelivery(data.delivery);
    else setError(errorMessage(e, response));
  }, [requestId]);

  useEffect(() => {
    setDelivery(undefined);
    setError(undefined);
    load().catch(() => setError('The server could not be reached'));
  }, [load]);

  const replay = async () => {
    setBusy(true);
    setReplayError(undefined);
    try {
      const {
        data,
        error: e,
        response,
      } = await api.POST('/webhooks/deliveries/{request_id}/replay', {
        params: { path: { request_id: requestId } },
      });
      if (!data) {
        setReplayError(errorMessage(e, response));
        return;
      }
      setAsking(false);
      await load();
      setNotice('Queued again: it is sent within seconds, with the same event id.');
    } catch {
      setReplayError('The server could not be reached');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Anchor component={Link} to="/webhooks" size="sm">
        ← Webhooks
      </Anchor>
      <Title order={1}>Webhook delivery</Title>
      <Notice text={notice} onDismiss={() => setNotice(undefined)} />
      {error && (
        <Alert color="red" role="alert" title="Cannot show this delivery">
          {error}
        </Alert>
      )}
      {!delivery && !error && <Loader aria-label="Loading" />}
      {delivery && (
        <>
          <Table aria-label="Delivery" variant="vertical" withTableBorder>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={180}>Event</Table.Th>
                <Table.Td>{eventName(delivery.event_type)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Event id (x-event-id)</Table.Th>
                <Table.Td style={{ wordBreak: 'break-all' }}>{delivery.request_id}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Status</Table.Th>
                <Table.Td>
                  <StatusBadge status={delivery.status} />
                  {delivery.next_attempt_at && ` next attempt ${time(delivery.next_attempt_at)}`}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Queued</Table.Th>
                <Table.Td>{time(delivery.created_at)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Delivered</Table.Th>
                <Table.Td>{delivery.delivered_at ? time(delivery.delivered_at) : 'not yet'}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {mayAct(operator) && (
            <Group>
              <Button onClick={() => (setReplayError(undefined), setAsking(true))}>Send again</Button>
            </Group>
          )}
          <Title order={2} size="h3">
            Attempts
          </Title>
          {delivery.attempts_made.length === 0 ? (
            <Text>No attempt yet.</Text>
          ) : (
            <Table aria-label="Attempts" striped verticalSpacing="xs" style={{ overflowWrap: 'anywhere' }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>#</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Outcome and answer (its first 512 bytes)</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {delivery.attempts_made.map((a) => (
                  <Table.Tr key={a.attempt}>
                    <Table.Td>{a.attempt}</Table.Td>
                    <Table.Td>{time(a.at)}</Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {a.status_code === null ? 'No answer' : `HTTP ${a.status_code}`} in {a.latency_ms} ms
                        {a.error && a.error !== `HTTP ${a.status_code}` && `: ${a.error}`}
                      </Text>
                      {a.answer && (
                        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                          {a.answer}
                        </Code>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Title order={2} size="h3">
            Event
          </Title>
          <Code block aria-label="Event body" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {JSON.stringify(delivery.event, null, 2)}
          </Code>
        </>
      )}
      <ConfirmDialog
        title={asking ? 'Send this webhook again?' : undefined}
        onCancel={() => setAsking(false)}
        onConfirm={() => void replay()}
        busy={busy}
        error={replayError}
      >
        <Text size="sm">
          The same event, with the same event id ({requestId}), is sent to the project’s webhook URL within seconds. A
          receiver that already processed it should recognise the id and do nothing.
        </Text>
      </ConfirmDialog>
    </Stack>
  );
}
