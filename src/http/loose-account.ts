/**
 * `PUT /account/{account_id}`'s body as some clients send it (the contract's `AccountUpdate`),
 * read as they mean it: PHP encodes an empty map as an empty array (`metadata: []` is `{}`), a
 * `null` `group` is no group, and lower-case country codes are upper-cased. The contract has
 * already refused anything else.
 */
import type { AccountInput, AccountUpdate } from '../api-types';

export function accountOfUpdate(body: AccountUpdate): AccountInput {
  const { metadata, group, expected_countries, ...rest } = body;
  return {
    ...rest,
    ...(metadata === undefined ? {} : { metadata: Array.isArray(metadata) ? {} : metadata }),
    ...(group == null ? {} : { group }),
    ...(expected_countries === undefined ? {} : { expected_countries: expected_countries.map((c) => c.toUpperCase()) }),
  };
}
