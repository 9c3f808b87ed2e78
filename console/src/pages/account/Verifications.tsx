/**
 * The account's verification results (GET /account/{id}/verifications): each Face Match or ID
 * Check, how it ended, its decision, risk score and flags, and its images through their signed
 * URLs (valid 5 minutes; reloading the page signs them afresh). The URLs are on the server's
 * public base URL; the console loads them by path from its own origin (the same server), which
 * is all its Content-Security-Policy allows (`img-src 'self'`). Erased media are said so.
 */
import { Badge, Card, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AccountVerification } from '../../api';
import { DecisionBadge, score, time } from '../../components/format';

const KIND_NAMES = { selfie: 'Selfie', id_front: 'ID front', id_back: 'ID back' } as const;

/** The signed URL's path and query, on this origin. */
const sameOrigin = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

function OneVerification({ v }: { v: AccountVerification }) {
  return (
    <Card withBorder padding="sm" data-testid="verification">
      <Group justify="space-between">
        <Text fw={600}>
          {v.type === 'id-check' ? 'ID Check' : 'Face Match'} · {time(v.created_at)}
        </Text>
        <Group gap="xs">
          {v.decision && <DecisionBadge decision={v.decision} />}
          <Badge variant="outline" color="dark">
            {v.state === 'open' ? 'open' : (v.outcome ?? 'ended')}
          </Badge>
        </Group>
      </Group>
      <Text size="sm">
        {v.risk_score !== undefined ? `Risk score ${score(v.risk_score)}. ` : ''}
        {v.risk_flags.length ? `Flags: ${v.risk_flags.join(', ')}.` : 'No risk flags.'}
        {v.ended_at ? ` Ended ${time(v.ended_at)}.` : ''}
      </Text>
      {v.media_erased ? (
        <Text size="sm" fs="italic" data-testid="media-erased">
          Its images and result were erased (the account’s erasure or the project’s retention).
        </Text>
      ) : v.images.length === 0 ? (
        <Text size="sm">No images captured.</Text>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3 }} mt="xs">
          {v.images.map((img) => (
            <figure key={img.kind} style={{ margin: 0 }}>
              <Image
                src={sameOrigin(img.url)}
                alt={`${KIND_NAMES[img.kind]} of the verification of ${time(v.created_at)}`}
                radius="sm"
                h={140}
                fit="contain"
                referrerPolicy="no-referrer"
              />
              <Text component="figcaption" size="sm">
                {KIND_NAMES[img.kind]}
              </Text>
            </figure>
          ))}
        </SimpleGrid>
      )}
    </Card>
  );
}

export function Verifications({ verifications }: { verifications: AccountVerification[] }) {
  return (
    <Card withBorder component="section" aria-labelledby="verifications-title">
      <Title order={2} size="h4" id="verifications-title" mb="xs">
        Verifications
      </Title>
      {verifications.length === 0 ? (
        <Text>No verifications.</Text>
      ) : (
        <Stack gap="sm">
          {verifications.map((v) => (
            <OneVerification key={v.session_id} v={v} />
          ))}
        </Stack>
      )}
    </Card>
  );
}
