/** The ring's assembly (domain/linking/ring.ts): pure, over links and accounts as read. */
import type { LabelValue, MatchType } from '../../src/api-types';
import { sharersToRead, type AccountWithLists, type Link, type LinkSearch } from '../../src/domain/evaluation';
import {
  assembleRing,
  linksOfEach,
  mergedSearch,
  RING_PER_HOP,
  ringBlockTargets,
  searchParts,
  secondHop,
} from '../../src/domain/linking/ring';
import { accountRecord } from '../helpers/accounts';

const AT = new Date('2026-12-01T00:00:00Z');

function account(id: string, fields: { decision?: 'Real' | 'Fake'; lists?: string[]; group?: string } = {}) {
  const record = accountRecord('p', id, AT, {
    ...(fields.decision
      ? { decision: fields.decision, scores: { account_score: 0.5, bot: 0, multiple_accounts: 0, risk_signals: 0 } }
      : {}),
    ...(fields.group ? { group: fields.group } : {}),
  });
  return [id, { record, lists: fields.lists ?? [] }] as [string, AccountWithLists];
}

const link = (accountId: string, score: number, matchTypes: MatchType[] = ['browser']): Link => ({
  accountId,
  score,
  matchTypes,
});

describe('linksOfEach over mergedSearch', () => {
  /** Who shares each device value: the store the searches read, as the SQL reads it (in id order, limited). */
  function read(sharers: Map<string, string[]>, type: MatchType, value: string, exclude?: string) {
    const all = (sharers.get(value) ?? []).filter((id) => id !== exclude);
    return all.slice(0, sharersToRead(type));
  }

  const searchOf = (self: string, devices: string[]): LinkSearch => ({
    identifiers: devices.map((value) => ({ type: 'device' as const, value, of: 'session' as const })),
    networks: [],
    excludeAccount: self,
  });

  test.each([2, 16, 33, 34, 40])(
    'when a device is shared by %i accounts, then the merged search weighs each link as the searches one by one do',
    (crowd) => {
      const sharers = new Map([
        ['dev-crowd', Array.from({ length: crowd }, (_, i) => `a${String(i).padStart(3, '0')}`)],
        ['dev-pair', ['a000', 'b']],
      ]);
      const searches = [searchOf('a000', ['dev-crowd', 'dev-pair']), searchOf('a001', ['dev-crowd'])];
      const merged = mergedSearch(searches);
      expect(merged.excludeAccount).toBeUndefined();
      expect(merged.identifiers.map((i) => i.value)).toEqual(['dev-crowd', 'dev-pair']);
      const found = {
        identifiers: merged.identifiers.map(({ type, value }) => ({
          type,
          value,
          accountIds: read(sharers, type, value),
        })),
        networks: [],
      };
      const each = linksOfEach(searches, found, 0.1);
      for (const s of searches) {
        const alone = {
          identifiers: s.identifiers.map(({ type, value }) => ({
            type,
            value,
            accountIds: read(sharers, type, value, s.excludeAccount),
          })),
          networks: [],
        };
        const expected = linksOfEach([s], alone, 0.1).get(s.excludeAccount!);
        expect(each.get(s.excludeAccount!)).toEqual(expected);
        expect(expected!.some((l) => l.accountId === s.excludeAccount)).toBe(false);
      }
      // The pair's own device always links a000 and b; the crowd's only while it is evidence over the floor.
      expect(each.get('a000')!.map((l) => l.accountId)).toContain('b');
      expect(each.get('a000')!.some((l) => l.accountId === 'a001')).toBe(crowd <= 16);
    },
  );
});

describe('searchParts', () => {
  const network = (i: number, block: boolean) => ({
    sessionId: `s${i}`,
    ip: `10.0.0.${i}`,
    ...(block ? { block: `10.0.${i}.0/24` } : {}),
    ipFrom: AT,
    ipTo: AT,
    blockFrom: AT,
    blockTo: AT,
  });

  test('when a search holds more branches than a statement may, then each part holds at most that many, in order, and together all', () => {
    const search: LinkSearch = {
      identifiers: Array.from({ length: 7 }, (_, i) => ({
        type: 'device' as const,
        value: `d${i}`,
        of: 'session' as const,
      })),
      networks: [network(0, true), network(1, false), network(2, true)],
    };
    const parts = searchParts(search, 4);
    const branches = (p: LinkSearch) => p.identifiers.length + p.networks.reduce((n, x) => n + (x.block ? 2 : 1), 0);
    expect(parts.map(branches)).toEqual([4, 3, 3, 2]);
    expect(parts.flatMap((p) => p.identifiers)).toEqual(search.identifiers);
    expect(parts.flatMap((p) => p.networks)).toEqual(search.networks);
    expect(searchParts(search)).toEqual([search]);
    expect(searchParts({ identifiers: [], networks: [] })).toEqual([{ identifiers: [], networks: [] }]);
  });
});

