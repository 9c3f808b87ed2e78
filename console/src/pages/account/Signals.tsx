/**
 * Signal details and email intelligence: the newest session's risk signals (GET
 * /session/{last_session}: which were raised, their scores and the conditions detected) beside
 * the account's time-decayed averages (GET /account/{id} `risk_signal_average`), and what the
 * service knows of the account's email address (`email` of the account's history).
 */
import { Badge, Card, Group, Table, Text, Title } from '@mantine/core';
import type { EmailIntelligence, Session, SignalAverages } from '../../api';
import { score } from '../../components/format';

export function SignalDetails({ averages, latest }: { averages: SignalAverages; latest?: Session | undefined }) {
  const names = Object.keys(averages) as (keyof SignalAverages)[];
  const details = latest ? [...latest.risk_signal_details.network, ...latest.risk_signal_details.device] : [];
  return (
    <Card withBorder component="section" aria-labelledby="signals-title">
      <Title order={2} size="h4" id="signals-title">
        Risk signals
      </Title>
      <Text size="sm">The newest session’s signal scores, and the account’s time-decayed averages.</Text>
      {/* Scrolls sideways on a narrow phone; focusable so that the keyboard can scroll it too. */}
      <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Risk signals, scrollable">
        <Table aria-label="Risk signals" data-testid="signal-table" horizontalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Signal</Table.Th>
              <Table.Th scope="col">Newest</Table.Th>
              <Table.Th scope="col">Average</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {names.map((n) => {
              const raised = latest?.risk_signals[n];
              return (
                <Table.Tr key={n}>
                  <Table.Th scope="row" fw={400} style={{ overflowWrap: 'anywhere' }}>
                    {n}
                  </Table.Th>
                  <Table.Td>
                    {latest ? (
                      <>
                        {n === 'spoofed_ip' ? (raised ? 'yes' : 'no') : score(latest.risk_signal_scores[n])}{' '}
                        {raised && (
                          <Badge size="sm" color="#a51d1d">
                            raised
                          </Badge>
                        )}
                      </>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>{score(averages[n])}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </div>
      <Text size="sm" mt="xs">
        Conditions detected in the newest session: {details.length ? details.join(', ') : 'none'}.
      </Text>
    </Card>
  );
}

/** The email's risk or trust conditions as badges. */
function Conditions({ title, names, colour }: { title: string; names: string[]; colour: string }) {
  return (
    <Group gap="xs" mt="xs">
      <Text size="sm">{title}:</Text>
      {names.length ? (
        names.map((r) => (
          <Badge key={r} variant="outline" color={colour}>
            {r}
          </Badge>
        ))
      ) : (
        <Text size="sm">none</Text>
      )}
    </Group>
  );
}

const yes = (v: boolean) => (v ? 'yes' : 'no');

export function EmailCard({ email }: { email?: EmailIntelligence | undefined }) {
  return (
    <Card withBorder component="section" aria-labelledby="email-title">
      <Title order={2} size="h4" id="email-title">
        Email intelligence
      </Title>
      {!email ? (
        <Text>No email address.</Text>
      ) : (
        <>
          <Text ff="monospace" size="sm" data-testid="email-normalised">
            {email.email}
          </Text>
          <Table aria-label="Email intelligence" mt="xs">
            <Table.Tbody>
              {(
                [
                  ['Email score (−1 trusted … 1 risky)', email.email_score.toFixed(2)],
                  ['Domain type', email.domain_type],
                  ['Valid', yes(email.valid)],
                  ['Disposable', yes(email.disposable)],
                  ['Personal provider', yes(email.personal)],
                  ['Accounts at the domain', String(email.num_account_from_domain)],
                ] as const
              ).map(([k, v]) => (
                <Table.Tr key={k}>
                  <Table.Th scope="row" fw={400}>
                    {k}
                  </Table.Th>
                  <Table.Td>{v}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Conditions title="Risk" names={email.risk_signals} colour="#a51d1d" />
          <Conditions title="Trust" names={email.trust_signals} colour="#1b5e20" />
        </>
      )}
    </Card>
  );
}
