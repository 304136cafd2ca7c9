/**
 * personal_*: accounts in the node's encrypted key store, with geth's parameters, results and error
 * texts. Every method needs the bearer token on the network transports, except Hardhat's form
 * `personal_sign(data, address)` with a dev account from this machine (its key is public).
 * Methods that run the key-derivation function (a second or more with the standard parameters) run
 * outside the node's lock, so the chain keeps serving meanwhile.
 */
import { Address } from "@ethereumjs/util";
import { getAddress } from "ethers/address";
import { hashMessage } from "ethers/hash";
import { recoverAddress } from "ethers/transaction";
import { DEFAULT_UNLOCK_SECONDS, DurationTooLargeError, MAX_UNLOCK_SECONDS } from "../../keystore";
import { assertInsecureUnlockAllowed, isDevAccount, withKeyStore } from "../accounts";
import type { RpcDeps } from "../deps";
import { ServerError } from "../errors";
import { formatTransaction, hex } from "../format";
import { type Access, method } from "../method";
import { txRequest } from "../objects";
import { ParamError, address, codec, data, jsonType, parseQuantity, string } from "../params";
import { sendTx, signMessage } from "./eth/transactions";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const UNKNOWN_ACCOUNT = "unknown account";

/** Seconds: a JSON number (as geth's *uint64 takes it) or a hex quantity. */
const unlockSeconds = codec((v): bigint => {
  if (typeof v === "number") {
    if (!Number.isInteger(v) || v < 0) throw new ParamError(`cannot unmarshal number ${v} into an unsigned duration in seconds`);
    return BigInt(v);
  }
  if (typeof v === "string") return parseQuantity(v);
  throw new ParamError(`cannot unmarshal ${jsonType(v)} into an unsigned duration in seconds`);
});

/** geth's crypto.HexToECDSA, with an optional 0x: its error texts for bad keys. */
function parsePrivateKey(text: string): Uint8Array {
  const body = text.startsWith("0x") || text.startsWith("0X") ? text.slice(2) : text;
  const bad = /[^0-9a-fA-F]/.exec(body);
  if (bad !== null) throw new ServerError(`invalid hex character ${JSON.stringify(bad[0]).replace(/^"|"$/g, "'")} in private key`);
  if (body.length % 2 !== 0) throw new ServerError("invalid hex data for private key");
  if (body.length !== 64) throw new ServerError("invalid length, need 256 bits");
  const k = BigInt(`0x${body}`);
  if (k >= SECP256K1_N) throw new ServerError("invalid private key, >=N");
  if (k === 0n) throw new ServerError("invalid private key, zero or negative");
  return new Uint8Array(Buffer.from(body, "hex"));
}

