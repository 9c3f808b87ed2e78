/**
 * One case (GET /cases/{id}): why it opened and what the scores were then, its accounts as they
 * are now (each one's page is a click away), its notes, and the work on it for an analyst or
 * admin: take it or give it to someone, start the review, add a note, close it as fraud or legit
 * (labelling every account, and putting them on block or allow when chosen, after a
 * confirmation that says how many), or reopen it. Every change sends the version it was read
 * at, so two analysts cannot change one case unseen.
 */
import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { api, errorMessage, mayAct, type AccountResponse, type Case, type Operator } from '../api';
import { useActorNames } from '../components/actors';
import { ConfirmDialog, Notice } from '../components/ConfirmDialog';
import { DecisionBadge, score, time } from '../components/format';
import { useLoaded } from '../components/use-loaded';
import { Link } from '../router';
import { age, StatusBadge } from './CasesPage';

/** The accounts shown with their state now; a larger group lists the rest by id. */
const SHOWN_ACCOUNTS = 20;

async function load(caseId: string) {
  const [found, operators] = await Promise.all([
    api.GET('/cases/{case_id}', { params: { path: { case_id: caseId } } }),
    api.GET('/operators'),
  ]);
  if (!found.data) throw new Error(errorMessage(found.error, found.response));
  const accounts = await Promise.all(
    found.data.account_ids
      .slice(0, SHOWN_ACCOUNTS)
      .map((account_id) => api.GET('/account/{account_id}', { params: { path: { account_id } } })),
  );
  return {
    case: found.data,
    accounts: accounts.flatMap((a) => (a.data ? [a.data] : [])),
    assignable: (operators.data?.operators ?? []).filter((o) => !o.disabled && o.role !== 'viewer'),
  };
}

export function CasePage({ caseId, operator }: { caseId: string; operator: Operator }) {
  const [reloads, setReloads] = useState(0);
  const { loaded, error } = useLoaded(() => load(caseId), [caseId, reloads]);
  const [notice, setNotice] = useState<string>();
  const reload = (message: string) => {
    setNotice(message);
    setReloads((n) => n + 1);
  };
  const c = loaded?.case;
  return (
    <Stack>
      <Title order={1} style={{ wordBreak: 'break-all' }}>
        Case {caseId.slice(0, 8)}
      </Title>
      <Notice text={notice} onDismiss={() => setNotice(undefined)} />
      {error && (
        <Alert color="red" role="alert" title="Cannot show the case">
          {error}
        </Alert>
      )}
      {!loaded && !error && <Loader aria-label="Loading" />}
      {c && loaded && (
        <>
          <Summary c={c} />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Accounts c={c} accounts={loaded.accounts} />
            <Notes c={c} operator={operator} onAdded={() => reload('Note added.')} />
          </SimpleGrid>
          {mayAct(operator) && <Work c={c} operator={operator} assignable={loaded.assignable} onChanged={reload} />}
        </>
      )}
    </Stack>
  );
}

function Summary({ c }: { c: Case }) {
  const actorName = useActorNames();
  const s = c.snapshot;
  return (
    <Card withBorder data-testid="case-summary">
      <Group gap="xs" mb="xs">
        <StatusBadge c={c} />
        <Text fw={600}>{c.reason}</Text>
      </Group>
      <Text size="sm">
        Opened {time(c.created_at)} ({age(c.created_at)} ago) by{' '}
        {c.rule_id ? (
          <>
            the rule{' '}
            <Anchor component={Link} to="/rules">
              {c.rule_id}
            </Anchor>
          </>
        ) : (
          actorName(c.opened_by)
        )}
        . Assignee: {c.assignee ? actorName(`operator:${c.assignee}`) : 'nobody'}.
        {c.closed_at && ` Closed ${time(c.closed_at)} by ${actorName(c.closed_by ?? '')}.`}
        {c.list && ` Its accounts were put on ${c.list}.`}
      </Text>
      {s ? (
        <Group gap="xs" mt="xs" data-testid="case-snapshot">
          <Text size="sm">When it opened:</Text>
          <DecisionBadge decision={s.decision} />
          <Text size="sm">
            score {score(s.account_score)} (bot {score(s.bot)}, multiple accounts {score(s.multiple_accounts)}, risk
            signals {score(s.risk_signals)}); signals: {s.signals.join(', ') || 'none'}
          </Text>
        </Group>
      ) : (
        <Text size="sm" mt="xs">
          The account had not been evaluated when the case opened.
        </Text>
      )}
    </Card>
  );
}

