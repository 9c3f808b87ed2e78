/**
 * Tests talk to loopback only: a connection to any other address fails loudly, so that no
 * test depends on (or leaks to) the network.
 */
import net from 'node:net';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/;

const original = net.Socket.prototype.connect;
net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
  // net.connect() passes its arguments already normalised, as one array [options, callback].
  const normalised = (Array.isArray(args[0]) ? args[0] : args) as unknown[];
  const [first, second] = normalised;
  const options = (typeof first === 'object' && first !== null ? first : {}) as { host?: string; path?: string };
  const host = typeof first === 'number' ? (typeof second === 'string' ? second : 'localhost') : (options.host ?? 'localhost');
  if (!options.path && !LOOPBACK.test(host)) {
    throw new Error(`test setup: connection to ${host} refused; tests use loopback only`);
  }
  return (original as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
