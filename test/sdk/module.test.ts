/**
 * The web SDK's ES module API outside a browser: importing it does nothing, a wrong call is
 * refused with a message naming what is missing, and session() before load() rejects. (In a
 * browser: test/packages/install.test.ts, through the installed package.)
 */
import { load, reinitialize, session } from '../../packages/web/src';

describe('load', () => {
  it('when the project id is missing, then it throws a TypeError naming projectId', () => {
    expect(() => load({ endpoint: 'https://trustgate.example.com' } as never)).toThrow(/projectId/);
  });

  it('when the endpoint is not an http(s) origin, then it throws a TypeError naming endpoint', () => {
    for (const endpoint of [undefined, '', 'trustgate.example.com', 'javascript:alert(1)']) {
      expect(() => load({ projectId: 'p', endpoint } as never)).toThrow(/endpoint/);
    }
  });

  it('when called outside a browser, then it throws instead of starting', () => {
    expect(() => load({ projectId: 'p', endpoint: 'https://trustgate.example.com' })).toThrow(/in a browser/);
  });
});

describe('session and reinitialize', () => {
  it('when load was not called, then they reject naming load', async () => {
    await expect(session()).rejects.toThrow(/call load/);
    await expect(reinitialize()).rejects.toThrow(/call load/);
  });
});
