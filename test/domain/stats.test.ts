/**
 * The overview's in-process tally (domain/stats.ts makeStatsTally): what evaluations add, keyed
 * by project, UTC day (from the evaluation's time) and metric; drained by a flush, restored when
 * a flush fails, a project's deltas forgotten on reset.
 */
import { evaluationMetrics, makeStatsTally } from '../../src/domain/stats';

const byKey = (deltas: { projectId: string; day: string; metric: string; count: number }[]) =>
  Object.fromEntries(deltas.map((d) => [`${d.projectId} ${d.day} ${d.metric}`, d.count]));

describe('makeStatsTally', () => {
  test('when evaluations are added, then each project, UTC day and metric counts them, and a drain empties the tally', () => {
    const tally = makeStatsTally();
    tally.add('p1', new Date('2026-11-20T23:59:59.999Z'), ['decision:Real', 'signal:vpn']);
    tally.add('p1', new Date('2026-11-20T00:00:00.000Z'), ['decision:Real']);
    tally.add('p1', new Date('2026-11-21T00:00:00.000Z'), ['decision:Fake', 'signal:vpn']);
    tally.add('p2', new Date('2026-11-20T12:00:00.000Z'), ['decision:Real']);
    expect(tally.size).toBe(5);
    expect(byKey(tally.drain())).toEqual({
      'p1 2026-11-20 decision:Real': 2,
      'p1 2026-11-20 signal:vpn': 1,
      'p1 2026-11-21 decision:Fake': 1,
      'p1 2026-11-21 signal:vpn': 1,
      'p2 2026-11-20 decision:Real': 1,
    });
    expect(tally.size).toBe(0);
    expect(tally.drain()).toEqual([]);
  });

  test('when a drained set is restored, then it adds to what came meanwhile', () => {
    const tally = makeStatsTally();
    tally.add('p1', new Date('2026-11-20T10:00:00Z'), ['decision:Real']);
    const drained = tally.drain();
    tally.add('p1', new Date('2026-11-20T11:00:00Z'), ['decision:Real', 'decision:Fake']);
    tally.restore(drained);
    expect(byKey(tally.drain())).toEqual({ 'p1 2026-11-20 decision:Real': 2, 'p1 2026-11-20 decision:Fake': 1 });
    // The drained objects were not changed by the restore's additions.
    expect(drained).toEqual([{ projectId: 'p1', day: '2026-11-20', metric: 'decision:Real', count: 1 }]);
  });

  test('when a project is forgotten, then only its deltas go', () => {
    const tally = makeStatsTally();
    tally.add('p1', new Date('2026-11-20T10:00:00Z'), ['decision:Real']);
    tally.add('p2', new Date('2026-11-20T10:00:00Z'), ['decision:Fake']);
    tally.forget('p1');
    expect(byKey(tally.drain())).toEqual({ 'p2 2026-11-20 decision:Fake': 1 });
  });

  test('an evaluation counts its decision and each signal at or above the threshold, spoofed_ip included', () => {
    expect(evaluationMetrics('Fake', { vpn: 1, tor: 0, datacenter: 0.9 } as never, true)).toEqual([
      'decision:Fake',
      'signal:datacenter',
      'signal:spoofed_ip',
      'signal:vpn',
    ]);
  });
});
