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

/**
 * The genesis file's funded addresses (its `app_state.bank.balances` in the native coin), for which the
 * node holds no key: a team's genesis funds its own dev keys and validator this way (local_node.sh's
 * dev0–dev3 and `mykey`), and the banner says who they are and what they hold.
 */
export function genesisBalancesBanner(balances: ReadonlyArray<{ address: string; balance: bigint }>, coin: { symbol: string; denom: string }): string[] {
  if (balances.length === 0) return [];
  const amount = (wei: bigint) => (wei % 10n ** 18n === 0n ? `${wei / 10n ** 18n} ${coin.symbol}` : `${wei}${coin.denom}`);
  return ["Genesis balances (the genesis file's app_state.bank.balances; their keys are the genesis's owners')", "", ...balances.map((b) => `${getAddress(b.address)} (${amount(b.balance)})`), ""];
}
