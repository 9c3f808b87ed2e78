/**
 * An account: its decision and the four scores of its latest evaluation (GET /account/{id}),
 * the latest evaluation's receipt drawn as each score's terms (GET /evaluation/{request_id},
 * the newest evaluated session's `evaluation_request_id`), the newest session's signal details
 * (GET /session/{id}) and the email intelligence, its lists and current label, its sessions
 * (GET /sessions?account_id=, paged on the server) over time and on a map, its verification
 * results with their images (GET /account/{id}/verifications), and its ring of linked accounts
 * as a graph (GET /account/{id}/ring, account/LinkedGraph.tsx). An analyst or admin can add it to a list,
 * take it off one and label it fraud or legit, each after a confirmation; an admin can erase
 * it (typing its id); a viewer gets no such buttons (and the API would refuse them: 403).
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import {
  api,
  errorMessage,
  mayAct,
  mayErase,
  type AccountResponse,
  type AccountVerification,
  type EvaluationReceipt,
  type LabelValue,
  type ListSummary,
  type Operator,
  type Session,
  type SessionSummary,
} from '../api';
import { GREEN, RED, SCORES, score, time } from '../components/format';
import { Link } from '../router';
import { useActorNames } from '../components/actors';
import { EraseAccount } from './account/EraseAccount';
import { LastDecision } from './account/LastDecision';
import { AccountCase } from './account/AccountCase';
import { LinkedGraph } from './account/LinkedGraph';
import { ReceiptChart } from './account/ReceiptChart';
import { SessionsPlot } from './account/SessionsPlot';
import { EmailCard, SignalDetails } from './account/Signals';
import { Verifications } from './account/Verifications';
import { SessionsTable } from './SearchPage';

/** A change waiting for the operator's confirmation. */
type Pending =
  { action: 'add'; list: string } | { action: 'remove'; list: string } | { action: 'label'; label: LabelValue };

interface Loaded {
  account: AccountResponse;
  sessions: SessionSummary[];
  sessionsNext: string | null;
  lists: ListSummary[];
  verifications: AccountVerification[];
  /** The receipt of the newest evaluated session's latest evaluation. */
  receipt?: EvaluationReceipt | undefined;
  /** The newest session, for its signal details. */
  latest?: Session | undefined;
}

