import fs from 'node:fs';
import path from 'node:path';
import { enrichSession, type IpFacts } from '../../src/domain/enrichment/session';
import type { FingerprintComponents } from '../../src/api-types';
import { deriveFingerprint } from '../../src/domain/session/fingerprint';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';
import { MAC_GPU, macComponents } from '../helpers/fingerprint';
import { EMPTY_HISTORY, evaluateSignals, type IpListName, type SignalHistory } from '../../src/domain/signals';
import { distanceKm, zoneOffsetMinutes, zonesOfCountry } from '../../src/domain/signals/geo';
import { deviceBotEvidence, deviceRiskConditions, tamperingFindings } from '../../src/domain/signals/device';
import { COUNTED_UP_TO } from '../../src/domain/signals/history';
import { noisyOr } from '../../src/domain/numbers';

describe('signal geometry', () => {
  it('when London and New York are measured, then about 5,570 km apart', () => {
    expect(distanceKm(51.5074, -0.1278, 40.7128, -74.006)).toBeGreaterThan(5540);
    expect(distanceKm(51.5074, -0.1278, 40.7128, -74.006)).toBeLessThan(5600);
    expect(distanceKm(10, 10, 10, 10)).toBe(0);
  });

  it('when a zone observes summer time, then its offset depends on the date', () => {
    expect(zoneOffsetMinutes('Europe/London', new Date('2026-01-15T12:00:00Z'))).toBe(0);
    expect(zoneOffsetMinutes('Europe/London', new Date('2026-07-15T12:00:00Z'))).toBe(60);
    expect(zoneOffsetMinutes('Asia/Tokyo', new Date('2026-07-15T12:00:00Z'))).toBe(540);
    expect(zoneOffsetMinutes('America/St_Johns', new Date('2026-01-15T12:00:00Z'))).toBe(-210);
    expect(zoneOffsetMinutes('Not/AZone', new Date())).toBeUndefined();
  });

  it('when a zone changes its offset, then the minute before and the minute of the change each get their own (the offsets are kept by minute)', () => {
    // New York springs forward at 07:00 UTC on 8 March 2026; asked twice each, in either order.
    for (const order of [0, 1]) {
      const before = new Date(`2026-03-08T06:59:${order ? '59' : '00'}Z`);
      const after = new Date(`2026-03-08T07:00:${order ? '00' : '59'}Z`);
      expect(zoneOffsetMinutes('America/New_York', before)).toBe(-300);
      expect(zoneOffsetMinutes('America/New_York', after)).toBe(-240);
      expect(zoneOffsetMinutes('America/New_York', before)).toBe(-300);
    }
    // Gaza changed at 00:01 local time (2011-04-01, UTC+2 to UTC+3): not on a quarter hour of UTC.
    expect(zoneOffsetMinutes('Asia/Gaza', new Date('2011-03-31T22:00:30Z'))).toBe(120);
    expect(zoneOffsetMinutes('Asia/Gaza', new Date('2011-03-31T22:01:00Z'))).toBe(180);
  });

  it('when a country has several zones, then all are known', () => {
    expect(zonesOfCountry('US').has('America/Los_Angeles')).toBe(true);
    expect(zonesOfCountry('GB').has('Asia/Tokyo')).toBe(false);
  });

  it('when evidence is combined, then never lower than its strongest piece and never above 1', () => {
    expect(noisyOr([])).toBe(0);
    expect(noisyOr([0.5, 0.5])).toBeCloseTo(0.75);
    expect(noisyOr([1, 0.2])).toBe(1);
    expect(noisyOr([2, -1])).toBe(1);
  });
});

/**
 * docs/scoring.md's signal tables against the code: for every condition documented with a
 * single weight, a session where that condition alone holds scores exactly that weight on its
 * signal and names the condition. A condition without a way to produce it here fails the test.
 */
