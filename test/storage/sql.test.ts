import { limit } from '../../src/storage/sql';

describe('limit', () => {
  it('when given a non-negative integer, then writes it into the clause', () => {
    expect(limit(0)).toBe('LIMIT 0');
    expect(limit(1502)).toBe('LIMIT 1502');
  });

  it('when given anything else, then refuses (the count is written into SQL)', () => {
    for (const bad of [-1, 1.5, Number.NaN, Infinity, Number.MAX_SAFE_INTEGER + 1]) expect(() => limit(bad)).toThrow();
    expect(() => limit('5; DROP TABLE x' as unknown as number)).toThrow();
  });
});