describe('assembleRing', () => {
  const ring = (over: Partial<Parameters<typeof assembleRing>[0]> = {}) =>
    assembleRing({
      accountId: 'root',
      hops: 2,
      links: [link('m1', 1), link('m2', 0.9)],
      linksOfFirst: new Map([
        ['m1', [link('root', 1), link('m2', 1), link('far', 0.5, ['email'])]],
        ['m2', [link('m1', 1), link('far', 0.7, ['phone'])]],
      ]),
      accounts: new Map([
        account('root', { decision: 'Fake', lists: ['block'] }),
        account('m1', { decision: 'Fake' }),
        account('m2', { decision: 'Real', lists: ['allow'] }),
        account('far'),
      ]),
      labels: new Map<string, LabelValue>([
        ['root', 'fraud'],
        ['far', 'legit'],
      ]),
      ...over,
    });

  test('when two hops are assembled, then each account has its hop, facts and strongest link, and the summary its shares', () => {
    const r = ring();
    expect(r.nodes.map((n) => [n.account_id, n.hop, n.link_score])).toEqual([
      ['root', 0, undefined],
      ['m1', 1, 1],
      ['m2', 1, 0.9],
      ['far', 2, 0.7],
    ]);
    expect(r.nodes[0]).toEqual({
      account_id: 'root',
      hop: 0,
      decision: 'Fake',
      label: 'fraud',
      lists: ['block'],
      account_score: 0.5,
      list_decision: { list: 'block', decision: 'Fake' },
    });
    expect(r.nodes[3]).toMatchObject({ decision: null, label: 'legit', account_score: null });
    expect(r.nodes[3]).not.toHaveProperty('list_decision');
    expect(r.summary).toEqual({
      size: 4,
      fake: { count: 2, share: 0.5 },
      blocked: { count: 1, share: 0.25 },
      labelled_fraud: { count: 1, share: 0.25 },
      labelled_legit: { count: 1, share: 0.25 },
      truncated: false,
    });
    // Each pair once, from the side that found it first.
    expect(r.edges.map((e) => `${e.from}-${e.to}:${e.match_type.join('+')}`)).toEqual([
      'root-m1:browser',
      'root-m2:browser',
      'm1-m2:browser',
      'm1-far:email',
      'm2-far:phone',
    ]);
  });

  test('when one hop is asked, then the second is left out and only the account’s edges are drawn', () => {
    const r = ring({ hops: 1, linksOfFirst: new Map() });
    expect(r.nodes.map((n) => n.account_id)).toEqual(['root', 'm1', 'm2']);
    expect(r.edges).toHaveLength(2);
    expect(r.summary.fake).toEqual({ count: 2, share: 0.6667 });
  });

  test('when a hop finds more than it keeps, then the strongest are kept and the summary says truncated', () => {
    const many = Array.from({ length: RING_PER_HOP + 2 }, (_, i) =>
      link(`m${String(i).padStart(2, '0')}`, 1 - i / 100),
    );
    const r = ring({
      hops: 1,
      links: many,
      accounts: new Map([account('root'), ...many.map((l) => account(l.accountId))]),
    });
    expect(r.nodes).toHaveLength(RING_PER_HOP + 1);
    expect(r.nodes.at(-1)!.account_id).toBe(many[RING_PER_HOP - 1]!.accountId);
    expect(r.summary.truncated).toBe(true);
    const second = secondHop('root', ['m1'], new Map([['m1', many]]));
    expect(second.kept).toHaveLength(RING_PER_HOP);
    expect(second.truncated).toBe(true);
  });

  test('when groups are on, then accounts of another group, and accounts not read (erased), are left out', () => {
    const r = ring({
      group: { enabled: true, name: 'eu' },
      accounts: new Map([
        account('root', { group: 'eu' }),
        account('m1', { group: 'eu' }),
        account('m2', { group: 'us' }),
      ]),
    });
    expect(r.nodes.map((n) => n.account_id)).toEqual(['root', 'm1']);
    expect(r.edges.map((e) => `${e.from}-${e.to}`)).toEqual(['root-m1']);
  });
});

describe('ringBlockTargets', () => {
  const nodes = [
    { account_id: 'b', lists: ['block'] },
    { account_id: 'a', lists: [] },
    { account_id: 'c', lists: ['allow'] },
  ].map((n) => ({ ...n, hop: 1, decision: null, label: null, account_score: null }));

  test('when no accounts are named, then the ring’s are the targets, in code-unit order, with those already blocked counted', () => {
    expect(ringBlockTargets({ nodes }, undefined)).toEqual({
      targets: ['a', 'b', 'c'],
      outside: [],
      alreadyBlocked: 1,
    });
  });

  test('when named accounts are outside the ring, then they are named', () => {
    expect(ringBlockTargets({ nodes }, ['c', 'x', 'y'])).toEqual({
      targets: ['c'],
      outside: ['x', 'y'],
      alreadyBlocked: 0,
    });
  });
});
