/**
 * An account as some clients send it (the contract's `AccountInput`, in authenticate and in
 * `PUT /account/{account_id}`), read as they mean it: PHP encodes an empty map as an empty array
 * (`metadata: []` is `{}`), a `null` `group` is no group, and lower-case country codes are
 * upper-cased. The contract has already refused anything else.
 */
import type { AccountInput, AccountRead } from '../api-types';

export function readAccount(body: AccountInput): AccountRead {
  const { metadata, group, expected_countries, ...rest } = body;
  return {
    ...rest,
    ...(metadata === undefined ? {} : { metadata: Array.isArray(metadata) ? {} : metadata }),
    ...(group == null ? {} : { group }),
    ...(expected_countries === undefined ? {} : { expected_countries: expected_countries.map((c) => c.toUpperCase()) }),
  };
}
