/**
 * Indexing that a test expects to succeed, as an expectation: with `noUncheckedIndexedAccess` an
 * index is `T | undefined`, and a test that needs the element asserts it exists (a failing test
 * then says so) instead of casting the `undefined` away.
 */

/** The one element of `xs`, which the test expects to hold exactly one. */
export function only<T>(xs: readonly T[]): T {
  expect(xs).toHaveLength(1);
  return xs[0]!;
}

/** `xs[i]`, which the test expects to exist. */
export function at<T>(xs: readonly T[], i: number): T {
  expect(xs.length).toBeGreaterThan(i);
  return xs[i]!;
}

/** A value the test expects to be there (a `find`, a map lookup, a record's key). */
export function defined<T>(x: T | undefined): T {
  expect(x).toBeDefined();
  return x!;
}