function Accounts({ c, accounts }: { c: Case; accounts: AccountResponse[] }) {
  const byId = new Map(accounts.map((a) => [a.account.id, a]));
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Accounts ({c.account_ids.length})
      </Title>
      <Table aria-label="The case's accounts" data-testid="case-accounts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Account</Table.Th>
            <Table.Th>Decision now</Table.Th>
            <Table.Th>Label</Table.Th>
            <Table.Th>Lists</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {c.account_ids.map((id) => {
            const a = byId.get(id);
            return (
              <Table.Tr key={id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Anchor component={Link} to={`/accounts/${encodeURIComponent(id)}`}>
                    {id}
                  </Anchor>
                </Table.Td>
                <Table.Td>{a ? <DecisionBadge decision={a.list_decision?.decision ?? a.decision} /> : '—'}</Table.Td>
                <Table.Td>{a?.label?.label ?? '—'}</Table.Td>
                <Table.Td>{a?.lists.join(', ') || '—'}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function Notes({ c, operator, onAdded }: { c: Case; operator: Operator; onAdded: () => void }) {
  const actorName = useActorNames();
  const [text, setText] = useState('');
  const [failure, setFailure] = useState<string>();
  const add = async () => {
    const res = await api.POST('/cases/{case_id}/notes', { params: { path: { case_id: c.case_id } }, body: { text } });
    if (!res.data) return setFailure(errorMessage(res.error, res.response));
    setText('');
    setFailure(undefined);
    onAdded();
  };
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        Notes
      </Title>
      <Stack gap="xs" data-testid="case-notes">
        {(c.notes ?? []).length === 0 && <Text size="sm">No notes yet.</Text>}
        {(c.notes ?? []).map((n) => (
          <Text key={n.id} size="sm">
            <b>{actorName(n.author)}</b>, {time(n.created_at)}: {n.text}
          </Text>
        ))}
        {mayAct(operator) && (
          <>
            <Textarea label="New note" value={text} onChange={(e) => setText(e.currentTarget.value)} maxLength={2000} />
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            <Group>
              <Button variant="default" onClick={add} disabled={text.trim() === ''}>
                Add note
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}

type Outcome = 'fraud' | 'legit';
type CloseList = 'block' | 'allow' | 'none';

function Work({
  c,
  operator,
  assignable,
  onChanged,
}: {
  c: Case;
  operator: Operator;
  assignable: Operator[];
  onChanged: (message: string) => void;
}) {
  const [failure, setFailure] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>('fraud');
  const [list, setList] = useState<CloseList>('block');
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const active = c.status !== 'closed';

  const change = async (body: { status?: 'open' | 'in_review'; assignee?: string | null }, message: string) => {
    const res = await api.PATCH('/cases/{case_id}', {
      params: { path: { case_id: c.case_id } },
      body: { ...body, expected_version: c.version },
    });
    if (!res.data) return setFailure(errorMessage(res.error, res.response));
    setFailure(undefined);
    onChanged(message);
  };
  const close = async () => {
    setBusy(true);
    const res = await api.POST('/cases/{case_id}/close', {
      params: { path: { case_id: c.case_id } },
      body: { outcome, ...(list === 'none' ? {} : { list }), ...(note.trim() ? { note } : {}) },
    });
    setBusy(false);
    if (!res.data) return setFailure(errorMessage(res.error, res.response));
    setConfirming(false);
    setFailure(undefined);
    onChanged(`Case closed as ${outcome}.`);
  };
  const accounts = `${c.account_ids.length} account${c.account_ids.length === 1 ? '' : 's'}`;

  return (
    <Card withBorder data-testid="case-work">
      <Title order={2} size="h4" mb="xs">
        Work the case
      </Title>
      {failure && (
        <Alert color="red" role="alert" mb="xs">
          {failure}
        </Alert>
      )}
      {active ? (
        <Stack>
          <Group align="flex-end">
            <Select
              label="Assignee"
              data={[{ value: '', label: 'Nobody' }, ...assignable.map((o) => ({ value: o.id, label: o.email }))]}
              value={c.assignee ?? ''}
              onChange={(v) => void change({ assignee: v || null }, v ? 'Case assigned.' : 'Case unassigned.')}
              allowDeselect={false}
            />
            {c.assignee !== operator.id && (
              <Button
                variant="default"
                onClick={() => void change({ assignee: operator.id, status: 'in_review' }, 'You have the case.')}
              >
                Take it
              </Button>
            )}
            {c.status === 'open' ? (
              <Button variant="default" onClick={() => void change({ status: 'in_review' }, 'Review started.')}>
                Start review
              </Button>
            ) : (
              <Button variant="default" onClick={() => void change({ status: 'open' }, 'Case back to open.')}>
                Back to open
              </Button>
            )}
          </Group>
          <Group align="flex-end">
            <Select
              label="Outcome"
              data={[
                { value: 'fraud', label: 'Fraud' },
                { value: 'legit', label: 'Legit' },
              ]}
              value={outcome}
              onChange={(v) => v && setOutcome(v as Outcome)}
              allowDeselect={false}
            />
            <Select
              label="Then put the accounts on"
              data={[
                { value: 'block', label: 'block (next evaluations Fake)' },
                { value: 'allow', label: 'allow (next evaluations Real)' },
                { value: 'none', label: 'no list' },
              ]}
              value={list}
              onChange={(v) => v && setList(v as CloseList)}
              allowDeselect={false}
            />
          </Group>
          <Textarea
            label="Closing note (kept as the labels’ note)"
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            maxLength={1000}
          />
          <Group>
            <Button color={outcome === 'fraud' ? 'red.9' : 'green.9'} onClick={() => setConfirming(true)}>
              Close case
            </Button>
          </Group>
        </Stack>
      ) : (
        <Button variant="default" onClick={() => void change({ status: 'open' }, 'Case reopened.')}>
          Reopen
        </Button>
      )}
      <ConfirmDialog
        title={confirming ? `Close the case as ${outcome}?` : undefined}
        onCancel={() => setConfirming(false)}
        onConfirm={close}
        busy={busy}
        error={failure}
      >
        <Text>
          {accounts} will be labelled {outcome}
          {list === 'none' ? '' : ` and put on ${list}`}. The audit log records it under your name.
        </Text>
      </ConfirmDialog>
    </Card>
  );
}
