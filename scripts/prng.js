'use strict';
/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same sequence of
 * numbers in [0, 1) at every run. For benchmarks and test data, never for secrets.
 */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = { mulberry32 };
