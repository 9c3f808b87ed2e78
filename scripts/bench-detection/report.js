'use strict';
// The detection benchmark's report: pure functions over the rows the run collected (index.js
// says what each configuration is). Tested in test/scripts/bench-detection.test.ts.

/** Flagged: device_risk raised, a bot score of 0.5 or more, or the decision Fake. */
const flagged = (r) => Boolean(r.device_risk || r.bot >= 0.5 || r.decision === 'Fake');

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

/**
 * The printed report: the table (configuration × signal), the detection rate over the automated
 * configurations that ran, the false positives over the human baseline, the identity cases and
 * the `browser` links between different profiles.
 */
function report({ results, identities, crossProfileBrowserLinks }) {
  const lines = [];
  const ran = results.filter((r) => !r.skipped);
  const rows = [['configuration', 'device_risk', 'bot', 'decision', 'device conditions']];
  for (const r of results) {
    if (r.skipped) rows.push([r.name, '-', '-', '-', `skipped: ${r.skipped}`]);
    else
      rows.push([
        r.name,
        `${r.device_risk} (${r.device_risk_score})`,
        r.bot.toFixed(2),
        r.decision,
        [...r.conditions, ...(r.note ? [`(${r.note})`] : [])].join(' '),
      ]);
  }
  const widths = rows[0].slice(0, 4).map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) lines.push(row.map((cell, i) => (i < 4 ? cell.padEnd(widths[i]) : cell)).join(' | '));
  const automated = ran.filter((r) => r.kind === 'automated');
  const humans = ran.filter((r) => r.kind === 'human');
  lines.push(
    `\ndetection: ${automated.filter(flagged).length}/${automated.length} automated configurations flagged; ` +
      `false positives: ${humans.length ? `${humans.filter(flagged).length}/${humans.length}` : 'n/a (human baseline skipped)'}; ` +
      `${results.length - ran.length} configuration(s) skipped`,
  );
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

module.exports = { report, linkCase, flagged };
