/**
 * Signing in: email and password to POST /console/login. A wrong pair is one message whatever
 * was wrong (the server does not say which); throttled (429), the message says how long to wait
 * (Retry-After). When the server has an OpenID Connect provider (GET /console/sign-in-options),
 * a button goes to it (GET /console/oidc/login, with the email typed as its login hint); the
 * provider's way back lands here with `sign_in_error` when it did not sign anyone in.
 */
import { Alert, Button, Center, Divider, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { api, errorMessage, type ConsoleSession, type ConsoleSignInOptions } from '../api';
import { BASE, useLocation } from '../router';

/** What each `sign_in_error` of GET /console/oidc/callback means to the person signing in. */
const SSO_ERRORS: Record<string, string> = {
  expired: 'The single sign-on took too long or was started in another browser. Try again.',
  refused: 'The identity provider did not sign you in (it was cancelled or refused).',
  failed: 'The identity provider’s answer could not be checked. Try again.',
  email_unverified: 'The identity provider has not verified your email address.',
  unknown_operator: 'No active console user has the email your identity provider gave. Ask an admin.',
};

export function SignInPage({ onSignedIn }: { onSignedIn: (session: ConsoleSession) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { query } = useLocation();
  const ssoError = query.get('sign_in_error');
  const [error, setError] = useState<string | undefined>(
    ssoError ? (SSO_ERRORS[ssoError] ?? 'Single sign-on did not succeed.') : undefined,
  );
  const [busy, setBusy] = useState(false);
  const [options, setOptions] = useState<ConsoleSignInOptions>();
  useEffect(() => {
    void api.GET('/console/sign-in-options').then(({ data }) => setOptions(data));
  }, []);
  const ssoHref = `${BASE}/oidc/login${email.includes('@') ? `?login_hint=${encodeURIComponent(email)}` : ''}`;

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
            {options?.oidc && (
              <>
                <Divider label="or" labelPosition="center" styles={{ label: { color: 'var(--mantine-color-text)' } }} />
                <Button component="a" href={ssoHref} variant="default">
                  Sign in with {options.oidc.label}
                </Button>
              </>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
