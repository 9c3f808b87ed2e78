/**
 * Tests talk to loopback only: a connection to any other address fails loudly, so that no
 * test depends on (or leaks to) the network. An address is checked before connecting; a name
 * is checked once the socket's look-up (the system's, or the caller's `lookup` option) has
 * answered, against every address of the answer, so that what is refused is where the socket
 * would really go.
 */
import dns from 'node:dns';
import net from 'node:net';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/;

const refusal = (host: string) => new Error(`test setup: connection to ${host} refused; tests use loopback only`);

/** The socket's look-up, refusing answers outside loopback. */
function loopbackOnly(lookup: net.LookupFunction): net.LookupFunction {
  return (hostname, options, callback) =>
    lookup(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      const addresses = typeof address === 'string' ? [address] : address.map((a) => a.address);
      const outside = addresses.find((a) => !LOOPBACK.test(a));
      if (outside) return callback(refusal(`${hostname} (${outside})`), '', 0);
      callback(null, address, family);
    });
}

const original = net.Socket.prototype.connect;
net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
  // net.connect() passes its arguments already normalised, as one array [options, callback].
  const normalised = (Array.isArray(args[0]) ? args[0] : args) as unknown[];
  const [first, second] = normalised;
  const options = (typeof first === 'object' && first !== null ? first : undefined) as
    { host?: string; path?: string; lookup?: net.LookupFunction } | undefined;
  const host =
    typeof first === 'number' ? (typeof second === 'string' ? second : 'localhost') : (options?.host ?? 'localhost');
  if (!options?.path) {
    if (options && net.isIP(host) === 0)
      options.lookup = loopbackOnly(options.lookup ?? (dns.lookup as net.LookupFunction));
    else if (!LOOPBACK.test(host)) throw refusal(host);
  }
  return (original as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
