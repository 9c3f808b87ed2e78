/** The part of tar-stream 2.x (MIT; no published types) that src/cli/backup.ts uses. */
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: 'file' | 'directory' | 'symlink' | 'link' | string;
  }

  export interface Pack extends Readable {
    entry(headers: Headers, buffer: Buffer | string, callback?: (err?: Error | null) => void): Writable;
    entry(headers: Headers, callback?: (err?: Error | null) => void): Writable;
    finalize(): void;
  }

  export interface Extract extends Writable {
    on(event: 'entry', listener: (headers: Headers, stream: Readable, next: (err?: Error) => void) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export function pack(): Pack;
  export function extract(): Extract;
}
