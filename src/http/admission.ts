/**
 * Admission control for the evaluation routes. With a synchronous database driver, every
 * evaluation in flight interleaves its synchronous steps with all the others', and a burst runs
 * to completion in one long stretch without letting the server read or write a socket: latency
 * then grows with the burst. At most `limit` evaluations run at once here; the others wait in
 * arrival order, and each is let in on a fresh turn of the event loop (setImmediate), so that
 * I/O is served between them.
 */
import type { RequestHandler } from 'express';

export function makeAdmission(limit: number): RequestHandler {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) setImmediate(next);
    else running--;
  };
  return (_req, res, next) => {
    let released = false;
    const done = () => {
      if (released) return;
      released = true;
      release();
    };
    const enter = () => {
      res.once('finish', done);
      res.once('close', done);
      next();
    };
    if (running < limit) {
      running++;
      enter();
    } else {
      waiting.push(enter);
    }
  };
}
