/**
 * The frame of every signed-in page: a header (the console's name, who is signed in and as
 * what, Sign out) and the navigation, which folds behind a menu button on a phone. Later
 * pages (rules) add a link to NAV.
 */
import { AppShell, Box, Burger, Button, Group, NavLink, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import type { Operator } from '../api';
import { SearchBox } from '../components/SearchBox';
import { Link, useLocation } from '../router';

const NAV = [
  { to: '/overview', label: 'Overview', matches: (p: string) => p === '/overview' },
  { to: '/search', label: 'Search', matches: (p: string) => p === '/search' || p.startsWith('/accounts/') },
  { to: '/rules', label: 'Rules', matches: (p: string) => p === '/rules' },
  { to: '/cases', label: 'Cases', matches: (p: string) => p === '/cases' || p.startsWith('/cases/') },
  { to: '/review', label: 'Lists', matches: (p: string) => p === '/review' },
  { to: '/audit', label: 'Audit log', matches: (p: string) => p === '/audit' },
  { to: '/webhooks', label: 'Webhooks', matches: (p: string) => p === '/webhooks' || p.startsWith('/webhooks/') },
];

export function Shell({
  operator,
  onSignOut,
  children,
}: {
  operator: Operator;
  onSignOut: () => void;
  children: ReactNode;
}) {
  const [opened, { toggle, close }] = useDisclosure();
  const { path } = useLocation();
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <Title order={2} size="h4">
              Trustgate
            </Title>
          </Group>
          <Box visibleFrom="sm">
            <SearchBox />
          </Box>
          <Group gap="sm" wrap="nowrap">
            <Text size="sm" visibleFrom="xs" data-testid="signed-in-as">
              {operator.email} ({operator.role})
            </Text>
            <Button variant="default" size="xs" onClick={onSignOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        <Box hiddenFrom="sm" mb="xs">
          <SearchBox onDone={close} />
        </Box>
        {NAV.map((item) => (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            active={item.matches(path)}
            aria-current={item.matches(path) ? 'page' : undefined}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
