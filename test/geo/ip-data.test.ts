/** The shipped IP data, read for real: known addresses land where they should. */
import { sharedIpData } from '../helpers/app';

describe('the shipped IP data', () => {
  it.each([
    ['8.8.8.8', { country_code: 'US', continent: 'NA' }, { asn: 15169, connection_type: 'hosting' }],
    ['1.1.1.1', { continent: 'OC' }, { asn: 13335, connection_type: 'hosting' }],
    ['52.95.110.1', { country_code: 'US' }, { asn: 16509, connection_type: 'hosting' }],
    ['73.162.0.1', { country_code: 'US', timezone: 'America/Los_Angeles' }, { asn: 7922, connection_type: 'isp' }],
    ['81.2.69.142', { country_code: 'GB', continent: 'EU', timezone: 'Europe/London' }, { asn: 20712, connection_type: 'isp' }],
    ['2001:4860:4860::8888', { continent: 'NA' }, { asn: 15169, connection_type: 'hosting' }],
  ])('when %s is looked up, then its location and network are known', async (ip, location, network) => {
    const facts = (await sharedIpData()).lookup(ip);
    expect(facts.location).toMatchObject(location);
    expect(typeof facts.location?.latitude).toBe('number');
    expect(typeof facts.location?.timezone).toBe('string');
    expect(facts.network).toMatchObject(network);
    expect(facts.network?.service_provider).toEqual(expect.any(String));
    expect(facts.network?.subnet).toMatch(/^[0-9a-f.:]+\/\d+$/);
  });

  it('when the subnet is given, then it holds the address', async () => {
    const facts = (await sharedIpData()).lookup('8.8.8.8');
    const [net, bits] = facts.network!.subnet!.split('/');
    const toInt = (a: string) => a.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
    const size = 2 ** (32 - Number(bits));
    expect(toInt('8.8.8.8') - toInt(net)).toBeGreaterThanOrEqual(0);
    expect(toInt('8.8.8.8') - toInt(net)).toBeLessThan(size);
  });

  it.each(['10.1.2.3', '127.0.0.1', '192.168.1.10', '::1', 'fe80::1', 'not-an-ip'])('when a non-public address %s is looked up, then nothing is invented', async (ip) => {
    expect((await sharedIpData()).lookup(ip)).toEqual({});
  });

  it('when an IPv4-mapped IPv6 address is looked up, then it is read as IPv4', async () => {
    const data = await sharedIpData();
    expect(data.lookup('::ffff:8.8.8.8')).toEqual(data.lookup('8.8.8.8'));
  });
});
