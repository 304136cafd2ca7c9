/**
 * ibc-go's transfer denoms (its transfer `types`): a voucher's trace (the hops it took and its base
 * denom), its path, its `ibc/<hash>` denom, and the port and channel identifiers a path is read by.
 * Shared by ICS20 (src/cosmos/ics20/) and x/erc20 (src/cosmos/erc20/), which names a voucher's ERC-20.
 */
import { createHash } from "node:crypto";

/** ibc-go's port identifiers (host.PortIdentifierValidator) and the channel identifiers of IBC v1. */
export const PORT_ID = /^[a-zA-Z0-9._+\-#[\]<>]{2,128}$/;
export const CHANNEL_ID = /^channel-\d+$/;

export interface Hop {
  portId: string;
  channelId: string;
}

/** ibc-go's `Denom`: a base denom and the hops it took to get here, the last hop first. */
export interface IbcDenom {
  base: string;
  trace: Hop[];
}

/** A denom's path: its hops then its base (`transfer/channel-0/uatom`); a native denom is its base. */
export function denomPath(d: IbcDenom): string {
  return [...d.trace.flatMap((h) => [h.portId, h.channelId]), d.base].join("/");
}

/** The upper-case hex sha256 of a denom's path: the hash of its `ibc/` denom. */
export function denomHash(d: IbcDenom): string {
  return createHash("sha256").update(denomPath(d)).digest("hex").toUpperCase();
}

/** The denom on a chain holding `d`: its base when it has no hops, else `ibc/<hash>`. */
export function ibcDenom(d: IbcDenom): string {
  return d.trace.length === 0 ? d.base : `ibc/${denomHash(d)}`;
}

/** ibc-go's `ExtractDenomFromPath`: `transfer/channel-0/uatom` → base uatom, one hop. */
export function denomFromPath(path: string): IbcDenom {
  const parts = path.split("/");
  const trace: Hop[] = [];
  let i = 0;
  while (i + 1 < parts.length - 1 && PORT_ID.test(parts[i]) && CHANNEL_ID.test(parts[i + 1])) {
    trace.push({ portId: parts[i], channelId: parts[i + 1] });
    i += 2;
  }
  return { base: parts.slice(i).join("/"), trace };
}
