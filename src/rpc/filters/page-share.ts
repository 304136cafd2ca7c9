/**
 * What browser pages hold of a node-wide cap (filters, subscriptions). Every caller that sends an
 * Origin is a page, whatever site it comes from: pages together hold at most half of the cap, so
 * neither one page nor many sites of one attacker (a.attacker.test, b.attacker.test, …) can take what
 * the developer's own scripts and tools, which send no Origin, need (docs/security.md).
 */
export function pageShare(cap: number): number {
  return Math.max(1, Math.floor(cap / 2));
}
