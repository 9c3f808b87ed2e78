import net from 'node:net';
import { isPublicIp, normaliseIp } from '../../src/domain/enrichment/ip';

describe('isPublicIp', () => {
  it.each(['8.8.8.8', '81.2.69.142', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('when %s, then public', (ip) => {
    expect(isPublicIp(ip)).toBe(true);
  });
  it.each([
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '127.0.0.1',
    '169.254.1.1',
    '100.64.0.1',
    '203.0.113.9',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '2001:db8::1',
    'nope',
  ])('when %s, then not public', (ip) => {
    expect(isPublicIp(ip)).toBe(false);
  });
  it.each([
    ['2002:808:808::1', '6to4 of 8.8.8.8'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo: server 65.54.227.120, client 8.8.8.8 (XOR-ed)'],
    ['64:ff9b::808:808', 'NAT64 of 8.8.8.8'],
  ])('when %s (%s), then public: the IPv4 it carries is', (ip) => {
    expect(isPublicIp(ip)).toBe(true);
  });
  it.each([
    ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1 (XOR-ed)'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo, client 10.0.0.1 (XOR-ed)'],
    ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'Teredo, server 10.0.0.1'],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'],
    ['64:ff9b:1::808:808', 'local-use NAT64 (64:ff9b:1::/48)'],
    ['::127.0.0.1', 'IPv4-compatible (::/96), dotted'],
    ['::7f00:1', 'IPv4-compatible (::/96)'],
    ['::8.8.8.8', 'IPv4-compatible, of a public address: ::/96 is refused whatever it carries'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:0:7f00:1', 'IPv4-translated (::ffff:0:0:0/96)'],
    ['fd00:ec2::254', 'the EC2 metadata service over IPv6 (unique local)'],
  ])('when %s (%s), then not public', (ip) => {
    expect(isPublicIp(ip)).toBe(false);
  });
  it('when an address is IPv4-mapped or not canonical, then it is normalised', () => {
    expect(normaliseIp('::8.8.8.8')).toBe('::808:808');
    expect(normaliseIp('::ffff:8.8.8.8')).toBe('8.8.8.8');
    expect(normaliseIp('2001:4860:4860:0:0:0:0:8888')).toBe('2001:4860:4860::8888');
    expect(normaliseIp('not-an-ip')).toBe('not-an-ip');
  });
});

describe('the test setup', () => {
  it('when a test connects outside loopback, then the connection is refused before it is made', () => {
    expect(() => net.connect({ host: '10.0.0.1', port: 9 })).toThrow(/tests use loopback only/);
    expect(() => net.connect(9, '93.184.216.34')).toThrow(/tests use loopback only/);
  });
  it('when a name resolves outside loopback, then the connection is refused once the look-up has answered, before it is made', async () => {
    const lookup: net.LookupFunction = (_host, options, callback) =>
      options.all ? callback(null, [{ address: '93.184.216.34', family: 4 }]) : callback(null, '93.184.216.34', 4);
    const socket = net.connect({ host: 'example.com', port: 9, lookup });
    const error = await new Promise<Error>((resolve) => socket.once('error', resolve));
    expect(error.message).toBe(
      'test setup: connection to example.com (93.184.216.34) refused; tests use loopback only',
    );
  });
});
