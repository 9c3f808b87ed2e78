/**
 * The `browser` and `device` links take the meaning reference.md gives them (issue 17): a
 * `browser` is the same browser instance, the id the SDK keeps in the browser's own storage
 * (`sessions.device_id`), deterministic; a `device` is the same hardware and rendering, the
 * fingerprint (`sessions.browser_fingerprint`), probabilistic. Until now the link search's
 * aggregate kept them the other way round, so its rows swap kinds: the same values and accounts,
 * each under the kind it now means. The sessions keep what the SDK sent, under the same columns.
 *
 * Three statements through a kind no row has, so that no step ever holds two rows with one
 * primary key (PostgreSQL checks a non-deferred key row by row).
 */
import type { Knex } from 'knex';

const SWAPPING = '_swapping';

async function swapBrowserAndDevice(knex: Knex): Promise<void> {
  await knex('identifier_accounts').where({ kind: 'browser' }).update({ kind: SWAPPING });
  await knex('identifier_accounts').where({ kind: 'device' }).update({ kind: 'browser' });
  await knex('identifier_accounts').where({ kind: SWAPPING }).update({ kind: 'device' });
}

export async function up(knex: Knex): Promise<void> {
  await swapBrowserAndDevice(knex);
}

export async function down(knex: Knex): Promise<void> {
  await swapBrowserAndDevice(knex);
}
