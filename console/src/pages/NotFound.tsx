import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from '../router';

export function NotFound() {
  return (
    <Stack>
      <Title order={1}>Page not found</Title>
      <Text>
        There is no such page in the console.{' '}
        <Anchor component={Link} to="/search">
          Go to search
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
