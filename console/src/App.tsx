/**
 * Who is signed in decides what shows: GET /console/me once at start (a reloaded page keeps
 * its session), the sign-in page without a session, the shell and its routes with one. Any
 * 401 later (the session expired or was ended elsewhere) goes back to signing in.
 */
import { Center, Loader } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { api, setCsrfToken, whenSignedOut, type ConsoleSession } from './api';
import { navigate, useLocation } from './router';
import { AccountPage } from './pages/AccountPage';
import { AuditPage } from './pages/AuditPage';
import { CasePage } from './pages/CasePage';
import { CasesPage } from './pages/CasesPage';
import { EntityPage } from './pages/EntityPage';
import { ENTITIES, type EntityKind } from './components/entities';
import { NotFound } from './pages/NotFound';
import { RulesPage } from './pages/RulesPage';
import { OverviewPage } from './pages/OverviewPage';
import { ReviewPage } from './pages/ReviewPage';
import { SearchPage } from './pages/SearchPage';
import { SessionPage } from './pages/SessionPage';
import { Shell } from './pages/Shell';
import { SignInPage } from './pages/SignInPage';
import { WebhookDeliveryPage, WebhooksPage } from './pages/WebhooksPage';

type State = { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; session: ConsoleSession };

export function App() {
  const [state, setState] = useState<State>({ status: 'loading' });
  const { path } = useLocation();

  const signedIn = useCallback((session: ConsoleSession) => {
    setCsrfToken(session.csrf_token);
    setState({ status: 'signed-in', session });
  }, []);
  const signedOut = useCallback(() => {
    setCsrfToken(undefined);
    setState({ status: 'signed-out' });
  }, []);

  useEffect(() => {
    whenSignedOut(signedOut);
    void api.GET('/console/me').then(({ data }) => (data ? signedIn(data) : signedOut()));
  }, [signedIn, signedOut]);

  if (state.status === 'loading')
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (state.status === 'signed-out')
    return (
      <SignInPage
        onSignedIn={(session) => {
          signedIn(session);
          if (path === '/sign-in' || path === '/') navigate('/search', { replace: true });
        }}
      />
    );

  const signOut = async () => {
    await api.POST('/console/logout');
    signedOut();
    navigate('/sign-in', { replace: true });
  };
  return (
    <Shell operator={state.session.operator} onSignOut={signOut}>
      <Route path={path} operator={state.session} />
    </Shell>
  );
}

/** The page of a path (new pages are added here and in the shell's navigation). */
function Route({ path, operator }: { path: string; operator: ConsoleSession }) {
  if (path === '/' || path === '/sign-in') return <Redirect to="/search" />;
  if (path === '/search') return <SearchPage operator={operator.operator} />;
  if (path === '/rules') return <RulesPage operator={operator.operator} />;
  if (path === '/overview') return <OverviewPage />;
  if (path === '/review') return <ReviewPage operator={operator.operator} />;
  if (path === '/cases') return <CasesPage />;
  const caseId = /^\/cases\/([^/]+)$/.exec(path);
  if (caseId) return <CasePage caseId={decodeURIComponent(caseId[1]!)} operator={operator.operator} />;
  if (path === '/audit') return <AuditPage />;
  if (path === '/webhooks') return <WebhooksPage />;
  const webhook = /^\/webhooks\/([^/]+)$/.exec(path);
  if (webhook) return <WebhookDeliveryPage requestId={decodeURIComponent(webhook[1]!)} operator={operator.operator} />;
  const account = /^\/accounts\/([^/]+)$/.exec(path);
  if (account) return <AccountPage accountId={decodeURIComponent(account[1]!)} operator={operator.operator} />;
  const session = /^\/sessions\/([^/]+)$/.exec(path);
  if (session) return <SessionPage sessionId={decodeURIComponent(session[1]!)} />;
  for (const [kind, { path: segment }] of Object.entries(ENTITIES) as [EntityKind, { path: string }][]) {
    const entity = new RegExp(`^/${segment}/([^/]+)$`).exec(path);
    if (entity) return <EntityPage kind={kind} value={decodeURIComponent(entity[1]!)} />;
  }
  return <NotFound />;
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}
