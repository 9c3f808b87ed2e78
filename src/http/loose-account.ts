/**
 * `PUT /account/{account_id}`'s body as some clients send it, read as they mean it before the
 * contract checks it: PHP encodes an empty map as an empty array (`metadata: []` is `{}`), a
 * `null` `group` is no group, and lower-case country codes are upper-cased. Anything else is
 * left for the contract to judge.
 */
import type { RequestHandler } from 'express';

const COUNTRY = /^[a-z]{2}$/i;

export const looseAccountBody: RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const account = body as Record<string, unknown>;
    if (Array.isArray(account.metadata) && account.metadata.length === 0) account.metadata = {};
    if (account.group === null) delete account.group;
    if (Array.isArray(account.expected_countries))
      account.expected_countries = account.expected_countries.map((c: unknown) =>
        typeof c === 'string' && COUNTRY.test(c) ? c.toUpperCase() : c,
      );
  }
  next();
};
