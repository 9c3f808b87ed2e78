/**
 * Admission control for the evaluation routes. With a synchronous database driver, every
 * evaluation in flight interleaves its synchronous steps with all the others', and a burst runs
 * to completion in one long stretch without letting the server read or write a socket: latency
 * then grows with the burst. At most `limit` evaluations run at once here; the others wait in
 * arrival order, and each is let in on a fresh turn of the event loop (setImmediate), so that
 * I/O is served between them.
 *
 * A request whose client goes away while it waits leaves the queue and is never evaluated, and
 * one whose client went away before it got here does not enter (either would otherwise keep its
 * place for ever: a response that has closed neither finishes nor closes again).
 */
import type { RequestHandler } from 'express';

interface Waiting {
  enter: () => void;
  gone: boolean;
}

export function makeAdmission(limit: number): RequestHandler {
  let running = 0;
  const waiting: Waiting[] = [];
  const release = () => {
    let next = waiting.shift();
    while (next?.gone) next = waiting.shift();
    if (next) setImmediate(next.enter);
    else running--;
  };
  return (req, res, next) => {
    // Its client left while an earlier step (the rate limit, the key) was waiting: its response
    // has closed already and will neither finish nor close again, so it must not take a place.
    if (res.destroyed || req.socket.destroyed) return;
    let state: 'waiting' | 'running' | 'done' = 'waiting';
    const entry: Waiting = {
      enter: () => {
        // Its client left between being picked and this turn: the place goes to the next.
        if (state === 'done') return release();
        state = 'running';
        next();
      },
      gone: false,
    };
    const done = () => {
      if (state === 'running') release();
      else if (state === 'waiting') entry.gone = true;
      state = 'done';
    };
    res.once('finish', done);
    res.once('close', done);
    if (running < limit) {
      running++;
      entry.enter();
    } else {
      waiting.push(entry);
    }
  };
}
