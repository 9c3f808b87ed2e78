/**
 * The shell's search box: an account id, an email or `@domain`, a device id, a fingerprint, an
 * IP address or network, or a session id, and Enter goes to its page (quick-search.ts says how
 * the kind is told). When an identifier is several things at once, a short list to choose from.
 */
import { Anchor, Button, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, navigate } from '../router';
import { classify, resolveIdentifier, type Destination } from './quick-search';

export function SearchBox({ onDone }: { onDone?: () => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [choices, setChoices] = useState<Destination[]>();
  const [message, setMessage] = useState<string>();
  const messageId = useId();
  /** The latest search: an answer to an earlier one (the operator typed on) is dropped. */
  const latest = useRef(0);

  const go = (to: string) => {
    setChoices(undefined);
    setMessage(undefined);
    setText('');
    navigate(to);
    onDone?.();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (!value) return;
    setMessage(undefined);
    setChoices(undefined);
    const known = classify(value);
    if (known) {
      latest.current++;
      return go(known.to);
    }
    const search = ++latest.current;
    setBusy(true);
    try {
      const found = await resolveIdentifier(value);
      if (search !== latest.current) return;
      if (found.length === 1) go(found[0]!.to);
      else if (found.length > 1) setChoices(found);
      else setMessage(`Nothing found for “${value}”: no account, session, device or fingerprint has it.`);
    } finally {
      if (search === latest.current) setBusy(false);
    }
  };

  const open = Boolean(choices || message);
  return (
    <Popover
      opened={open}
      onChange={(o) => {
        if (!o) {
          setChoices(undefined);
          setMessage(undefined);
        }
      }}
      position="bottom-start"
      width="target"
      trapFocus={false}
    >
      <Popover.Target>
        <form onSubmit={submit} role="search" aria-label="Everything">
          <Group gap={4} wrap="nowrap">
            <TextInput
              aria-label="Search accounts, sessions, emails, devices and addresses"
              placeholder="Account, email, device, IP, session…"
              value={text}
              onChange={(e) => {
                latest.current++;
                setBusy(false);
                setText(e.currentTarget.value);
              }}
              size="xs"
              w={{ base: '100%', sm: 280 }}
              aria-describedby={message ? messageId : undefined}
            />
            <Button type="submit" size="xs" variant="default" loading={busy}>
              Go
            </Button>
          </Group>
        </form>
      </Popover.Target>
      <Popover.Dropdown>
        {message && (
          <Text size="sm" id={messageId} role="status">
            {message}
          </Text>
        )}
        {choices && (
          <Stack gap={4} aria-label="Matches">
            <Text size="sm">“{text.trim()}” is:</Text>
            {choices.map((c) => (
              <Anchor
                key={c.kind}
                component={Link}
                to={c.to}
                size="sm"
                onClick={() => {
                  setChoices(undefined);
                  setText('');
                  onDone?.();
                }}
              >
                {c.kind === 'Account' ? 'an account' : c.kind === 'Session' ? 'a session' : `a ${c.kind.toLowerCase()}`}
              </Anchor>
            ))}
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
