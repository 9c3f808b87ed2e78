import { candidateAddress } from '../../packages/web/src/webrtc';

describe('candidateAddress', () => {
  it.each([
    [
      'candidate:842163049 1 udp 1677729535 203.0.113.7 56143 typ srflx raddr 0.0.0.0 rport 0 generation 0',
      '203.0.113.7',
    ],
    ['a=candidate:1 1 udp 2122260223 192.168.1.20 53744 typ host generation 0', '192.168.1.20'],
    ['candidate:2 1 udp 2122262783 2001:DB8::1 50000 typ host', '2001:db8::1'],
  ])('when the candidate is %s, then the address is %s', (candidate, address) => {
    expect(candidateAddress(candidate)).toBe(address);
  });

  it.each([
    'candidate:3 1 udp 2122260223 0c1f7c2e-7b8a-4d3e-9f1a-2b3c4d5e6f70.local 53744 typ host',
    'candidate:4 1 udp 2122260223 999.1.1.1 53744 typ host',
    'garbage',
  ])('when the candidate hides or mangles the address (%s), then none', (candidate) => {
    expect(candidateAddress(candidate)).toBeUndefined();
  });
});
