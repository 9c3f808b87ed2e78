/** true_country_code and the relay connection type: the rules over plain facts. */
import { connectionType } from '../../src/domain/enrichment/connection-type';
import { trueCountry, type TrueCountryEvidence } from '../../src/domain/enrichment/true-country';

const base: TrueCountryEvidence = { exitCountry: 'NL', connectionType: 'isp', lists: new Set(), leakedCountries: [] };

describe('trueCountry', () => {
  it.each<[string, Partial<TrueCountryEvidence>, string | undefined]>([
    ['nothing else is known', {}, 'NL'],
    ['a leaked address lies in another country', { leakedCountries: ['NL', 'FR'] }, 'FR'],
    ['a leaked address lies in the exit’s country', { leakedCountries: ['NL'] }, 'NL'],
    ['there is no exit country, only a leaked one', { exitCountry: undefined, leakedCountries: ['FR'] }, 'FR'],
    ['a hosting exit and a Berlin clock', { connectionType: 'hosting', browserTimezone: 'Europe/Berlin' }, 'DE'],
    [
      'a VPN-listed exit and a Stockholm clock',
      { lists: new Set(['vpn'] as const), browserTimezone: 'Europe/Stockholm' },
      'SE',
    ],
    [
      'a Tor exit and a clock its country keeps',
      { lists: new Set(['tor'] as const), browserTimezone: 'Europe/Amsterdam' },
      'NL',
    ],
    ['a Tor exit and a UTC clock (no country)', { lists: new Set(['tor'] as const), browserTimezone: 'Etc/UTC' }, 'NL'],
    ['a Tor exit and an unknown zone', { lists: new Set(['tor'] as const), browserTimezone: 'Mars/Olympus' }, 'NL'],
    ['an ordinary network and a far clock (a traveller)', { browserTimezone: 'America/New_York' }, 'NL'],
    [
      'a relay egress on a VPN list and a far clock',
      {
        connectionType: 'private_relay',
        lists: new Set(['relay', 'vpn'] as const),
        browserTimezone: 'America/New_York',
      },
      'NL',
    ],
  ])('when %s, then the true country follows', (_, evidence, expected) => {
    expect(trueCountry({ ...base, ...evidence })).toBe(expected);
  });
});

describe('connectionType', () => {
  const hosting = new Set([13335]);
  it('when the address is on the relay list, then private_relay, even in a hosting AS', () => {
    expect(connectionType(13335, 'Cloudflare, Inc.', hosting, new Set(['relay']))).toBe('private_relay');
    expect(connectionType(36183, 'Akamai Technologies, Inc.', hosting, new Set(['relay', 'vpn']))).toBe(
      'private_relay',
    );
  });
  it('when it is not, then hosting by AS and the rest by name, as before', () => {
    expect(connectionType(13335, 'Cloudflare, Inc.', hosting, new Set(['vpn']))).toBe('hosting');
    expect(connectionType(36183, 'Akamai Technologies, Inc.', hosting)).toBe('isp');
  });
});
