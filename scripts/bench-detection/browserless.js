'use strict';
// The automated configurations of the detection benchmark that use no browser at all: Node's
// fetch posting to /ingest/session what a script can make of a real browser's posts, or by hand.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { randomBytes, randomUUID } = require('node:crypto');

/**
 * The web SDK's own `bindChallenge` (packages/web/src/transport.ts, compiled here): the
 * SDK is open, so a forger signs exactly as it does, with the key the challenge hands out.
 */
function sdkBindChallenge() {
  const file = path.join(__dirname, '..', '..', 'packages', 'web', 'src', 'transport.ts');
  const { code } = require('esbuild').transformSync(fs.readFileSync(file, 'utf8'), { loader: 'ts', format: 'cjs' });
  const loaded = new Module(file);
  loaded._compile(code, file);
  return loaded.exports.bindChallenge;
}

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

/**
 * The re-signed forgery: a real browser's first post (its facts) with a new session_id and
 * device_id, a made-up browser_fingerprint and the event counts of that browser's last update,
 * bound to a fresh challenge with the SDK's own signing and posted moments after it. A valid
 * signature is the point (the row is skipped when the server's verdict is anything else): what
 * is left to catch it is what the post says, not how it is signed.
 */
async function resignedForgery(bench, name, captured) {
  if (!captured?.first || !captured.last)
    return bench.results.push({ name, kind: 'automated', skipped: 'no post was captured' });
  const { integrity: _used, ...facts } = JSON.parse(captured.first);
  const { events } = JSON.parse(captured.last);
  const bindChallenge = sdkBindChallenge();
  const asked = Date.now();
  const answer = await fetch(`${bench.trustgate.origin}/ingest/challenge`, {
    method: 'POST',
    headers: { 'x-project-id': bench.project.project_id },
  });
  const challenge = await answer.json();
  const forged = {
    ...facts,
    session_id: randomUUID(),
    device_id: randomUUID(),
    browser_fingerprint: randomBytes(Math.max(1, (facts.browser_fingerprint?.length ?? 16) >> 1)).toString('hex'),
    events,
  };
  const body = await bindChallenge(forged, challenge);
  const posted = await ingest(bench, body);
  const after = Date.now() - asked;
  if (!posted) return bench.results.push({ name, kind: 'automated', skipped: 'the forged post was refused' });
  const verdict = (await bench.sdkFacts(body.session_id)).received?.integrity;
  if (verdict !== 'valid')
    return bench.results.push({
      name,
      kind: 'automated',
      skipped: `the forged post was not valid (integrity ${verdict})`,
    });
  const e = events ?? {};
  const note = `integrity valid; mouse ${e.mouse} click ${e.click} keyboard ${e.keyboard}, ${after} ms after its challenge`;
  await bench.evaluate(name, 'automated', body.session_id, { note });
}

module.exports = { handMade, replay, resignedForgery };
