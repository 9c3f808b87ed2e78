/** What every read of the evaluation runs on: the engine's runner and its dialect. */
import type { Dialect } from '../db';
import type { RunRows } from '../statements';

export interface Reader {
  rows: RunRows;
  dialect: Dialect;
}
