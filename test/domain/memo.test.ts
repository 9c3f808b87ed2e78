import { remembered } from '../../src/domain/memo';

describe('remembered', () => {
  it('computes each key once and answers later calls from memory, falsy answers included', () => {
    const calls: string[] = [];
    const f = remembered(10, (k) => {
      calls.push(k);
      return k === 'none' ? undefined : k.length === 0 ? false : k.toUpperCase();
    });
    expect([f('a'), f('a'), f('none'), f('none'), f(''), f('')]).toEqual([
      'A',
      'A',
      undefined,
      undefined,
      false,
      false,
    ]);
    expect(calls).toEqual(['a', 'none', '']);
  });

  it('forgets everything past its bound, and keeps nothing of a computation that threw', () => {
    const calls: string[] = [];
    const f = remembered(2, (k) => {
      calls.push(k);
      if (k === 'bad') throw new Error('no');
      return k;
    });
    f('a');
    f('b');
    f('c'); // the third key empties the map first
    f('a');
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
    expect(() => f('bad')).toThrow('no');
    expect(() => f('bad')).toThrow('no');
    expect(calls.filter((k) => k === 'bad')).toHaveLength(2);
  });
});
