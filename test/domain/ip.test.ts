import net from 'node:net';
import { isPublicIp, normaliseIp } from '../../src/domain/enrichment/ip';

describe('isPublicIp', () => {
  it.each(['8.8.8.8', '81.2.69.142', '2001:4860:4860::8888', '::ffff:8.8.8.8'])('when %s, then public', (ip) => {
    expect(isPublicIp(ip)).toBe(true);
  });
  it.each(['10.0.0.1', '172.16.5.4', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1', '203.0.113.9', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '2001:db8::1', 'nope'])(
    'when %s, then not public',
    (ip) => {
      expect(isPublicIp(ip)).toBe(false);
    },
  );
  it('when an address is IPv4-mapped or not canonical, then it is normalised', () => {
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
});
