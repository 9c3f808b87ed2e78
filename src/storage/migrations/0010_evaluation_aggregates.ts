/**
 * What an evaluation reads, kept at write time so that it is read by key (docs/pipeline.md):
 *
 * - `accounts`: the account's aggregates over its sessions (count, first and last start, the
 *   newest session and its country, the countries), written with the account in the
 *   evaluation's transaction; `version` makes that write conditional on what was read.
 * - `session_accounts.session_start`: the session's start beside the link, so that an
 *   account's newest sessions are one index range, whatever its history.
 * - `sessions`: the location the travel rule compares (latitude, longitude, how precise, and
 *   whether the session came through an anonymising network), as columns, so that the previous
 *   session is read without its facts.
 *
 * Existing rows are filled from the rows they summarise, in SQL, on both engines.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const pg = knex.client.config.client === 'pg';

  await knex.schema.alterTable('accounts', (t) => {
    t.integer('num_sessions').notNullable().defaultTo(0);
    t.bigInteger('first_seen').nullable();
    t.bigInteger('last_seen').nullable();
    t.string('last_session_id', 36).nullable();
    t.string('last_country', 2).nullable();
    /** The countries of the account's sessions, JSON, sorted. */
    t.text('countries').notNullable().defaultTo('[]');
    t.integer('version').notNullable().defaultTo(0);
  });

  await knex.schema.alterTable('session_accounts', (t) => {
    t.bigInteger('session_start').nullable();
    // An account's sessions newest first (the evaluation's account history, the previous
    // session, the Account API's session list): one range, no sort, covering the join key.
    t.index(['project_id', 'account_id', 'session_start', 'session_id']);
  });

  await knex.schema.alterTable('sessions', (t) => {
    t.float('latitude').nullable();
    t.float('longitude').nullable();
    /** ipLocationAccuracyKm of the session's location (city-level or country-level). */
    t.integer('location_accuracy_km').nullable();
    /** Flagged Tor, VPN or proxy, or on a private relay, when stored. */
    t.boolean('anonymised').notNullable().defaultTo(false);
  });

  await knex.raw(
    `UPDATE session_accounts SET session_start = (SELECT s.start_time FROM sessions s WHERE s.id = session_accounts.session_id)`,
  );

  const json = (path: string[]) =>
    pg ? `(facts::jsonb #>> '{${path.join(',')}}')` : `json_extract(facts, '$.${path.join('.')}')`;
  const flag = (path: string[]) => (pg ? `COALESCE(${json(path)} = 'true', false)` : `COALESCE(${json(path)} = 1, 0)`);
  await knex.raw(
    `UPDATE sessions SET
       latitude = ${pg ? `(${json(['location', 'latitude'])})::double precision` : json(['location', 'latitude'])},
       longitude = ${pg ? `(${json(['location', 'longitude'])})::double precision` : json(['location', 'longitude'])},
       location_accuracy_km = CASE WHEN ${json(['location', 'city'])} IS NOT NULL AND ${json(['location', 'city'])} <> ''
         THEN 50 ELSE 500 END,
       anonymised = (${flag(['risk_signals', 'tor'])} OR ${flag(['risk_signals', 'vpn'])} OR ${flag(['risk_signals', 'proxy'])}
                     OR COALESCE(connection_type = 'private_relay', ${pg ? 'false' : '0'}))`,
  );

  const sessionsOf = `FROM session_accounts sa JOIN sessions s ON s.id = sa.session_id
    WHERE sa.project_id = accounts.project_id AND sa.account_id = accounts.id`;
  const countries = pg
    ? `(SELECT COALESCE(json_agg(c ORDER BY c), '[]'::json)::text
        FROM (SELECT DISTINCT s.country_code AS c ${sessionsOf} AND s.country_code IS NOT NULL) AS d)`
    : `(SELECT COALESCE(json_group_array(c), '[]')
        FROM (SELECT DISTINCT s.country_code AS c ${sessionsOf} AND s.country_code IS NOT NULL ORDER BY c))`;
  await knex.raw(
    `UPDATE accounts SET
       num_sessions = (SELECT COUNT(*) ${sessionsOf}),
       first_seen = (SELECT MIN(s.start_time) ${sessionsOf}),
       last_seen = (SELECT MAX(s.start_time) ${sessionsOf}),
       last_session_id = (SELECT s.id ${sessionsOf} ORDER BY s.start_time DESC, s.id DESC LIMIT 1),
       last_country = (SELECT s.country_code ${sessionsOf} ORDER BY s.start_time DESC, s.id DESC LIMIT 1),
       countries = ${countries}`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    for (const c of ['latitude', 'longitude', 'location_accuracy_km', 'anonymised']) t.dropColumn(c);
  });
  await knex.schema.alterTable('session_accounts', (t) => {
    t.dropIndex(['project_id', 'account_id', 'session_start', 'session_id']);
    t.dropColumn('session_start');
  });
  await knex.schema.alterTable('accounts', (t) => {
    for (const c of [
      'num_sessions',
      'first_seen',
      'last_seen',
      'last_session_id',
      'last_country',
      'countries',
      'version',
    ])
      t.dropColumn(c);
  });
}