export function personalMethods(deps: RpcDeps) {
  const { node, keystore } = deps;

  /**
   * The key of `from` for the methods that take a passphrase: a dev account's (the passphrase is not
   * checked: dev keys are public), else the key-store key it decrypts. `zero` tells whether to wipe it after use.
   */
  const keyWithPassphrase = async (from: Uint8Array | undefined, passphrase: string): Promise<{ key: Uint8Array; zero: boolean }> => {
    const a = new Address(from ?? new Uint8Array(20)).toString();
    const dev = node.keys.get(a);
    if (dev !== undefined) return { key: dev, zero: false };
    if (!keystore.has(a)) throw new ServerError(UNKNOWN_ACCOUNT);
    return { key: await withKeyStore(() => keystore.decrypt(a, passphrase)), zero: true };
  };

  /** Runs `use` with the key of `from` the passphrase opens, wiped afterwards when it is a key-store key. */
  const withPassphraseKey = async <T>(from: Uint8Array | undefined, passphrase: string, use: (key: Uint8Array) => Promise<T>): Promise<T> => {
    const { key, zero } = await keyWithPassphrase(from, passphrase);
    try {
      return await use(key);
    } finally {
      if (zero) key.fill(0);
    }
  };

  /** The key of personal_sign; who may ask for which form is its access class (`signAccess`). */
  const signKey = async (from: Uint8Array, passphrase: string | undefined): Promise<{ key: Uint8Array; zero: boolean }> => {
    const addr = new Address(from).toString();
    if (passphrase === undefined && isDevAccount(deps, addr)) return { key: node.keys.get(addr) as Uint8Array, zero: false };
    if (passphrase !== undefined) return keyWithPassphrase(from, passphrase);
    if (!keystore.has(addr)) throw new ServerError(UNKNOWN_ACCOUNT);
    return { key: await withKeyStore(() => keystore.unlockedKey(addr)), zero: true };
  };
  /** Hardhat's form (a dev account, no password) is `dev`; a key-store key is `private`. */
  const signAccess = (from: Uint8Array, passphrase: string | undefined): Access => (passphrase === undefined && isDevAccount(deps, new Address(from).toString()) ? "dev" : "private");

  const walletUrl = (url: string) => keystore.wallets().some((w) => w.url === url);
  const noSmartcard = (url: string, geth: string): never => {
    if (walletUrl(url)) throw new ServerError(geth);
    throw new ServerError(`unknown wallet: ${url} (this node has no smartcard or hardware wallets; its wallets are the key store's files, see personal_listWallets)`);
  };

  return [
    method({
      name: "personal_importRawKey",
      // never logged: the key and the passphrase
      secretParams: [0, 1],
      params: [string, string],
      access: "private",
      doc: "Stores a hex private key (with or without 0x) encrypted with the passphrase; answers its address. A key already stored answers `account already exists`.",
      handler: ([hexKey, passphrase]) => {
        const key = parsePrivateKey(hexKey);
        return withKeyStore(() => keystore.importKey(key, passphrase)).finally(() => key.fill(0));
      },
    }),
    method({
      name: "personal_newAccount",
      // never logged: the passphrase
      secretParams: [0],
      params: [string],
      access: "private",
      doc: "Generates a key, stores it encrypted with the passphrase (a new key file with a home); answers the address, checksummed as geth does.",
      handler: async ([passphrase]) => getAddress(await withKeyStore(() => keystore.newAccount(passphrase))),
    }),
    method({
      name: "personal_listAccounts",
      params: [],
      access: "private",
      doc: "The key store's accounts, locked or not (eth_accounts lists the dev accounts first, then these). `allow-insecure-unlock = false` refuses it (Evmos).",
      handler: () => {
        assertInsecureUnlockAllowed(deps);
        return keystore.accounts();
      },
    }),
    method({
      name: "personal_listWallets",
      params: [],
      access: "private",
      doc: "geth's wallet list: one `{url, status: Locked|Unlocked, accounts: [{address, url}]}` per key file (url `keystore://<path>`, `keystore://memory/<file>` without a home).",
      handler: () => keystore.wallets(),
    }),
    method({
      name: "personal_unlockAccount",
      // never logged: the passphrase
      secretParams: [1],
      params: [address, string, unlockSeconds.opt()],
      access: "private",
      doc: "Decrypts the key with the passphrase and holds it for `duration` seconds (default 300; 0 = until the node exits); then eth_sendTransaction and eth_sign use it. A dev account answers true (it is always usable). Errors: `could not decrypt key with given password`, `unlock duration too large`, `no key for given address or file`.",
      async handler([addr, passphrase, seconds]) {
        assertInsecureUnlockAllowed(deps);
        if (seconds !== undefined && seconds > MAX_UNLOCK_SECONDS) throw new ServerError(new DurationTooLargeError().message);
        const a = new Address(addr).toString();
        if (isDevAccount(deps, a)) return true;
        await withKeyStore(() => keystore.unlock(a, passphrase, seconds ?? DEFAULT_UNLOCK_SECONDS));
        return true;
      },
    }),
    method({
      name: "personal_lockAccount",
      params: [address],
      access: "private",
      doc: "Locks a key-store account (its key leaves memory) and answers true; false for an address the key store does not hold (a dev account stays usable).",
      handler: ([addr]) => keystore.lock(new Address(addr).toString()),
    }),
    method({
      name: "personal_sendTransaction",
      // never logged: the passphrase
      secretParams: [1],
      params: [txRequest, string],
      access: "private",
      doc: "Signs with the key of `from` opened by the passphrase, without unlocking the account, and submits (eth_sendTransaction's defaults). `allow-insecure-unlock = false` refuses it (Evmos).",
      async handler([req, passphrase]) {
        assertInsecureUnlockAllowed(deps);
        // signed inside the send (Node.send): the pending nonce it takes is the one the pool admits
        return withPassphraseKey(req.from, passphrase, (key) => sendTx(deps, async () => ({ tx: await node.calls.sign(req, node.config.defaultSendGas, key) })));
      },
    }),
    method({
      name: "personal_signTransaction",
      // never logged: the passphrase
      secretParams: [1],
      params: [txRequest, string],
      access: "private",
      doc: "Signs without sending, with the key opened by the passphrase; gas, nonce and fees must be given (geth). Answers `{raw, tx}`.",
      async handler([req, passphrase]) {
        if (req.gas === undefined) throw new ServerError("gas not specified");
        if (req.gasPrice === undefined && (req.maxFeePerGas === undefined || req.maxPriorityFeePerGas === undefined)) {
          throw new ServerError("missing gasPrice or maxFeePerGas/maxPriorityFeePerGas");
        }
        if (req.nonce === undefined) throw new ServerError("nonce not specified");
        const tx = await withPassphraseKey(req.from, passphrase, (key) => node.calls.sign(req, node.config.defaultSendGas, key));
        const { blockHash: _h, blockNumber: _n, transactionIndex: _i, from: _f, ...json } = formatTransaction(tx, tx.getSenderAddress().bytes) as Record<string, unknown>;
        return { raw: hex(tx.serialize()), tx: json };
      },
    }),
    method({
      name: "personal_sign",
      // never logged: the passphrase
      secretParams: [2],
      access: "dev",
      accessFor: ([, addr, passphrase]) => signAccess(addr, passphrase),
      raisesTo: "private",
      params: [data, address, string.opt()],
      doc: "EIP-191 signature (\\x19Ethereum Signed Message:\\n + length + data), V 27/28; ethers.verifyMessage and personal_ecRecover accept it. With a password: the key-store key it opens (needs the token). Without (Hardhat's form): a dev account's key, open from this machine (from beyond loopback it needs the token), or an unlocked key-store account (needs the token).",
      async handler([message, addr, passphrase]) {
        const { key, zero } = await signKey(addr, passphrase);
        try {
          return signMessage(key, message);
        } finally {
          if (zero) key.fill(0);
        }
      },
    }),
    method({
      name: "personal_ecRecover",
      params: [data, data],
      access: "private",
      doc: "The address whose key made a personal_sign / eth_sign signature of the data (65 bytes, V 27 or 28).",
      handler: ([message, sig]) => {
        if (sig.length !== 65) throw new ServerError("signature must be 65 bytes long");
        if (sig[64] !== 27 && sig[64] !== 28) throw new ServerError("invalid Ethereum signature (V is not 27 or 28)");
        try {
          return recoverAddress(hashMessage(message), hex(sig)).toLowerCase();
        } catch (err) {
          throw new ServerError(`invalid signature: ${(err as { shortMessage?: string }).shortMessage ?? (err as Error).message}`);
        }
      },
    }),
    method({
      name: "personal_initializeWallet",
      params: [string],
      access: "private",
      doc: "For smartcard wallets, which this node does not have: a key-store wallet answers geth's `specified wallet does not support initialization`, any other url `unknown wallet`.",
      handler: ([url]) => noSmartcard(url, "specified wallet does not support initialization"),
    }),
    method({
      name: "personal_unpair",
      // never logged: the PIN
      secretParams: [1],
      params: [string, string],
      access: "private",
      doc: "For smartcard wallets, which this node does not have: a key-store wallet answers geth's `specified wallet does not support pairing`, any other url `unknown wallet`.",
      handler: ([url]) => noSmartcard(url, "specified wallet does not support pairing"),
    }),
  ];
}
