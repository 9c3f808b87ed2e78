/** Admission control of the evaluation routes: at most `limit` at once, the rest in arrival order. */
import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { makeAdmission } from '../../src/http/admission';

type Res = Response & EventEmitter;

function response(): Res {
  return new EventEmitter() as Res;
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('makeAdmission', () => {
  it('when more requests arrive than the limit, then the others wait and enter in arrival order as responses finish', async () => {
    const admit = makeAdmission(2);
    const entered: number[] = [];
    const responses = Array.from({ length: 5 }, response) as [Res, Res, Res, Res, Res];
    responses.forEach((res, i) => admit({} as Request, res, () => entered.push(i)));
    await tick();
    expect(entered).toEqual([0, 1]);
    responses[1].emit('finish');
    await tick();
    expect(entered).toEqual([0, 1, 2]);
    // A response that is both finished and closed frees one place only.
    responses[0].emit('finish');
    responses[0].emit('close');
    await tick();
    expect(entered).toEqual([0, 1, 2, 3]);
    responses[2].emit('close');
    await tick();
    expect(entered).toEqual([0, 1, 2, 3, 4]);
  });

  it('when a request ends, then a waiting one is let in on a later turn of the event loop, not in the same one', async () => {
    const admit = makeAdmission(1);
    const entered: string[] = [];
    const first = response();
    admit({} as Request, first, () => entered.push('first'));
    admit({} as Request, response(), () => entered.push('second'));
    first.emit('finish');
    expect(entered).toEqual(['first']);
    await tick();
    expect(entered).toEqual(['first', 'second']);
  });
});
