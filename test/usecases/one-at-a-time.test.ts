import { makeOneAtATime } from '../../src/usecases/one-at-a-time';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('one at a time', () => {
  it('when calls share a key, then each starts after the previous settled, failures included', async () => {
    const queue = makeOneAtATime();
    const events: string[] = [];
    const work =
      (name: string, fail = false) =>
      async () => {
        events.push(`start ${name}`);
        await tick();
        events.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue.run('a', work('1')),
      queue.run('a', work('2', true)),
      queue.run('a', work('3')),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    await tick();
    expect(queue.size).toBe(0);
  });

  it('when calls have different keys, then they overlap', async () => {
    const queue = makeOneAtATime();
    const events: string[] = [];
    const work = (name: string) => async () => {
      events.push(`start ${name}`);
      await tick();
      events.push(`end ${name}`);
    };
    await Promise.all([queue.run('a', work('a')), queue.run('b', work('b'))]);
    expect(events).toEqual(['start a', 'start b', 'end a', 'end b']);
  });
});
