/** Random identifiers: RFC 4122 version 4 UUIDs in lowercase, from the platform's CSPRNG. */
export function uuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // 16 bytes, so indices 6 (version) and 8 (variant) exist.
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