export function AccountPage({ accountId, operator }: { accountId: string; operator: Operator }) {
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [pending, setPending] = useState<Pending>();
  const [note, setNote] = useState('');
  const [listToAdd, setListToAdd] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string>();
  const [erased, setErased] = useState(false);
  const canAct = mayAct(operator);
  const actorName = useActorNames();
  const path = { account_id: accountId };

  const load = useCallback(async () => {
    const accountPath = { params: { path: { account_id: accountId } } };
    const [account, sessions, lists, verifications] = await Promise.all([
      api.GET('/account/{account_id}', accountPath),
      api.GET('/sessions', { params: { query: { account_id: accountId, limit: 20 } } }),
      api.GET('/list'),
      api.GET('/account/{account_id}/verifications', accountPath),
    ]);
    if (!account.data) {
      setError(errorMessage(account.error, account.response));
      return;
    }
    const rows = sessions.data?.sessions ?? [];
    // The evaluation that gave the account its decision; for accounts last evaluated by an
    // earlier release, the newest evaluated session's (which the receipt then names).
    const evaluated =
      account.data.last_evaluation?.request_id ??
      rows.find((r) => r.evaluation_request_id !== undefined)?.evaluation_request_id;
    const last = account.data.last_session;
    const [receipt, latest] = await Promise.all([
      evaluated ? api.GET('/evaluation/{request_id}', { params: { path: { request_id: evaluated } } }) : undefined,
      last ? api.GET('/session/{session_id}', { params: { path: { session_id: last } } }) : undefined,
    ]);
    setError(undefined);
    setLoaded({
      account: account.data,
      sessions: rows,
      sessionsNext: sessions.data?.next_cursor ?? null,
      lists: lists.data?.lists ?? [],
      verifications: verifications.data?.verifications ?? [],
      receipt: receipt?.data,
      latest: latest?.data,
    });
  }, [accountId]);

  useEffect(() => {
    setLoaded(undefined);
    setNotice(undefined);
    setErased(false);
    load().catch(() => setError('The server could not be reached'));
  }, [load]);

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    setActionError(undefined);
    try {
      const answer =
        pending.action === 'label'
          ? await api.POST('/account/{account_id}/label', {
              params: { path },
              body: { label: pending.label, ...(note.trim() ? { note: note.trim() } : {}) },
            })
          : pending.action === 'add'
            ? await api.POST('/list/{list_name}/account/{account_id}', {
                params: { path: { ...path, list_name: pending.list } },
              })
            : await api.DELETE('/list/{list_name}/account/{account_id}', {
                params: { path: { ...path, list_name: pending.list } },
              });
      if (answer.error !== undefined || !answer.response.ok) {
        setActionError(errorMessage(answer.error, answer.response));
        return;
      }
      setPending(undefined);
      setNote('');
      setListToAdd(null);
      const done = pending;
      await load();
      setNotice(
        done.action === 'label'
          ? `Labelled ${done.label}.`
          : done.action === 'add'
            ? `Added to ${done.list}.`
            : `Removed from ${done.list}.`,
      );
    } catch {
      setActionError('The server could not be reached');
    } finally {
      setBusy(false);
    }
  };

  if (error)
    return (
      <Stack>
        <Title order={1}>Account {accountId}</Title>
        <Alert color="red" role="alert" title="Cannot show this account">
          {error}
        </Alert>
      </Stack>
    );
  if (erased)
    return (
      <Stack>
        <Title order={1}>Account {accountId}</Title>
        <Alert color="green" role="status" title="Erased">
          The account was erased: its personal data, labels, list memberships, links and verification images are gone;
          its sessions stay, without it.
        </Alert>
        <Anchor component={Link} to="/search">
          Back to search
        </Anchor>
      </Stack>
    );
  if (!loaded) return <Loader aria-label="Loading" />;
  const { account } = loaded;
  const addable = loaded.lists.map((l) => l.name).filter((n) => !account.lists.includes(n));

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>Account {account.account.id}</Title>
          <Text>
            {[account.account.email, account.account.phone].filter(Boolean).join(' · ') || 'no email or phone'}
          </Text>
        </div>
        <LastDecision account={account} />
      </Group>
      {notice && (
        <Alert
          color="green"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setNotice(undefined)}
        >
          {notice}
        </Alert>
      )}

      <AccountCase accountId={accountId} operator={operator} />

      <SimpleGrid cols={{ base: 2, sm: 4 }} aria-label="Scores">
        {SCORES.map(([key, label]) => (
          <Card withBorder key={key} padding="sm">
            <Text size="sm">{label}</Text>
            <Text fw={700} size="xl" data-testid={`score-${key}`}>
              {score(account[key])}
            </Text>
          </Card>
        ))}
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">
            Lists
          </Title>
          {account.lists.length === 0 && <Text>On no list.</Text>}
          <Stack gap="xs">
            {account.lists.map((name) => (
              <Group key={name} justify="space-between">
                <Badge variant="outline" color="dark">
                  {name}
                </Badge>
                {canAct && (
                  <Button size="xs" variant="default" onClick={() => setPending({ action: 'remove', list: name })}>
                    Remove from {name}
                  </Button>
                )}
              </Group>
            ))}
          </Stack>
          {canAct && (
            <Group mt="sm" align="flex-end">
              <Select
                label="Add to list"
                placeholder="Choose a list"
                data={addable}
                value={listToAdd}
                onChange={setListToAdd}
                searchable
              />
              <Button disabled={!listToAdd} onClick={() => listToAdd && setPending({ action: 'add', list: listToAdd })}>
                Add
              </Button>
            </Group>
          )}
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="xs">
            Label
          </Title>
          <Text data-testid="current-label">
            {account.label
              ? `${account.label.label}${account.label.note ? ` (${account.label.note})` : ''}, by ${actorName(account.label.actor)} on ${time(account.label.created_at)}`
              : 'Not labelled.'}
          </Text>
          {canAct && (
            <Group mt="sm">
              <Button color={RED} onClick={() => setPending({ action: 'label', label: 'fraud' })}>
                Label fraud
              </Button>
              <Button color={GREEN} onClick={() => setPending({ action: 'label', label: 'legit' })}>
                Label legit
              </Button>
            </Group>
          )}
        </Card>
      </SimpleGrid>

      {loaded.receipt ? (
        <ReceiptChart receipt={loaded.receipt} />
      ) : (
        <Text>No evaluation receipt: the account’s sessions were not evaluated, or their receipts were forgotten.</Text>
      )}

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <SignalDetails averages={account.risk_signal_average} latest={loaded.latest} />
        <EmailCard email={account.email} />
      </SimpleGrid>

      <Title order={2} size="h3">
        Sessions
      </Title>
      <SessionsPlot sessions={loaded.sessions} />
      {loaded.sessions.length === 0 ? <Text>No sessions.</Text> : <SessionsTable rows={loaded.sessions} />}
      {loaded.sessionsNext && (
        <Anchor component={Link} to={`/search?tab=sessions&account_id=${encodeURIComponent(account.account.id)}`}>
          All sessions of this account
        </Anchor>
      )}

      <Verifications verifications={loaded.verifications} />

      <LinkedGraph
        accountId={account.account.id}
        total={account.accounts_linked}
        canAct={canAct}
        onChanged={async (text) => {
          await load();
          setNotice(text);
        }}
      />

      {mayErase(operator) && <EraseAccount accountId={account.account.id} onErased={() => setErased(true)} />}

      <Modal
        opened={pending !== undefined}
        onClose={() => {
          setPending(undefined);
          setActionError(undefined);
        }}
        title={pending ? describe(pending, account.account.id) : ''}
        centered
      >
        <Stack>
          <Text>
            {pending?.action === 'label'
              ? 'The label is recorded in the audit log under your name.'
              : 'The list decides the account’s next evaluations (block: Fake, allow: Real); the change is recorded in the audit log under your name.'}
          </Text>
          {pending?.action === 'label' && (
            <Textarea
              label="Note (optional)"
              maxLength={1000}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
            />
          )}
          {actionError && (
            <Alert color="red" role="alert">
              {actionError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPending(undefined)}>
              Cancel
            </Button>
            <Button onClick={confirm} loading={busy} data-autofocus>
              Confirm
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function describe(p: Pending, id: string): string {
  if (p.action === 'label') return `Label account ${id} ${p.label}?`;
  if (p.action === 'add') return `Add account ${id} to ${p.list}?`;
  return `Remove account ${id} from ${p.list}?`;
}
