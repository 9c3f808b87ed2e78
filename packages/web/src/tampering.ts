/**
 * Signs that the browser's reported facts were altered by a script or an extension (the kind
 * of thing anti-detect browsers and stealth plugins do). Any finding also adds the summary
 * `browser_tampering_detected`.
 */
const NAVIGATOR_PROPERTIES = [
  'userAgent',
  'platform',
  'languages',
  'hardwareConcurrency',
  'deviceMemory',
  'webdriver',
  'vendor',
];

const isNative = (f: unknown) =>
  typeof f === 'function' && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(f));

/** The offset (minutes east of UTC) that a time zone has at `at`, by the Intl API. */
function intlOffset(zone: string, at: Date): number | undefined {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  const offset = Math.round((local - Math.floor(at.getTime() / 60000) * 60000) / 60000);
  return Number.isFinite(offset) ? offset : undefined;
}

export function tampering(): string[] {
  const found: string[] = [];
  try {
    if (Object.getOwnPropertyNames(navigator).length > 0) found.push('navigator_properties_overridden');
    const overridden = NAVIGATOR_PROPERTIES.some((name) => {
      const descriptor = Object.getOwnPropertyDescriptor(Navigator.prototype, name);
      return descriptor !== undefined && !isNative(descriptor.get);
    });
    if (overridden) found.push('navigator_getters_overridden');
    if (!isNative(Function.prototype.toString)) found.push('function_to_string_overridden');
  } catch {
    // Property inspection throwing is itself unusual, but not proof.
  }
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const now = new Date();
    const offset = zone ? intlOffset(zone, now) : undefined;
    if (offset !== undefined && offset !== -now.getTimezoneOffset()) found.push('timezone_spoofing');
  } catch {
    // An unknown zone name is not a finding.
  }
  if (found.length) found.unshift('browser_tampering_detected');
  return found;
}
