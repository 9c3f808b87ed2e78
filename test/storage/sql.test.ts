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

describe('the compound reads kept by textOf', () => {
  type Captured = { sql: string; bindings: readonly unknown[] };
  /** The texts the session, accounts, counts and links reads run, for every shape, from a module registry of their own (so from `texts` as it stands there). */
  const textsOf = (order: 'forward' | 'backward'): Captured[] => {
    let out: Captured[] = [];
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { makeEvaluationReads } =
        require('../../src/storage/evaluation/reads') as typeof import('../../src/storage/evaluation/reads');
      const captured: Captured[] = [];
      const run = async (sql: string, bindings: readonly unknown[]) => (captured.push({ sql, bindings }), []);
      const now = new Date('2026-11-25T12:00:00Z');
      const shapes: (() => unknown)[] = [];
      // Both engines' texts from one registry: a key shared by two texts would give one the other's.
      for (const dialect of ['sqlite', 'postgresql'] as const) {
        const reads = makeEvaluationReads(run, dialect);
        for (const block of [undefined, '10.0.0.0/24'])
          for (const accountId of [undefined, 'acct-1'])
            for (const email of [
              undefined,
              { excludeAccount: 'acct-1', domainFraud: false },
              { domain: 'example.org', excludeAccount: 'acct-1', domainFraud: false },
              { domain: 'example.org', key: 'a@example.org', excludeAccount: 'acct-1', domainFraud: true },
              { key: 'a@example.org', excludeAccount: 'acct-1', domainFraud: true },
            ])
              shapes.push(() => reads.counts('p', { sessionId: 's', ip: '10.0.0.1', block, now, accountId, email }));
        const network = (block?: string) => ({
          sessionId: 's',
          ip: '10.0.0.1',
          block,
          ipFrom: now,
          ipTo: now,
          blockFrom: now,
          blockTo: now,
        });
        for (const excludeAccount of [undefined, 'acct-1'])
          for (const identifiers of [
            [],
            [{ type: 'email' as const, value: 'a@example.org', of: 'account' as const }],
            [
              { type: 'device' as const, value: 'd', of: 'session' as const },
              { type: 'phone' as const, value: '+1415', of: 'account' as const },
            ],
          ])
            for (const networks of [[], [network()], [network('10.0.0.0/24'), network()]])
              shapes.push(() => reads.links('p', { identifiers, networks, excludeAccount }));
        for (const history of [undefined, { accountId: 'acct-1', limit: 50 }, { accountId: 'acct-1', limit: 200 }])
          shapes.push(() => reads.session('p', 's', history));
        for (const ids of [['a'], ['a', 'b'], ['a', 'b', 'c']]) shapes.push(() => reads.accounts('p', ids));
      }
      // Only the texts matter: the fake's empty rows make some reads' answers fail, afterwards.
      for (const shape of order === 'forward' ? shapes : shapes.reverse())
        void Promise.resolve(shape()).catch(() => {});
      out = order === 'forward' ? captured : captured.reverse();
    });
    return out;
  };

  it('when the shapes are read in one order and then the other, then each statement has the same text and as many placeholders as values', () => {
    const forward = textsOf('forward');
    const backward = textsOf('backward');
    expect(backward.map((c) => c.sql)).toEqual(forward.map((c) => c.sql));
    for (const { sql, bindings } of forward) expect(sql.split('?').length - 1).toBe(bindings.length);
    expect(forward.length).toBeGreaterThan(80);
    // The two engines' texts of the accounts read differ (PostgreSQL's lateral lookup).
    expect(new Set(forward.filter((c) => c.sql.startsWith('SELECT a.')).map((c) => c.sql)).size).toBe(6);
  });
});
