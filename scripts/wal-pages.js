#!/usr/bin/env node
// The pages SQLite's commits wrote into the write-ahead log, by B-tree: what a commit costs in
// the log (each page 4 KB written there, and copied again into the database file by a checkpoint).
//
//   node scripts/wal-pages.js <database file>
//
// Reads the log beside the database (<file>-wal) from its header: the frames of its current
// generation (those whose salts are the header's; a checkpoint that starts the log again gives it
// new salts), grouped into commits (a commit's last frame carries the database's size). A page
// written twice in one commit counts once. Each page is named from SQLite's `dbstat` table as the
// database stands now (an index's pages by the index's name; a page freed since, "(free)"; page 1,
// the file's header and the schema's root, as `sqlite_schema`: a commit that grows the file
// writes it).
// `bench:authenticate --wal-pages` uses it to count the pages of its last authenticate run.
'use strict';
const fs = require('node:fs');

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/**
 * The log's current generation: its salts, its frames up to its last commit, and its commits (each
 * the distinct pages it wrote, in order). With `since` (an earlier `readWal` of the same log), only
 * the commits after it: those after its frames when the log is still the same generation, all of
 * them when the log has started again since. A missing or empty log has none.
 */
function readWal(walFile, since) {
  let buf;
  try {
    buf = fs.readFileSync(walFile);
  } catch (err) {
    if (err.code === 'ENOENT') return { salts: undefined, frames: 0, commits: [] };
    throw err;
  }
  if (buf.length < WAL_HEADER) return { salts: undefined, frames: 0, commits: [] };
  const pageSize = buf.readUInt32BE(8);
  const salts = [buf.readUInt32BE(16), buf.readUInt32BE(20)];
  const same = since?.salts !== undefined && since.salts[0] === salts[0] && since.salts[1] === salts[1];
  const after = same ? since.frames : 0;
  const commits = [];
  let pages = new Set();
  let frames = 0;
  let committed = 0;
  for (let off = WAL_HEADER; off + FRAME_HEADER + pageSize <= buf.length; off += FRAME_HEADER + pageSize) {
    if (buf.readUInt32BE(off + 8) !== salts[0] || buf.readUInt32BE(off + 12) !== salts[1]) break;
    frames++;
    if (frames > after) pages.add(buf.readUInt32BE(off));
    if (buf.readUInt32BE(off + 4) !== 0) {
      committed = frames;
      if (pages.size > 0) commits.push([...pages]);
      pages = new Set();
    }
  }
  return { salts, frames: committed, commits };
}

/** Each page's B-tree (table or index name), from `dbstat`, on a read-only connection of `Database` (better-sqlite3). */
function pageOwners(Database, dbFile) {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const owners = new Map();
    for (const r of db.prepare('SELECT name, pageno FROM dbstat').iterate()) owners.set(r.pageno, r.name);
    return owners;
  } finally {
    db.close();
  }
}

/** Pages a commit, in all and by B-tree (largest first). */
function pagesByBtree(commits, owners) {
  const by = new Map();
  let total = 0;
  for (const pages of commits)
    for (const page of pages) {
      const name = owners.get(page) ?? '(free)';
      by.set(name, (by.get(name) ?? 0) + 1);
      total++;
    }
  const n = commits.length || 1;
  return {
    commits: commits.length,
    perCommit: total / n,
    byBtree: [...by].map(([name, pages]) => ({ name, perCommit: pages / n })).sort((a, b) => b.perCommit - a.perCommit),
  };
}

/** The lines that print it. */
function describe({ commits, perCommit, byBtree }, top = 20) {
  const lines = [`${commits} commits, ${perCommit.toFixed(1)} pages a commit; by B-tree:`];
  for (const b of byBtree.slice(0, top)) lines.push(`  ${b.perCommit.toFixed(2).padStart(6)}  ${b.name}`);
  const rest = byBtree.slice(top).reduce((sum, b) => sum + b.perCommit, 0);
  if (rest > 0) lines.push(`  ${rest.toFixed(2).padStart(6)}  (${byBtree.length - top} others)`);
  return lines;
}

module.exports = { readWal, pageOwners, pagesByBtree, describe };

if (require.main === module) {
  const [dbFile] = process.argv.slice(2);
  if (!dbFile) {
    console.error('usage: node scripts/wal-pages.js <database file>');
    process.exit(2);
  }
  const Database = require('better-sqlite3');
  const { commits } = readWal(`${dbFile}-wal`);
  for (const line of describe(pagesByBtree(commits, pageOwners(Database, dbFile)))) console.log(line);
}
