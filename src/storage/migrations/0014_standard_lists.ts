import type { Knex } from 'knex';

/**
 * Every project has the standard lists from its creation (projects.create makes them in the
 * project's transaction), so that reading a list, or a request that is refused, never writes.
 * Projects made before this release got them lazily, on their first list request or
 * evaluation with lists: the ones still without them get them here, dated from the project.
 *
 * The three names are written out (not imported from domain/lists.ts): a migration, once
 * released, must do the same thing whatever the code around it becomes.
 */
const STANDARD = ['allow', 'block', 'main_account'];

export async function up(knex: Knex): Promise<void> {
  const projects: { id: string; created_at: number | string }[] = await knex('projects').select('id', 'created_at');
  // 100 projects (300 rows, 1,200 bound values) a statement: inside SQLite's bound-parameter limit.
  for (let i = 0; i < projects.length; i += 100) {
    const rows = projects
      .slice(i, i + 100)
      .flatMap((p) =>
        STANDARD.map((name) => ({ project_id: p.id, name, standard: true, created_at: Number(p.created_at) })),
      );
    await knex('lists').insert(rows).onConflict(['project_id', 'name']).ignore();
  }
}

/** Nothing to undo: the earlier code creates the same rows on first use. */
export async function down(): Promise<void> {}
