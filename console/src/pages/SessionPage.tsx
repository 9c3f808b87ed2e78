/**
 * A session's page: its facts and signals as the Session API gives them (GET /session/{id}), the
 * accounts it was authenticated with, its latest evaluation's receipt (the search's summary
 * of the one session, GET /sessions?session_id=, names it), and its accounts' verifications. Its address, network and device link
 * to their pages.
 */
import { Alert, Anchor, Card, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import {
  api,
  errorMessage,
  type AccountVerification,
  type EvaluationReceipt,
  type Session,
  type SessionSummary,
} from '../api';
import { entityPath, networkOf } from '../components/entities';
import { DecisionBadge, score, time } from '../components/format';
import { useLoaded } from '../components/use-loaded';
import { Link } from '../router';
import { ReceiptChart } from './account/ReceiptChart';
import { Verifications } from './account/Verifications';
import { AccountLinks } from './SearchPage';

interface Loaded {
  session: Session;
  summary?: SessionSummary | undefined;
  receipt?: EvaluationReceipt | undefined;
  verifications: AccountVerification[];
}

/** The accounts whose verifications the page shows (a session is authenticated with one, rarely a few). */
const VERIFIED_ACCOUNTS = 5;

async function load(id: string): Promise<Loaded> {
  const [session, page] = await Promise.all([
    api.GET('/session/{session_id}', { params: { path: { session_id: id } } }),
    api.GET('/sessions', { params: { query: { session_id: id } } }),
  ]);
  if (!session.data) throw new Error(errorMessage(session.error, session.response));
  const summary = page.data?.sessions[0];
  const request_id = summary?.evaluation_request_id;
  const [receipt, ...verified] = await Promise.all([
    request_id ? api.GET('/evaluation/{request_id}', { params: { path: { request_id } } }) : undefined,
    ...session.data.account_ids
      .slice(0, VERIFIED_ACCOUNTS)
      .map((account_id) => api.GET('/account/{account_id}/verifications', { params: { path: { account_id } } })),
  ]);
  const verifications = verified.flatMap((v) => v?.data?.verifications ?? []);
  return { session: session.data, summary, receipt: receipt?.data, verifications };
}

/** The facts an analyst reads first, as label and value (values may be links). */
function facts(s: Session): [string, ReactNode][] {
  const address = s.network.ip_address;
  const network = networkOf(address);
  const link = (to: string, text: string) => (
    <Anchor component={Link} to={to}>
      {text}
    </Anchor>
  );
  return [
    ['Started', time(s.start_time)],
    ['IP address', link(entityPath('ip', address), address)],
    ['Network', network ? link(entityPath('network', network), network) : '—'],
    ['Connection', [s.network.connection_type, s.network.service_provider].filter(Boolean).join(', ') || '—'],
    ['Location', [s.location.city, s.location.country_code].filter(Boolean).join(', ') || '—'],
    ['Device id', link(entityPath('device', s.device_id), s.device_id)],
    ['Browser', [s.browser.type, s.browser.version].filter(Boolean).join(' ') || '—'],
    ['Operating system', s.device.os || '—'],
    ['Time zone', s.browser.timezone || '—'],
    [
      'Interaction',
      `mouse ${s.bot.mouse_num_events}, clicks ${s.bot.click_num_events}, keys ${s.bot.keyboard_num_events}, touch ${s.bot.touch_num_events}`,
    ],
  ];
}

export function SessionPage({ sessionId }: { sessionId: string }) {
  const { loaded, error } = useLoaded(() => load(sessionId), [sessionId]);
  const s = loaded?.session;
  return (
    <Stack>
      <Title order={1} style={{ wordBreak: 'break-all' }}>
        Session {sessionId}
      </Title>
      {error && (
        <Alert color="red" role="alert" title="Cannot show the session">
          {error}
        </Alert>
      )}
      {!loaded && !error && <Loader aria-label="Loading" />}
      {s && (
        <>
          <Group gap="xs" data-testid="session-evaluation">
            <Text fw={600}>Latest evaluation</Text>
            <DecisionBadge decision={loaded.summary?.decision} />
            <Text>score {score(loaded.summary?.account_score)}</Text>
          </Group>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder>
              <Title order={2} size="h4" mb="xs">
                Facts
              </Title>
              <Table aria-label="Session facts" data-testid="session-facts">
                <Table.Tbody>
                  {facts(s).map(([label, value]) => (
                    <Table.Tr key={label}>
                      <Table.Th scope="row">{label}</Table.Th>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Card>
            <Card withBorder>
              <Title order={2} size="h4" mb="xs">
                Accounts and signals
              </Title>
              <Text data-testid="session-accounts">
                Accounts: <AccountLinks ids={s.account_ids} none="none (not authenticated)" />
              </Text>
              <Text mt="xs" data-testid="session-conditions">
                Conditions: {[...s.risk_signal_details.network, ...s.risk_signal_details.device].join(', ') || 'none'}
              </Text>
            </Card>
          </SimpleGrid>
          {loaded.receipt ? (
            <ReceiptChart receipt={loaded.receipt} />
          ) : (
            <Text>No evaluation receipt: the session was not evaluated, or its receipt was forgotten.</Text>
          )}
          <Verifications verifications={loaded.verifications} />
        </>
      )}
    </Stack>
  );
}