describe("docs/scoring.md's risk signal tables", () => {
  const DOC = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'scoring.md'), 'utf8');
  const START = new Date('2026-07-15T12:00:00Z');
  const LONDON: IpFacts = {
    location: {
      continent: 'EU',
      country_code: 'GB',
      city: 'London',
      timezone: 'Europe/London',
      latitude: 51.5,
      longitude: -0.12,
    },
    network: { asn: 5089, service_provider: 'Virgin Media', connection_type: 'isp' },
  };
  const person: SdkFacts = {
    source: 'web',
    device_id: 'd-1',
    user_agent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
    languages: ['en-GB'],
    timezone: 'Europe/London',
    events: { mouse: 50, click: 3, keyboard: 20, touch: 0, clipboard: 0 },
  };
  const ios: SdkFacts = { ...person, source: 'ios', source_version: '1.0.0', user_agent: undefined, mobile: {} };
  /** The person's post with the components its facts were read beside, one of them changed by `over`. */
  const withComponents = (over: Partial<FingerprintComponents> = {}): SdkFacts => {
    const components = macComponents(over);
    return {
      ...person,
      gpu: MAC_GPU,
      screen: { width: 1728, height: 1117 },
      cpu_cores: 8,
      memory: 8,
      fingerprint_components: components,
      browser_fingerprint: deriveFingerprint(components),
    };
  };

  interface Setup {
    sdk?: SdkFacts;
    ip?: IpFacts;
    lists?: IpListName[];
    history?: Partial<SignalHistory>;
  }
  const hosting = { ...LONDON, network: { ...LONDON.network, connection_type: 'hosting' as const } };
  const SETUPS: Record<string, Setup> = {
    tor_exit_node: { lists: ['tor'] },
    hosting_asn: { ip: hosting, sdk: { ...person, events: {} } },
    datacenter_ip_list: { lists: ['datacenter'] },
    vpn_ip_list: { lists: ['vpn'] },
    hosting_network_residential_device: { ip: hosting },
    timezone_far_from_ip: { sdk: { ...person, timezone: 'Asia/Tokyo' } },
    proxy_ip_list: { lists: ['proxy'] },
    private_relay: { ip: { ...LONDON, network: { ...LONDON.network, connection_type: 'private_relay' } } },
    webrtc_ip_mismatch: { sdk: { ...person, webrtc_ips: ['8.8.4.4'] } },
    ip_used_by_fraud: { history: { fraudOnIp: 1 } },
    fraud_ip_list: { lists: ['fraud'] },
    timezone_mismatch: { sdk: { ...person, timezone: 'Asia/Tokyo', languages: ['en'] } },
    language_mismatch: { sdk: { ...person, languages: ['ja'] } },
    mobile_device_on_hosting_network: { sdk: ios, ip: hosting },
    geolocation_far_from_ip: { sdk: { ...person, geolocation: { latitude: 35.68, longitude: 139.69 } } },
    timezone_spoofing: { sdk: { ...person, tampering: ['timezone_spoofing'] } },
    webdriver: { sdk: { ...person, automation: { webdriver: true, signals: [] } } },
    robotic_typing: { sdk: { ...person, input: { key_intervals: 18, fast_key_intervals: 18 } } },
    centred_clicks: { sdk: { ...person, input: { pointer_clicks: 2, centred_clicks: 2 } } },
    emulator: { sdk: { ...ios, mobile: { emulator: true } } },
    rooted_device: { sdk: { ...ios, mobile: { rooted: true } } },
    user_agent_platform_mismatch: { sdk: { ...person, client_hints: { platform: 'Windows' } } },
    replayed_payload: { sdk: { ...person, received: { user_agent: person.user_agent, integrity: 'replayed' } } },
    forged_payload: { sdk: { ...person, received: { user_agent: person.user_agent, integrity: 'forged' } } },
    user_agent_header_mismatch: { sdk: { ...person, received: { user_agent: 'curl/8.5.0', integrity: 'valid' } } },
    client_hints_header_mismatch: {
      sdk: {
        ...person,
        received: { user_agent: person.user_agent, sec_ch_ua: '"Chromium";v="142"', integrity: 'valid' },
      },
    },
    accept_language_mismatch: {
      sdk: {
        ...person,
        received: { user_agent: person.user_agent, accept_language: 'de-DE,de;q=0.9', integrity: 'valid' },
      },
    },
    events_outpace_challenge: {
      sdk: {
        ...person,
        received: {
          user_agent: person.user_agent,
          integrity: 'valid',
          first_post: { challenge_age_ms: 50, events: { mouse: 200 } },
        },
      },
    },
    fingerprint_mismatch: {
      sdk: {
        ...withComponents(),
        received: { user_agent: person.user_agent, integrity: 'valid', claimed_fingerprint: 'made-up' },
      },
    },
    'fingerprint_inconsistent:gpu': { sdk: withComponents({ gpu: 'Mali-G78' }) },
    'fingerprint_inconsistent:screen': { sdk: withComponents({ screen: [2560, 1440, 24] }) },
    'fingerprint_inconsistent:cores': { sdk: withComponents({ cores: 16 }) },
    'fingerprint_inconsistent:memory': { sdk: withComponents({ memory: 4 }) },
    'fingerprint_inconsistent:math': { sdk: withComponents({ math: [] }) },
    'fingerprint_inconsistent:platform': { sdk: withComponents({ platform: 'Win32' }) },
  };

  function run(setup: Setup) {
    const sdk = setup.sdk ?? person;
    const session = enrichSession(sdk, '81.2.69.142', START, setup.ip ?? LONDON);
    return evaluateSignals({
      now: START,
      sdk,
      session,
      ipLists: new Set(setup.lists ?? []),
      history: { ...EMPTY_HISTORY, ...setup.history },
    });
  }

  const rows: { signal: string; condition: string; weight: number }[] = [];
  let signal: string | undefined;
  for (const line of DOC.split('\n')) {
    const heading = /^### `([a-z_]+)`/.exec(line);
    if (heading) signal = heading[1];
    else if (/^## /.test(line)) signal = undefined;
    const row = /^\| `([a-z_]+(?::[a-z_]+)?)` \| ([0-9.]+) \|/.exec(line);
    // Both groups are required by the pattern.
    if (signal && row) rows.push({ signal, condition: row[1]!, weight: Number(row[2]) });
  }

  it('when the doc is read, then it documents the single-weight conditions of every signal', () => {
    expect(rows.length).toBeGreaterThanOrEqual(Object.keys(SETUPS).length);
  });

  it.each(rows)(
    'when only `$condition` holds, then $signal scores $weight and names it',
    ({ signal: name, condition, weight }) => {
      const setup = SETUPS[condition];
      if (!setup) throw new Error(`no setup for the documented condition ${condition}: add one`);
      const result = run(setup);
      expect([...result.risk_signal_details.network, ...result.risk_signal_details.device]).toContain(condition);
      expect(result.risk_signal_scores[name as keyof typeof result.risk_signal_scores]).toBeCloseTo(weight, 6);
    },
  );

  it('when nothing holds, then every scored signal is 0', () => {
    expect(Object.values(run({}).risk_signal_scores).every((s) => s === 0)).toBe(true);
  });

  it("when the device_risk table names a condition's bot term, then it is the term the code gives it", () => {
    const table = DOC.split('### `device_risk` (device)')[1]!.split('\n### ')[0]!;
    const documented = [...table.matchAll(/^\| (.+?) \| [0-9.]+(?: each)? \| (automation|tampering|–) \|/gm)];
    expect(documented.length).toBeGreaterThanOrEqual(11);
    const sample = (cell: string, name: string): SdkFacts => {
      if (cell.startsWith('tampering')) return { ...person, tampering: [name] };
      if (cell.startsWith('automation signals'))
        return { ...person, automation: { webdriver: false, signals: [name] } };
      if (name.startsWith('oem_')) return { ...ios, mobile: { [name.replace(/_failed$/, '')]: 'failed' } };
      const setup = SETUPS[name];
      if (!setup?.sdk) throw new Error(`no setup for the documented condition ${name}: add one`);
      return setup.sdk;
    };
    const wrong = documented.flatMap(([, cell, term]) =>
      [...cell!.matchAll(/`([^`]+)`/g)].flatMap(([, name]) => {
        const found = deviceRiskConditions(sample(cell!, name!)).find((c) => c.present && c.name === name);
        const code = found ? (found.bot ?? '–') : 'absent';
        return code === term ? [] : [`${name}: doc ${term}, code ${code}`];
      }),
    );
    expect(wrong).toEqual([]);
  });
});

describe('deviceBotEvidence', () => {
  const person: SdkFacts = { source: 'web', device_id: 'd-1', automation: { webdriver: false, signals: [] } };

  it('when the SDK reports tampering, then its strength is those conditions scored as device_risk scores them', () => {
    const stealth = { ...person, tampering: ['browser_tampering_detected', 'navigator_getters_overridden'] };
    expect(deviceBotEvidence(stealth)).toEqual({ automation: false, tampering: 0.96 });
    expect(deviceBotEvidence({ ...person, tampering: ['worker_mismatch:languages'] })).toEqual({
      automation: false,
      tampering: 0.8,
    });
  });

  it('when the post is forged, replayed or its headers contradict it, then each counts as tampering at its own weight', () => {
    const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
    const web = { ...person, user_agent: ua, languages: ['en-GB'] };
    const received = (r: object) =>
      deviceBotEvidence({ ...web, received: { user_agent: ua, integrity: 'valid', ...r } });
    expect(received({ integrity: 'replayed' }).tampering).toBe(0.9);
    expect(received({ integrity: 'forged', user_agent: 'curl/8.5.0' }).tampering).toBe(0.96);
    expect(received({ sec_ch_ua: '"Chromium";v="142"' }).tampering).toBe(0.7);
    expect(received({ accept_language: 'de-DE' }).tampering).toBe(0.6);
    expect(received({})).toEqual({ automation: false, tampering: 0 });
  });

  it("when only what a person's device can show is found, then no bot evidence, though device_risk weighs it", () => {
    const ios: SdkFacts = { source: 'ios', source_version: '1.0.0', device_id: 'd-1' };
    const cases: SdkFacts[] = [
      { ...ios, mobile: { emulator: true, rooted: true, oem_app_integrity: 'failed', oem_device_integrity: 'failed' } },
      { ...ios, user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' },
      { ...person, automation: { webdriver: false, signals: ['unknown:plugins_length'] } },
      { ...person, tampering: ['browser_tampering_detected', 'timezone_spoofing'] },
    ];
    for (const sdk of cases) {
      expect(deviceBotEvidence(sdk)).toEqual({ automation: false, tampering: 0 });
      if (!sdk.tampering) expect(deviceRiskConditions(sdk).some((c) => c.present)).toBe(true);
    }
  });

  it("when webdriver or a known driver's signal is found, then automation, and no tampering", () => {
    expect(deviceBotEvidence({ ...person, automation: { webdriver: true, signals: [] } })).toEqual({
      automation: true,
      tampering: 0,
    });
    expect(
      deviceBotEvidence({ ...person, automation: { webdriver: false, signals: ['cdp:runtime_enabled'] } }),
    ).toEqual({
      automation: true,
      tampering: 0,
    });
  });
});

describe('tamperingFindings', () => {
  it('when the summary stands for a spoofed time zone alone, then neither counts (location_spoofing weighs it)', () => {
    expect(tamperingFindings(['browser_tampering_detected', 'timezone_spoofing'])).toEqual([]);
    expect(tamperingFindings(['timezone_spoofing'])).toEqual([]);
    expect(tamperingFindings([])).toEqual([]);
    expect(tamperingFindings(undefined)).toEqual([]);
  });

  it('when the summary comes with another finding or alone, then it counts with the others', () => {
    expect(tamperingFindings(['browser_tampering_detected', 'timezone_spoofing', 'worker_mismatch:languages'])).toEqual(
      ['browser_tampering_detected', 'worker_mismatch:languages'],
    );
    expect(tamperingFindings(['browser_tampering_detected'])).toEqual(['browser_tampering_detected']);
    expect(tamperingFindings(['navigator_getters_overridden'])).toEqual(['navigator_getters_overridden']);
  });
});

describe('how far the network counts are read (COUNTED_UP_TO)', () => {
  const scoresOf = (history: Partial<SignalHistory>) =>
    evaluateSignals({
      now: new Date('2026-11-26T12:00:00.000Z'),
      sdk: {} as SdkFacts,
      session: enrichSession({} as SdkFacts, '81.2.69.142', new Date('2026-11-26T12:00:00.000Z'), {}),
      ipLists: new Set(),
      history: { ...EMPTY_HISTORY, ...history },
    }).risk_signal_scores;

  it.each(Object.entries(COUNTED_UP_TO))(
    'when %s is past %i, then no score changes; one fewer, then one does',
    (count, upTo) => {
      // fraudOnIp and fraudOnBlock are each the sum of two counts read up to the limit.
      expect(scoresOf({ [count]: upTo + 1000 })).toEqual(scoresOf({ [count]: upTo }));
      expect(scoresOf({ [count]: upTo - 1 })).not.toEqual(scoresOf({ [count]: upTo }));
    },
  );
});
