/**
 * Whether an address or a host name stays on this machine: what the access policy (src/rpc/access.ts)
 * and the server's listeners ask. No imports, so the node's files (the token's place) can ask it
 * without loading the RPC layer with a Hardhat config.
 */

/** A socket's address on this machine: 127.0.0.0/8, ::1, and IPv4 loopback in IPv6 form. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = address.startsWith("::ffff:") ? address.slice(7) : address;
  return a === "::1" || /^127\.\d+\.\d+\.\d+$/.test(a);
}

/** A host name or address (`[::1]` in brackets too, as in a URL) that stays on this machine: a loopback address or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, "$1");
  return h.toLowerCase() === "localhost" || isLoopback(h);
}
