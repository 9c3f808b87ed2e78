/**
 * The webhook transport over a real loopback connection: a kept-alive connection that the
 * receiver closes when it is reused (as a server whose keep-alive timeout races the reuse does)
 * is not a failed attempt: the post goes once more on a fresh connection.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { makeWebhookTransport } from '../../src/webhooks/transport';

/**
 * A receiver that answers the first request of each connection with 200 and keeps it alive, and
 * closes a connection, unanswered, when a second request comes on it.
 */
async function closingReceiver() {
  const answered: number[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    const connection = ++connections;
    let requests = 0;
    socket.on('data', (chunk) => {
      // Each test post is one small packet: a chunk that starts with POST is a request.
      if (!chunk.toString('latin1').startsWith('POST')) return;
      requests += 1;
      if (requests > 1) return socket.destroy();
      answered.push(connection);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    answered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('when the receiver closes the kept-alive connection the second post reuses, then that post is sent again on a fresh one and delivered', async () => {
  const rx = await closingReceiver();
  const transport = makeWebhookTransport({ allowPrivate: true });
  const post = () =>
    transport.post(rx.url, {
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(5000),
    });
  try {
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    // The first connection answered once and was closed on its reuse; the second answered the retry.
    expect(rx.answered).toEqual([1, 2]);
  } finally {
    transport.close();
    await rx.close();
  }
});
