'use strict';
// The automated configurations of the detection benchmark that use no browser at all: Node's
// fetch posting to /ingest/session a real browser's post copied, or one made by hand.
const { randomUUID } = require('node:crypto');

/** Posts `body` to /ingest/session as a script would, with the user agent the body claims. */
async function ingest(bench, body) {
  const response = await fetch(`${bench.trustgate.origin}/ingest/session`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-project-id': bench.project.project_id,
      'user-agent': body.user_agent ?? '',
    },
    body: JSON.stringify(body),
  });
  return response.ok;
}

/** The SDK's first post of a real browser, copied and posted again as a new session. */
async function replay(bench, captured) {
  const name = 'http replay (copied post, new session)';
  if (!captured?.first) return bench.results.push({ name, kind: 'automated', skipped: 'no post was captured' });
  const body = { ...JSON.parse(captured.first), session_id: randomUUID() };
  await bench.evaluate(name, 'automated', (await ingest(bench, body)) ? body.session_id : undefined);
}

/** A clean-looking payload written by hand, unsigned, as a script would. */
async function handMade(bench) {
  const body = {
    session_id: randomUUID(),
    source: 'web',
    source_version: null,
    device_id: randomUUID(),
    user_agent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
    languages: ['en-US', 'en'],
    timezone: 'UTC',
    screen: { width: 1920, height: 1080 },
    cpu_cores: 8,
    memory: 8,
    automation: { webdriver: false, signals: [] },
    tampering: [],
    events: { mouse: 180, click: 4, keyboard: 30, touch: 0, clipboard: 0 },
  };
  await bench.evaluate('http hand-made', 'automated', (await ingest(bench, body)) ? body.session_id : undefined);
}

module.exports = { handMade, replay };
