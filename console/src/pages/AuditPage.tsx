/**
 * The audit log: GET /audit, newest first, 50 events a page (the server's cursor in the
 * address, so a page can be reloaded and shared). Each event reads as who did what and when;
 * its changes as sentences: a list membership "joined block" / "left review", a label
 * "fraud (was legit)", a setting "decision_threshold: 0.8 → 0.7". Every operator may read it.
 */
import { Alert, Anchor, Button, Group, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, errorMessage, type AuditEvent, type AuditPage as Page } from '../api';
import { time } from '../components/format';
import { useActorNames } from '../components/actors';
import { Link, navigate, useLocation, withQuery } from '../router';

const PAGE = 50;

const ACTIONS: Record<AuditEvent['action'], string> = {
  'project.updated': 'Settings changed',
  'webhook_secret.rotated': 'Webhook secret rotated',
  'rules.updated': 'Rules replaced',
  'rules.draft_created': 'Rules draft proposed',
  'rules.published': 'Rules draft published',
  'rules.draft_rejected': 'Rules draft rejected',
  'account.labelled': 'Account labelled',
  'account.lists_changed': 'Account’s lists changed',
  'account.erased': 'Account erased',
  'webhook.replayed': 'Webhook replayed',
  'case.opened': 'Case opened',
  'case.updated': 'Case changed',
  'case.noted': 'Case noted',
  'case.closed': 'Case closed',
  'ring.blocked': 'Ring blocked',
};

type Change = AuditEvent['changes'][number];
const shown = (v: Change['before']) => (v === null ? 'none' : String(v));

/** One change as a short sentence; `nameOf` names a recorded actor (an operator by email: a draft's author, an assignee). */
export function describeChange(c: Change, nameOf: (actor: string) => string = String): string {
  if (c.field === 'list') {
    if (c.before === null) return `joined ${shown(c.after)}`;
    if (c.after === null) return `left ${shown(c.before)}`;
    return `left ${shown(c.before)} for ${shown(c.after)}`;
  }
  if (c.field === 'blocked_count') return `${shown(c.after)} joined block`;
  if (c.field === 'blocked_account') return `blocked ${shown(c.after)}`;
  if (c.field === 'webhook_request_id') return `webhook ${shown(c.after)}`;
  if (c.field === 'case_id') return `case ${shown(c.after)}`;
  if (c.field === 'assignee') return c.after === null ? 'unassigned' : `assigned to ${nameOf(`operator:${c.after}`)}`;
  if (c.field === 'rules_draft') return `draft ${shown(c.after)}`;
  if (c.field === 'rules_draft_author') return `proposed by ${c.after === null ? 'none' : nameOf(String(c.after))}`;
  if (c.field === 'label') return `label ${shown(c.after)}${c.before === null ? '' : ` (was ${shown(c.before)})`}`;
  return `${c.field}: ${shown(c.before)} → ${shown(c.after)}`;
}

export function AuditPage() {
  const { query } = useLocation();
  const cursor = query.get('cursor') || undefined;
  const [page, setPage] = useState<Page>();
  const [error, setError] = useState<string>();
  const actorName = useActorNames();

  useEffect(() => {
    setPage(undefined);
    setError(undefined);
    api
      .GET('/audit', { params: { query: { limit: PAGE, cursor } } })
      .then(({ data, error: e, response }) => (data ? setPage(data) : setError(errorMessage(e, response))))
      .catch(() => setError('The server could not be reached'));
  }, [cursor]);

  return (
    <Stack>
      <Title order={1}>Audit log</Title>
      <Text size="sm">
        Changes to the project’s settings and rules, labels and list memberships, cases, erasures and webhook replays,
        newest first. The actor is an API key (api_key: and the start of its hash), a console operator (by email) or the
        trustgate command.
      </Text>
      {error && (
        <Alert color="red" role="alert" title="Cannot show the audit log">
          {error}
        </Alert>
      )}
      {!page && !error && <Loader aria-label="Loading" />}
      {page && page.events.length === 0 && <Text>No events.</Text>}
      {page && page.events.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Audit events" striped verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Changes</Table.Th>
                <Table.Th>Who</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.events.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{time(e.created_at)}</Table.Td>
                  <Table.Td>
                    {ACTIONS[e.action]}
                    {e.account_id && (
                      <>
                        {' '}
                        <Anchor component={Link} to={`/accounts/${encodeURIComponent(e.account_id)}`}>
                          {e.account_id}
                        </Anchor>
                      </>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <List size="sm" listStyleType="none">
                      {e.changes.map((c, i) => (
                        <List.Item key={i}>{describeChange(c, actorName)}</List.Item>
                      ))}
                    </List>
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{actorName(e.actor)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group>
        {cursor && (
          <Button variant="default" onClick={() => navigate('/audit')}>
            Newest
          </Button>
        )}
        {page?.next_cursor && (
          <Button variant="default" onClick={() => navigate(withQuery('/audit', { cursor: page.next_cursor ?? '' }))}>
            Older
          </Button>
        )}
      </Group>
    </Stack>
  );
}
