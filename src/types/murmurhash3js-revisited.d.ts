/** murmurhash3js-revisited ships no types; this is the part the server calls (the web SDK declares its own). */
declare module 'murmurhash3js-revisited' {
  const murmur: { x86: { hash128(bytes: Uint8Array, seed?: number): string } };
  export default murmur;
}
