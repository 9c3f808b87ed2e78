import { parseUserAgent } from '../../src/domain/enrichment/user-agent';

const UA = {
  chromeMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

describe('parseUserAgent', () => {
  it('when desktop Chrome on macOS, then Chrome, desktop, Macintosh', () => {
    expect(parseUserAgent(UA.chromeMac)).toEqual({
      browser: { type: 'Chrome', version: '142.0.0.0' },
      device: { category: 'desktop', type: 'Macintosh', os: 'Mac OS 10.15.7' },
    });
  });

  it('when the user agent version is reduced and the hints carry the full version list, then the full version of that browser', () => {
    const grease = { brand: 'Not_A Brand', version: '24.0.0.0' };
    const hints = (list: { brand: string; version: string }[]) => ({ full_version_list: [grease, ...list] });
    expect(
      parseUserAgent(
        UA.chromeMac,
        hints([
          { brand: 'Chromium', version: '142.0.7444.176' },
          { brand: 'Google Chrome', version: '142.0.7444.175' },
        ]),
      ).browser,
    ).toEqual({
      type: 'Chrome',
      version: '142.0.7444.175',
    });
    const edge = UA.chromeWindows + ' Edg/124.0.0.0';
    // Edge's own version, never its Chromium engine's.
    expect(
      parseUserAgent(
        edge,
        hints([
          { brand: 'Chromium', version: '124.0.6367.91' },
          { brand: 'Microsoft Edge', version: '124.0.2478.67' },
        ]),
      ).browser.version,
    ).toBe('124.0.2478.67');
    expect(parseUserAgent(edge, hints([{ brand: 'Chromium', version: '124.0.6367.91' }])).browser.version).toBe(
      '124.0.0.0',
    );
    // Hints that contradict the user agent's major version are not believed.
    expect(
      parseUserAgent(UA.chromeMac, hints([{ brand: 'Google Chrome', version: '141.0.7390.1' }])).browser.version,
    ).toBe('142.0.0.0');
  });

  it("when Windows 11 sends client hints, then the OS is Windows 11, not the UA's 10", () => {
    expect(parseUserAgent(UA.chromeWindows).device.os).toBe('Windows 10');
    expect(parseUserAgent(UA.chromeWindows, { platform: 'Windows', platform_version: '15.0.0' }).device).toEqual({
      category: 'desktop',
      type: 'Windows PC',
      os: 'Windows 11',
    });
  });

  it('when iPhone Safari, then Mobile Safari on a mobile iPhone', () => {
    expect(parseUserAgent(UA.iphone)).toEqual({
      browser: { type: 'Mobile Safari', version: '17.4.1' },
      device: { category: 'mobile', type: 'iPhone', os: 'iOS 17.4.1' },
    });
  });

  it('when Android Chrome, then a mobile Google Pixel 8', () => {
    expect(parseUserAgent(UA.android)).toEqual({
      browser: { type: 'Chrome', version: '124.0.6367.82' },
      device: { category: 'mobile', type: 'Google Pixel 8', os: 'Android 14' },
    });
  });

  it('when an iPad, then a tablet', () => {
    expect(parseUserAgent(UA.ipad).device).toMatchObject({ category: 'tablet', type: 'iPad' });
  });

  it('when a crawler, then no browser and category other', () => {
    expect(parseUserAgent(UA.googlebot)).toEqual({
      browser: { type: undefined, version: undefined },
      device: { category: 'other', type: undefined, os: undefined },
    });
    expect(parseUserAgent(undefined).device.category).toBe('other');
  });
});
