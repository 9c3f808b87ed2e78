'use strict';
// The identity configurations of the detection benchmark: persistent playwright profiles (headful
// under Xvfb when it is there), each visit ending in POST /session/authenticate
// ?accounts_linked=true with its own account, the match types read from linked_accounts[].match_type.
const fs = require('node:fs');
const { BASE_ARGS, CHROMIUM, freshFolder, withDisplay } = require('./context');
const { linkCase } = require('./report');
const { signUpOverCdp } = require('./tools');

/**
 * Runs the cases: two profiles of one browser (a `device` link, never `browser`), the same
 * profile again (the control: `browser`), one profile before and after clearing the site's
 * cookies and storage (`device`, no `browser`), one profile with its time zone and language
 * changed (`device`). Returns the cases and the count of `browser` links between accounts of
 * different profiles (target 0).
 */
async function identity(bench, display) {
  const { chromium } = require('playwright-core');
  const identities = [];
  const accountProfile = new Map(); // account id → the profile folder it was used in
  let crossProfileBrowserLinks = 0;

  /**
   * One visit in a persistent profile (driven over the DevTools Protocol: these configurations
   * measure the links, not the bot score), then the authenticate with `accountId`. Returns the
   * linked accounts.
   */
  async function profileVisit(profile, accountId, { locale, timezoneId, clearStorage } = {}) {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: !display,
      args: BASE_ARGS,
      env: withDisplay(display),
      ...(locale ? { locale } : {}),
      ...(timezoneId ? { timezoneId } : {}),
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      if (clearStorage) {
        // What "clear browsing data" does to the site: its cookies and its storage.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Storage.clearDataForOrigin', { origin: bench.customer.origin, storageTypes: 'all' });
        await context.clearCookies();
      }
      const sessionId = await signUpOverCdp(page, bench.customer.origin);
      const response = await fetch(`${bench.trustgate.origin}/session/authenticate?accounts_linked=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': bench.project.api_key },
        body: JSON.stringify({ session_id: sessionId, account: { id: accountId } }),
      });
      const r = await response.json();
      if (!response.ok) throw new Error(`authenticate answered ${response.status}: ${r.message}`);
      accountProfile.set(accountId, profile);
      for (const l of r.linked_accounts ?? [])
        if (l.match_type.includes('browser') && accountProfile.get(l.account_id) !== profile)
          crossProfileBrowserLinks++;
      return r.linked_accounts ?? [];
    } finally {
      await context.close();
    }
  }

  const expectLink = (name, linked, other, want) => identities.push(linkCase(name, linked, other, want));
  const profiles = [];
  try {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((label) => (profiles.push(freshFolder(label)), profiles.at(-1)));
    await profileVisit(a, 'profile-a');
    const linkedB = await profileVisit(b, 'profile-b');
    expectLink('two profiles, one browser, one machine', linkedB, 'profile-a', { device: true, browser: false });
    const again = await profileVisit(a, 'profile-a-again');
    expectLink('one profile, a second visit (control)', again, 'profile-a', { browser: true, device: true });
    await profileVisit(c, 'before-clear');
    const cleared = await profileVisit(c, 'after-clear', { clearStorage: true });
    expectLink('one profile, site cookies and storage cleared', cleared, 'before-clear', {
      device: true,
      browser: false,
    });
    await profileVisit(d, 'tz-before', { locale: 'en-US', timezoneId: 'Europe/London' });
    const moved = await profileVisit(d, 'tz-after', { locale: 'fr-FR', timezoneId: 'Asia/Tokyo' });
    expectLink('one profile, time zone and language changed', moved, 'tz-before', { device: true });
  } catch (error) {
    identities.push({ name: 'identity configurations', expected: '-', found: `failed: ${error.message}`, pass: false });
  } finally {
    for (const p of profiles) fs.rmSync(p, { recursive: true, force: true });
  }
  return { identities, crossProfileBrowserLinks };
}

module.exports = { identity };
