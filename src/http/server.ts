/**
 * The HTTP server around the app. Node answers some requests itself, before the app sees them:
 * a request head larger than it reads (431), one that is not well-formed HTTP (400), one that
 * does not arrive in time (408). Its own answers have no body; these have the service's error
 * body like every other answer, as openapi.yaml declares for every operation.
 *
 * Node makes each request and response with the app's own prototypes (`app.request`,
 * `app.response`). Express otherwise gives every request and response those prototypes as it
 * enters the app (`Object.setPrototypeOf`, in `app.handle`); an object whose prototype is
 * changed once made outlives its request in V8's young generation (each request's objects are
 * promoted to the old generation, at any load, where none are when the prototype is already the
 * app's; docs/pipeline.md, *The request's objects and the garbage collector*). Express's own
 * call then changes nothing.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { ErrorBody } from '../api-types';
import type { Logger } from '../logger';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** What Node's parser (llhttp) or its timers reported, as a status and a message. */
function answerFor(code: string | undefined, maxHeaderSize: number): ErrorBody {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { statusCode: 431, message: `The request line and headers are larger than ${maxHeaderSize} bytes` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { statusCode: 408, message: 'The request did not arrive in time' };
    default:
      // HPE_INVALID_*, HPE_UNEXPECTED_CONTENT_LENGTH, HPE_CHUNK_EXTENSIONS_OVERFLOW, …
      return { statusCode: 400, message: 'The request is not well-formed HTTP' };
  }
}

/**
 * A constructor of `base`'s objects whose prototype is `prototype` (which inherits from `base`'s):
 * `new` makes the object with it, and `base` (a function in Node, not a class) sets it up.
 * (Not `Reflect.construct` with this constructor as the new target: it is slower, and some of its
 * objects still outlive their request.)
 */
function madeWith<T extends typeof http.IncomingMessage | typeof http.ServerResponse>(base: T, prototype: object): T {
  const setUp = base as unknown as (this: object, ...args: unknown[]) => void;
  function Made(this: object, ...args: unknown[]): void {
    setUp.apply(this, args);
  }
  Made.prototype = prototype;
  return Made as unknown as T;
}

export function createHttpServer(
  app: Express,
  options: { logger?: Logger; server?: http.ServerOptions } = {},
): http.Server {
  const server = http.createServer(
    {
      ...options.server,
      IncomingMessage: madeWith(http.IncomingMessage, app.request),
      ServerResponse: madeWith(http.ServerResponse, app.response),
    },
    app,
  );
  const maxHeaderSize = options.server?.maxHeaderSize ?? http.maxHeaderSize;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's default: answer only when nothing of a response has been written on this
    // connection yet (a keep-alive connection's earlier answer is complete, or there is none).
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      const body = answerFor(err.code, maxHeaderSize);
      const json = JSON.stringify(body);
      options.logger?.info({ code: err.code, status: body.statusCode }, 'request refused by the HTTP parser');
      // Closed once the answer is flushed: the rest of what the client sends is not read.
      socket.end(
        `HTTP/1.1 ${body.statusCode} ${REASONS[body.statusCode]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          // Every answer has a request id; the request's own cannot be trusted here (its head is what failed).
          `X-Request-Id: ${randomUUID()}\r\n` +
          `Content-Length: ${Buffer.byteLength(json)}\r\n` +
          'Connection: close\r\n\r\n' +
          json,
        () => socket.destroy(),
      );
      return;
    }
    socket.destroy(err);
  });
  return server;
}
