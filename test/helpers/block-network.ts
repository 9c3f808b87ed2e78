/**
 * Tests talk to loopback only: a connection to any other address fails loudly, so that no
 * test depends on (or leaks to) the network.
 */
import net from 'node:net';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/;

const original = net.Socket.prototype.connect;
net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
  const [first] = args;
  const options = (typeof first === 'object' && first !== null && !Array.isArray(first) ? first : {}) as { host?: string; path?: string };
  const host = typeof first === 'number' ? (typeof args[1] === 'string' ? args[1] : 'localhost') : options.host;
  if (!options.path && host !== undefined && !LOOPBACK.test(host)) {
    throw new Error(`test setup: connection to ${host} refused; tests use loopback only`);
  }
  return (original as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
