/**
 * Signing in: email and password to POST /console/login. A wrong pair is one message whatever
 * was wrong (the server does not say which); throttled (429), the message says how long to wait
 * (Retry-After).
 */
import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { api, errorMessage, type ConsoleSession } from '../api';

export function SignInPage({ onSignedIn }: { onSignedIn: (session: ConsoleSession) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const { data, error: failure, response } = await api.POST('/console/login', { body: { email, password } });
      if (data) return onSignedIn(data);
      if (response.status === 401) setError('Wrong email or password.');
      else if (response.status === 429) {
        const wait = Number(response.headers.get('retry-after'));
        setError(
          `Too many sign-in attempts. Try again in ${Number.isFinite(wait) && wait > 0 ? `${wait} seconds` : 'a minute'}.`,
        );
      } else setError(errorMessage(failure, response));
    } catch {
      setError('The server could not be reached.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={400}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={1} size="h2">
              Trustgate console
            </Title>
            {error && (
              <Alert color="red" role="alert" title="Not signed in">
                {error}
              </Alert>
            )}
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
