/**
 * The node banner's account list, for both hosts' `node` tasks. A private key is printed only when it
 * is publicly known: one of the keys Hardhat derives from its default mnemonic ("test test … junk")
 * on the default path. Keys of a user's own mnemonic or key list never reach a terminal or a log.
 */
import { getAddress } from "ethers/address";
import { hexlify } from "ethers/utils";
import { type GenesisAccount, isPubliclyKnownKey } from "../../chain/config";
import { addressOfKey } from "../../chain/setup";

const WARNING = ["WARNING: These accounts, and their private keys, are publicly known.", "Any funds sent to them on Mainnet or any other live network WILL BE LOST."];

/** The "Accounts" section of the banner: address and balance of each, the key only where it is publicly known. */
export function accountBanner(accounts: readonly GenesisAccount[]): string[] {
  const shown = accounts.map((a) => ({ a, known: isPubliclyKnownKey(a.privateKey, accounts.length) }));
  const anyKnown = shown.some((s) => s.known);
  const lines = ["Accounts", "========", ""];
  if (anyKnown) lines.push(...WARNING, "");
  shown.forEach(({ a, known }, i) => {
    const address = getAddress(addressOfKey(a.privateKey).toString());
    lines.push(`Account #${i}: ${address} (${a.balance / 10n ** 18n} ETH)${known ? `\nPrivate Key: ${hexlify(a.privateKey)}` : ""}`, "");
  });
  if (anyKnown) lines.push(...WARNING, "");
  return lines;
}
