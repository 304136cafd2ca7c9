/** The Cosmos SDK's pagination as the precompiles take it (a PageRequest tuple) and answer it (the items, the next key, the total). */

/** Offset pagination over `items` (the Cosmos SDK's, with the next key as the next offset). */
export function paginate<T>(items: T[], page: { key: string; offset: bigint; limit: bigint; countTotal: boolean; reverse: boolean }): { items: T[]; nextKey: string; total: bigint } {
  const list = page.reverse ? [...items].reverse() : items;
  const start = page.key !== "0x" && page.key !== "0x00" ? Number(BigInt(page.key)) : Number(page.offset);
  const limit = page.limit === 0n ? 100 : Number(page.limit);
  const slice = list.slice(start, start + limit);
  const next = start + limit < list.length ? `0x${(start + limit).toString(16).padStart(16, "0")}` : "0x";
  return { items: slice, nextKey: next, total: page.countTotal || page.key === "0x" ? BigInt(list.length) : 0n };
}

/** A PageRequest argument, read by position: ethers' Result is an Array, whose `entries` and `reverse` are its methods. */
export const pageOf = (r: unknown): { key: string; offset: bigint; limit: bigint; countTotal: boolean; reverse: boolean } => {
  const [key, offset, limit, countTotal, reverse] = r as [string, bigint, bigint, boolean, boolean];
  return { key, offset, limit, countTotal, reverse };
};
