/**
 * User agent (and client hints, when the browser sends them) → the browser's name and
 * version and the device's category, type and operating system. ua-parser-js 1.x (MIT).
 */
import UAParser from 'ua-parser-js';
import type { ClientHints, DeviceFields } from '../../api-types';
import { remembered } from '../memo';

export type DeviceCategory = NonNullable<DeviceFields['category']>;

export interface UserAgentFacts {
  browser: { type?: string; version?: string };
  device: { category: DeviceCategory; type?: string; os?: string };
}

const CATEGORY_OF_TYPE: Record<string, DeviceCategory> = {
  mobile: 'mobile',
  tablet: 'tablet',
  console: 'console',
  smarttv: 'smarttv',
  wearable: 'wearable',
  embedded: 'embedded',
};

/** The operating systems of desktop computers, by the names the user-agent parser gives them. */
const DESKTOP_OS_NAMES = [
  'Windows',
  'Mac OS',
  'macOS',
  'Linux',
  'Ubuntu',
  'Debian',
  'Fedora',
  'Chromium OS',
  'Chrome OS',
  'FreeBSD',
  'OpenBSD',
  'NetBSD',
  'Solaris',
  'Mint',
  'Arch',
  'Gentoo',
  'SUSE',
  'Red Hat',
  'CentOS',
];
const DESKTOP_OS = new RegExp(`^(${DESKTOP_OS_NAMES.join('|')})`, 'i');

const DESKTOP_TYPE: [RegExp, string][] = [
  [/^(Mac OS|macOS)/i, 'Macintosh'],
  [/^Windows/i, 'Windows PC'],
  [/^(Chromium OS|Chrome OS)/i, 'Chromebook'],
  [/./, 'Linux PC'],
];

function joined(...parts: (string | undefined)[]): string | undefined {
  const text = parts.filter(Boolean).join(' ').trim();
  return text || undefined;
}

/** Windows 11 reports "Windows NT 10.0" in its user agent; its client hints tell it apart. */
function windowsFromHints(hints: ClientHints | undefined): string | undefined {
  if (hints?.platform !== 'Windows' || !hints.platform_version) return undefined;
  const major = Number(hints.platform_version.split('.')[0]);
  if (!Number.isFinite(major)) return undefined;
  return major >= 13 ? 'Windows 11' : major > 0 ? 'Windows 10' : undefined;
}

/** The client-hint brands that carry a browser's own version, by ua-parser-js's browser name. */
const BRANDS: Record<string, string[]> = {
  Chrome: ['Google Chrome', 'Chromium'],
  'Chrome Headless': ['HeadlessChrome', 'Chromium'],
  Chromium: ['Chromium'],
  Edge: ['Microsoft Edge'],
  Opera: ['Opera'],
  'Samsung Browser': ['Samsung Internet'],
  Yandex: ['YaBrowser', 'Yandex'],
};

/**
 * Chromium browsers reduce the user agent's version to `MAJOR.0.0.0`; the high-entropy client
 * hints' full version list has the real one. It is used only for the same browser and major
 * version as the user agent's, so hints cannot contradict the user agent.
 */
function fullVersion(
  name: string | undefined,
  version: string | undefined,
  hints: ClientHints | undefined,
): string | undefined {
  if (!name || !version || !hints?.full_version_list) return version;
  const major = version.split('.')[0];
  for (const brand of BRANDS[name] ?? []) {
    const found = hints.full_version_list.find((b) => b.brand === brand && b.version.split('.')[0] === major);
    if (found) return found.version;
  }
  return version;
}

/**
 * ua-parser-js's reading of a user agent (some hundred regular expressions), once per distinct
 * string: ingestion and each evaluation's platform check read the same few thousand. A small
 * share of an authenticate's CPU; kept because it costs nothing and bounds its memory.
 */
const parsed = remembered(5_000, (userAgent) => new UAParser(userAgent).getResult());

export function parseUserAgent(userAgent: string | undefined, hints?: ClientHints): UserAgentFacts {
  const ua = parsed(userAgent ?? '');
  const osName = windowsFromHints(hints) ?? joined(ua.os.name, ua.os.version);

  let category: DeviceCategory | undefined = ua.device.type ? CATEGORY_OF_TYPE[ua.device.type] : undefined;
  // An iPad in desktop mode and Android tablets with client hints: trust the hints' "mobile".
  if (!category && hints?.mobile === true) category = 'mobile';
  if (!category && ua.os.name && DESKTOP_OS.test(ua.os.name)) category = 'desktop';

  let type = joined(ua.device.vendor === 'Apple' ? undefined : ua.device.vendor, ua.device.model ?? hints?.model);
  if (!type && category === 'desktop' && ua.os.name) type = DESKTOP_TYPE.find(([re]) => re.test(ua.os.name!))?.[1];

  return {
    browser: { type: ua.browser.name, version: fullVersion(ua.browser.name, ua.browser.version, hints) },
    device: { category: category ?? 'other', type, os: osName },
  };
}
