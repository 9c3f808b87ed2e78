/**
 * An account as a request leaves it: the stored record with the request's input applied
 * (identifiers normalised), or the rule the input breaks, as a value: authenticate and the
 * Account API (usecases/evaluation/steps.ts `applyInput`) answer it with a 400 naming the field.
 */
import type { AccountRead } from '../../api-types';
import { emailFacts } from '../email';
import { nameKey, phoneKey, usernameKey } from '../linking';
import { STANDARD_LISTS } from '../lists';
import { NO_AGGREGATES, type AccountRecord } from './facts';

/** The project's settings and the time an input is applied with. */
export interface InputContext {
  projectId: string;
  groupsEnabled: boolean;
  now: Date;
}

/** The account after the input, or the rule it breaks (a 400's message, naming the field under `field`). */
export type AppliedInput = { record: AccountRecord } | { refused: string };

export function applyAccountInput(
  context: InputContext,
  existing: AccountRecord | undefined,
  input: Omit<AccountRead, 'id'>,
  id: string,
  field = 'account.',
): AppliedInput {
  if (input.group !== undefined && !context.groupsEnabled) {
    return { refused: `${field}group is not allowed: groups are not enabled for this project` };
  }
  if (context.groupsEnabled) {
    if (existing?.group !== undefined && input.group !== undefined && input.group !== existing.group) {
      return { refused: `${field}group cannot change: the account is in group ${JSON.stringify(existing.group)}` };
    }
    if (existing === undefined && input.group === undefined) {
      return { refused: `${field}group is required: groups are enabled for this project` };
    }
  }
  const standard = (input.lists ?? []).filter((l) => STANDARD_LISTS.includes(l));
  if (new Set(standard).size > 1) {
    return {
      refused: `${field}lists may hold only one of ${STANDARD_LISTS.join(', ')} (they are mutually exclusive)`,
    };
  }
  const { now } = context;
  const next: AccountRecord = existing
    ? { ...existing, updatedAt: now }
    : {
        projectId: context.projectId,
        id,
        expectedCountries: [],
        metadata: {},
        createdAt: now,
        updatedAt: now,
        aggregates: NO_AGGREGATES,
        version: 0,
      };
  if (input.email !== undefined) {
    const facts = emailFacts(input.email);
    Object.assign(next, {
      email: input.email,
      emailKey: facts.normalised || undefined,
      emailDomain: facts.domain || undefined,
    });
  }
  if (input.phone !== undefined) Object.assign(next, { phone: input.phone, phoneKey: phoneKey(input.phone) });
  if (input.first_name !== undefined) next.firstName = input.first_name;
  if (input.last_name !== undefined) next.lastName = input.last_name;
  next.nameKey = nameKey(next.firstName, next.lastName);
  if (input.username !== undefined)
    Object.assign(next, { username: input.username, usernameKey: usernameKey(input.username) });
  if (input.expected_countries && input.expected_countries.length > 0)
    next.expectedCountries = [...new Set(input.expected_countries)];
  if (input.metadata !== undefined) next.metadata = input.metadata;
  if (input.group !== undefined) next.group = input.group;
  return { record: next };
}
