/** Sorted address ranges: the search the ASN table and the IP lists share. */

/** The index of the last element of ascending `starts` that is ≤ `value`, or −1. */
export function lastAtOrBelow<K extends number | bigint>(starts: readonly K[], value: K): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    // 0 ≤ lo ≤ mid ≤ hi < starts.length, so mid indexes starts.
    if (starts[mid]! <= value) lo = mid + 1;
    else hi = mid - 1;
  }
  return hi;
}
