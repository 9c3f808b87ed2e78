/**
 * Admission control of the evaluation routes: at most `limit` at once, the rest in arrival order;
 * a request whose client leaves while it waits gives its place back.
 */
import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Request, Response } from 'express';
import { makeAdmission } from '../../src/http/admission';

type Res = Response & EventEmitter;

function response(): Res {
  return new EventEmitter() as Res;
}
/** A request whose client is still there. */
const req = () => ({ socket: { destroyed: false } }) as unknown as Request;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('makeAdmission', () => {
  it('when more requests arrive than the limit, then the others wait and enter in arrival order as responses finish', async () => {
    const admit = makeAdmission(2);
    const entered: number[] = [];
    const responses = Array.from({ length: 5 }, response) as [Res, Res, Res, Res, Res];
    responses.forEach((res, i) => admit(req(), res, () => entered.push(i)));
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
    admit(req(), first, () => entered.push('first'));
    admit(req(), response(), () => entered.push('second'));
    first.emit('finish');
    expect(entered).toEqual(['first']);
    await tick();
    expect(entered).toEqual(['first', 'second']);
  });
});

describe('makeAdmission when clients leave', () => {
  it('when a waiting request closes after it was picked but before it entered, then it is skipped and the place goes on', async () => {
    const admit = makeAdmission(1);
    const entered: string[] = [];
    const [a, b, c] = [response(), response(), response()];
    admit(req(), a, () => entered.push('a'));
    admit(req(), b, () => entered.push('b'));
    admit(req(), c, () => entered.push('c'));
    a.emit('finish');
    b.emit('close');
    await tick();
    await tick();
    expect(entered).toEqual(['a', 'c']);
  });
});

describe('admission over HTTP', () => {
  it('when a client leaves before its request reaches admission, then it takes no place and later requests are answered', async () => {
    const admit = makeAdmission(1);
    const gates: (() => void)[] = [];
    let handled = 0;
    const app = express();
    // An earlier step that waits (as the rate limit waits for the database).
    app.get(
      '/slow',
      (_req, _res, next) => gates.push(next),
      admit,
      (_req, res) => {
        handled++;
        res.json({ ok: true });
      },
    );
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const get = (signal?: AbortSignal) => fetch(`http://127.0.0.1:${port}/slow`, { signal });
    try {
      const leaving = new AbortController();
      const abandoned = get(leaving.signal).catch(() => 'aborted');
      while (gates.length === 0) await tick();
      leaving.abort();
      expect(await abandoned).toBe('aborted');
      await new Promise((resolve) => setTimeout(resolve, 100));
      gates.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const later = get();
      while (gates.length === 0) await tick();
      gates.shift()!();
      expect((await later).status).toBe(200);
      expect(handled).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('when clients leave while their requests wait, then their places are not lost and later requests are answered', async () => {
    const admit = makeAdmission(1);
    const held: (() => void)[] = [];
    const app = express();
    app.get('/slow', admit, (_req, res) => {
      held.push(() => res.json({ ok: true }));
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const get = (signal?: AbortSignal) => fetch(`http://127.0.0.1:${port}/slow`, { signal });
    try {
      const first = get();
      while (held.length === 0) await tick();
      // Three requests wait behind the first, and their clients give up.
      const leaving = Array.from({ length: 3 }, () => new AbortController());
      const abandoned = leaving.map((c) => get(c.signal).catch(() => 'aborted'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      leaving.forEach((c) => c.abort());
      expect(await Promise.all(abandoned)).toEqual(['aborted', 'aborted', 'aborted']);
      await new Promise((resolve) => setTimeout(resolve, 100));
      held.shift()!();
      expect((await first).status).toBe(200);
      // The abandoned ones were never run, and the next request gets the place.
      const later = get();
      const deadline = Date.now() + 5000;
      while (held.length === 0 && Date.now() < deadline) await tick();
      expect(held).toHaveLength(1);
      held.shift()!();
      expect((await later).status).toBe(200);
    } finally {
      held.forEach((answer) => answer());
      server.closeAllConnections();
      server.close();
    }
  });
});
