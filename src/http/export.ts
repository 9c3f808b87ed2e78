/**
 * Streamed exports (CSV and NDJSON): rows written as the client reads them, one batch held at
 * a time. CSV is RFC 4180 (every cell quoted when it holds a quote, a comma or a line break;
 * CRLF line ends) and a cell that a spreadsheet would run as a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return) is prefixed with `'` (OWASP's CSV injection advice).
 */
import { once } from 'node:events';
import type { Response } from 'express';
import type { Logger } from '../logger';

export type ExportFormat = 'csv' | 'ndjson';

/** One CSV cell: null and undefined are empty, arrays are joined with `;`. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = Array.isArray(value) ? value.join(';') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The columns of an export: a header and how to read each cell from an item. */
export type Columns<T> = readonly (readonly [header: string, cell: (item: T) => unknown])[];

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

/**
 * Writes the batches to the response in the format, waiting for the socket to drain whenever
 * its buffer is full (back-pressure), and stopping when the client goes away. Bad input must
 * have been refused before (the first batch is read here, after the headers are chosen but
 * before they are sent). A failure once bytes are sent destroys the response: the client sees
 * an incomplete chunked body, never a short file that looks whole.
 */
export async function streamExport<T>(
  res: Response,
  logger: Logger,
  options: { format: ExportFormat; filename: string; columns: Columns<T>; batches: AsyncIterable<T[]> },
): Promise<void> {
  const { format, filename, columns, batches } = options;
  const iterator = batches[Symbol.asyncIterator]();
  // The first batch before the headers: an error reading it is still an ordinary error answer.
  let next = await iterator.next();
  res.status(200);
  res.setHeader('content-type', CONTENT_TYPES[format]);
  res.setHeader('content-disposition', `attachment; filename="${filename}.${format === 'csv' ? 'csv' : 'ndjson'}"`);
  res.setHeader('cache-control', 'no-store');
  /** Writes a chunk; when the socket's buffer is full, waits until it drains or the client has gone. */
  const write = async (chunk: string) => {
    if (res.write(chunk) || res.destroyed) return;
    const waiting = new AbortController();
    try {
      await Promise.race([
        once(res, 'drain', { signal: waiting.signal }),
        once(res, 'close', { signal: waiting.signal }),
      ]);
    } finally {
      // The other listener goes too (one pair per full buffer would pile up on a long export).
      waiting.abort();
    }
  };
  try {
    if (format === 'csv') await write(csvLine(columns.map(([header]) => header)));
    while (!next.done) {
      if (res.destroyed) return;
      const lines = next.value.map((item) =>
        format === 'csv' ? csvLine(columns.map(([, cell]) => cell(item))) : `${JSON.stringify(item)}\n`,
      );
      await write(lines.join(''));
      next = await iterator.next();
    }
    res.end();
  } catch (err) {
    logger.error({ err }, 'export failed after its first bytes');
    res.destroy(err instanceof Error ? err : new Error(String(err)));
  } finally {
    if (res.destroyed) await iterator.return?.();
  }
}
