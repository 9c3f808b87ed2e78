/**
 * Numbers in query parameters are finite. The validator coerces a query parameter's text to a
 * number before it checks the schema, and Ajv's coercion turns `1e400` or a numeral of 400
 * digits into ±Infinity, which then passes `minimum` and `maximum` (and knex drops a limit that
 * is not an integer, reading every row). A JSON body cannot carry one: JSON.parse makes
 * Infinity of `1e400` too, but Ajv's `number` and `integer` types refuse it. So this one check,
 * after the validator and before any handler, covers every numeric parameter of the contract.
 */
import type { RequestHandler } from 'express';
import { BadRequestError } from '../errors';

const notFinite = (value: unknown): boolean =>
  Array.isArray(value) ? value.some(notFinite) : typeof value === 'number' && !Number.isFinite(value);

export const finiteQueryNumbers: RequestHandler = (req, _res, next) => {
  const query = req.query as Record<string, unknown>;
  for (const [name, value] of Object.entries(query ?? {}))
    if (notFinite(value)) throw new BadRequestError(`query parameter ${name} must be a finite number`);
  next();
};
