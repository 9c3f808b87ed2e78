/** murmurhash3js-revisited ships no types; this is the part the SDK calls. */
declare module 'murmurhash3js-revisited' {
  const murmur: { x86: { hash128(bytes: Uint8Array, seed?: number): string } };
  export default murmur;
}

/** User-agent client hints (Chromium); not yet in TypeScript's DOM library. */
interface NavigatorUAData {
  brands: { brand: string; version: string }[];
  mobile: boolean;
  platform: string;
  getHighEntropyValues(
    hints: string[],
  ): Promise<{ fullVersionList?: { brand: string; version: string }[]; platformVersion?: string; model?: string }>;
}

interface Navigator {
  readonly userAgentData?: NavigatorUAData;
  readonly deviceMemory?: number;
}
