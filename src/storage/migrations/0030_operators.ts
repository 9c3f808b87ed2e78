import type { Knex } from 'knex';

/**
 * Operators of the console (docs/console-auth.md): `operators`, people of one project with a
 * role (viewer, analyst, admin) and an argon2id password hash (the PHC string: algorithm,
 * parameters, salt and hash; never the password); an email names one operator of the whole
 * installation (it is what login asks for). `console_sessions`: a signed-in operator's
 * session, kept as the SHA-256 of its token (the cookie's value is never stored), with its
 * absolute expiry and the last time it was used (the idle timeout). Times are milliseconds
 * since the epoch, the service's clock. API keys gain a scope: `full` (as before) or
 * `read_only` (GET only).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('operators', (t) => {
    t.string('id', 36).primary();
    t.string('project_id', 36).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    // Lower-cased and trimmed before it is stored or looked up.
    t.string('email', 254).notNullable().unique();
    t.string('role', 16).notNullable();
    t.string('password_hash', 256).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('disabled_at').nullable();
    // `trustgate user list`: a project's operators in email order.
    t.index(['project_id', 'email'], 'operators_project_email');
  });
  await knex.schema.createTable('console_sessions', (t) => {
    t.string('token_hash', 64).primary();
    t.string('operator_id', 36).notNullable().references('id').inTable('operators').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('last_seen_at').notNullable();
    // Signing an operator out everywhere (disabled).
    t.index(['operator_id'], 'console_sessions_operator');
    // Deleting the sessions past their end.
    t.index(['expires_at'], 'console_sessions_expires');
  });
  await knex.schema.alterTable('api_keys', (t) => {
    t.string('scope', 16).notNullable().defaultTo('full');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('scope');
  });
  await knex.schema.dropTableIfExists('console_sessions');
  await knex.schema.dropTableIfExists('operators');
}
