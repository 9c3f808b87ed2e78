import { enrichSession, mergeSdkFacts } from '../../src/domain/enrichment/session';
import type { SdkFacts } from '../../src/domain/session/sdk-facts';

const base: SdkFacts = {
  source: 'web',
  device_id: 'dev-1',
  user_agent:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
};
const start = new Date('2026-11-20T12:00:00Z');

describe('enrichSession', () => {
  it('when the SDK saw webdriver and tampering, then device_risk with the conditions named', () => {
    const s = enrichSession(
      {
        ...base,
        automation: { webdriver: true, signals: ['headless_user_agent'] },
        tampering: ['browser_tampering_detected'],
      },
      '8.8.8.8',
      start,
      {},
    );
    expect(s.risk_signals.device_risk).toBe(true);
    expect(s.risk_signal_details.device).toEqual(['webdriver', 'headless_user_agent', 'browser_tampering_detected']);
  });

  it('when the address is located without a postal code, then zip_code is present and empty; an unlocated one has no location', () => {
    const located = { country_code: 'GB', continent: 'EU' as const, city: 'London', latitude: 51.5, longitude: -0.1 };
    expect(enrichSession(base, '81.2.69.142', start, { location: located }).location).toEqual({
      ...located,
      zip_code: '',
    });
    expect(
      enrichSession(base, '81.2.69.142', start, { location: { ...located, zip_code: 'SW1A 1AA' } }).location.zip_code,
    ).toBe('SW1A 1AA');
    expect(enrichSession(base, '10.0.0.1', start, {}).location).toEqual({});
  });

  it('when nothing suspicious was seen, then no device risk', () => {
    const s = enrichSession(
      { ...base, automation: { webdriver: false, signals: [] }, tampering: [] },
      '8.8.8.8',
      start,
      {},
    );
    expect(s.risk_signals.device_risk).toBe(false);
    expect(s.risk_signal_details.device).toEqual([]);
  });

  it('when WebRTC reveals another public address, then spoofed_ip; a private or the same address does not count', () => {
    expect(enrichSession({ ...base, webrtc_ips: ['203.0.113.9'] }, '8.8.8.8', start, {}).risk_signals.spoofed_ip).toBe(
      false,
    ); // TEST-NET is not public
    expect(enrichSession({ ...base, webrtc_ips: ['81.2.69.142'] }, '8.8.8.8', start, {}).risk_signals.spoofed_ip).toBe(
      true,
    );
    expect(
      enrichSession({ ...base, webrtc_ips: ['192.168.1.4', '8.8.8.8'] }, '8.8.8.8', start, {}).risk_signals.spoofed_ip,
    ).toBe(false);
  });

  it('when the network is a hosting one, then datacenter with hosting_asn', () => {
    const s = enrichSession(base, '8.8.8.8', start, { network: { asn: 15169, connection_type: 'hosting' } });
    expect(s.risk_signals.datacenter).toBe(true);
    expect(s.risk_signal_details.network).toEqual(['hosting_asn']);
  });

  it('when a web session, then mobile is {} and source_version null; a native one keeps its mobile facts', () => {
    expect(enrichSession({ ...base, source_version: '1.0' }, '8.8.8.8', start, {})).toMatchObject({
      mobile: {},
      source_version: null,
    });
    const ios = enrichSession(
      { source: 'ios', source_version: '2.3.0', device_id: 'd', mobile: { brand: 'Apple', rooted: true } },
      '8.8.8.8',
      start,
      {},
    );
    expect(ios.source_version).toBe('2.3.0');
    expect(ios.mobile).toMatchObject({ brand: 'Apple', boot_count: null });
    expect(ios.risk_signal_details.device).toEqual(['rooted_device']);
  });
});

describe('mergeSdkFacts', () => {
  it('when a later post comes, then counts never go down, identity stays and findings accumulate', () => {
    const first: SdkFacts = { ...base, browser_fingerprint: 'fp1', events: { mouse: 10, click: 2 }, tampering: ['a'] };
    const later: SdkFacts = {
      source: 'android',
      device_id: 'other',
      browser_fingerprint: 'fp2',
      events: { mouse: 4, click: 5, keyboard: 3 },
      tampering: ['b'],
      automation: { webdriver: true },
    };
    const merged = mergeSdkFacts(first, later);
    expect(merged).toMatchObject({
      source: 'web',
      device_id: 'dev-1',
      browser_fingerprint: 'fp1',
      user_agent: base.user_agent,
    });
    expect(merged.events).toEqual({ mouse: 10, click: 5, keyboard: 3 });
    expect(merged.tampering).toEqual(['a', 'b']);
    expect(merged.automation).toEqual({ webdriver: true });
  });

  it('when a later post carries input counts, then each is the larger of the two, as event counts are', () => {
    const first: SdkFacts = { ...base, input: { key_intervals: 12, fast_key_intervals: 12, centred_clicks: 1 } };
    const later: SdkFacts = { ...base, input: { key_intervals: 3, fast_key_intervals: 0, pointer_clicks: 2 } };
    expect(mergeSdkFacts(first, later).input).toEqual({
      key_intervals: 12,
      fast_key_intervals: 12,
      centred_clicks: 1,
      pointer_clicks: 2,
    });
    expect(mergeSdkFacts(base, { ...base }).input).toBeUndefined();
  });
});
