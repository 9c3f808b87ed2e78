'use strict';
// The detection benchmark's report: pure functions over the rows the run collected (index.js
// says what each configuration is). Tested in test/scripts/bench-detection.test.ts.

/** Flagged by Trustgate: device_risk raised, a bot score of 0.5 or more, or the decision Fake. */
const flagged = (r) => Boolean(r.device_risk || r.bot >= 0.5 || r.decision === 'Fake');

/** Flagged by BotD, in the same page: its detect() said bot. Browserless rows have no BotD. */
const botdFlagged = (r) => r.botd?.bot === true;

/** The BotD cell: `bot (kind)`, `not bot`, what went wrong, or `-` where no browser ran. */
function botdCell(r) {
  if (!r.botd) return '-';
  if (r.botd.bot === true) return `bot (${r.botd.botKind})`;
  if (r.botd.bot === false) return 'not bot';
  return r.botd.error ?? 'no result';
}

/**
 * The counts of the summary line over the configurations that ran: `caught` and `botd` of the
 * `automated` ones, `humanFlagged` and `humanBotd` of the `humans`; `skipped` ran not.
 */
function tally(results) {
  const ran = results.filter((r) => !r.skipped);
  const automated = ran.filter((r) => r.kind === 'automated');
  const humans = ran.filter((r) => r.kind === 'human');
  return {
    automated: automated.length,
    caught: automated.filter(flagged).length,
    botd: automated.filter(botdFlagged).length,
    humans: humans.length,
    humanFlagged: humans.filter(flagged).length,
    humanBotd: humans.filter(botdFlagged).length,
    skipped: results.length - ran.length,
  };
}

/** `caught N/M, BotD K/M, human false positives H/P (BotD: H2/P)`, n/a where no human ran. */
function summary(results) {
  const t = tally(results);
  const humans = t.humans
    ? `${t.humanFlagged}/${t.humans} (BotD: ${t.humanBotd}/${t.humans})`
    : 'n/a (BotD: n/a; the human baseline did not run)';
  return `caught ${t.caught}/${t.automated}, BotD ${t.botd}/${t.automated}, human false positives ${humans}`;
}

/**
 * One identity case: the link to account `other` among `linked` (linked_accounts of an
 * authenticate), and whether each match type in `want` is present (true) or absent (false).
 */
function linkCase(name, linked, other, want) {
  const link = linked.find((l) => l.account_id === other);
  const found = link ? link.match_type : [];
  const pass = Object.entries(want).every(([type, present]) => found.includes(type) === present);
  const expected = Object.entries(want)
    .map(([type, present]) => `${present ? '' : 'no '}${type}`)
    .join(', ');
  return { name, expected, found: found.join(' ') || '(no link)', score: link?.score, pass };
}

/** The table: one row a configuration, its last column (conditions, note) left unpadded. */
function table(results) {
  const rows = [['configuration', 'device_risk', 'bot', 'decision', 'BotD', 'device conditions']];
  for (const r of results) {
    if (r.skipped) rows.push([r.name, '-', '-', '-', '-', `skipped: ${r.skipped}`]);
    else
      rows.push([
        r.name,
        `${r.device_risk} (${r.device_risk_score})`,
        r.bot.toFixed(2),
        r.decision,
        botdCell(r),
        [r.conditions.join(' ') || 'none', ...(r.note ? [`(${r.note})`] : [])].join(' '),
      ]);
  }
  const last = rows[0].length - 1;
  const widths = rows[0].slice(0, last).map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  return rows.map((row) => row.map((cell, i) => (i < last ? cell.padEnd(widths[i]) : cell)).join(' | '));
}

/**
 * The printed report: the table, the summary line (Trustgate's and BotD's catches over the
 * automated configurations that ran, and their false positives over the human runs), the
 * identity cases and the `browser` links between different profiles.
 */
function report({ results, identities, crossProfileBrowserLinks }) {
  const lines = table(results);
  lines.push(`\n${summary(results)}`);
  const { skipped } = tally(results);
  if (skipped) lines.push(`${skipped} configuration(s) skipped`);
  lines.push('\nidentity | expected | match types found (score) | as expected');
  for (const i of identities)
    lines.push(
      `${i.name} | ${i.expected} | ${i.found}${i.score === undefined ? '' : ` (${i.score.toFixed(2)})`} | ${i.pass ? 'yes' : 'NO'}`,
    );
  lines.push(
    `\nidentity: ${identities.filter((i) => i.pass).length}/${identities.length} as expected; ` +
      `browser links between different profiles: ${identities.length ? crossProfileBrowserLinks : 'n/a'} (target 0)`,
  );
  return lines.join('\n');
}

module.exports = { report, summary, tally, botdCell, botdFlagged, flagged, linkCase };
