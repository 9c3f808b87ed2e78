/**
 * A session's facts (the enriched session, several KB of JSON) and the SDK's merged post move
 * out of `sessions` into `session_facts`. In SQLite they sat inside each sessions row before the
 * columns added later (decision, block, country, location...), so every read of those columns
 * walked the facts' overflow pages, and the table the evaluation searches was mostly JSON: at
 * 1,000,000 sessions about 5 GB, read from cold pages. Now a sessions row is a few hundred bytes
 * and the facts are read once, for the session being evaluated.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('session_facts', (t) => {
    t.string('session_id', 36).primary().references('id').inTable('sessions').onDelete('CASCADE');
    /** The enriched session (the spec's EvaluatedSession shape), JSON. */
    t.text('facts').notNullable();
    /** What the SDK posted, merged over the session's posts, JSON (null for sessions stored otherwise). */
    t.text('sdk').nullable();
  });
  await knex.raw('INSERT INTO session_facts (session_id, facts, sdk) SELECT id, facts, sdk FROM sessions');
  // Native DROP COLUMN on both engines (SQLite 3.35+ rewrites the rows without them).
  await knex.raw('ALTER TABLE sessions DROP COLUMN facts');
  await knex.raw('ALTER TABLE sessions DROP COLUMN sdk');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.text('facts').nullable();
    t.text('sdk').nullable();
  });
  await knex.raw(
    `UPDATE sessions SET facts = (SELECT f.facts FROM session_facts f WHERE f.session_id = sessions.id),
       sdk = (SELECT f.sdk FROM session_facts f WHERE f.session_id = sessions.id)`,
  );
  await knex.schema.dropTable('session_facts');
}
