/**
 * Key tasks on a node home's key store, so that keys exist before the node starts (as `evmosd keys
 * add` or `geth account new`): `keys:new`, `keys:import`, `keys:list`, for both Hardhats (their task
 * definitions: tasks/keys.ts, src/hardhat3/tasks/keys-*.mts). They work on the files of
 * `<home>/keystore` and build no chain. Passphrases and keys come from a file or from a prompt that
 * does not echo; they are never printed. No Hardhat import.
 */
import { UserError } from "../../utils/user-error";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { KeyStore, KeyStoreOptions } from "../../keystore";

/* eslint-disable @typescript-eslint/no-require-imports -- loaded with every task of the plugin: the key store and ethers load when a keys task runs */
const keystoreModule = () => require("../../keystore") as typeof import("../../keystore");
const getAddress = (address: string): string => (require("ethers/address") as typeof import("ethers/address")).getAddress(address);
/* eslint-enable @typescript-eslint/no-require-imports */

export interface KeyArgs {
  home: string;
  passphraseFile?: string;
  lightKdf: boolean;
}

/** A key task's refusal (each host shows it as its own plugin error). */
class KeyTaskError extends UserError {}

function fail(message: string): never {
  throw new KeyTaskError(message);
}

/** The first line of a file (geth's --password file), without its line ending. */
function firstLine(file: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    fail(`cannot read the ${what} file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return text.split(/\r?\n/)[0];
}

let stdinLines: string[] | undefined;

/** Without a terminal, each answer is the next line of stdin (so `printf 'pass\n' | npx hardhat keys:new` works). */
async function nextStdinLine(what: string): Promise<string> {
  if (stdinLines === undefined) {
    let text = "";
    for await (const chunk of process.stdin) text += chunk.toString();
    stdinLines = text.split(/\r?\n/);
    if (stdinLines[stdinLines.length - 1] === "") stdinLines.pop();
  }
  const line = stdinLines.shift();
  if (line === undefined) fail(`no ${what}: stdin ended (give --passphrase-file, or run in a terminal)`);
  return line;
}

/** Asks on the terminal without echoing what is typed (raw mode), or reads the next stdin line. */
async function ask(question: string, what: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return nextStdinLine(what);
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = () => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") {
          finish();
          resolve(value);
          return;
        }
        if (ch === "\u0003" || (ch === "\u0004" && value === "")) {
          finish();
          reject(new KeyTaskError("cancelled"));
          return;
        }
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on("data", onData);
  });
}

/** The passphrase of a new key: the file's first line, or asked twice on a terminal. */
async function newPassphrase(args: KeyArgs): Promise<string> {
  if (args.passphraseFile !== undefined) return firstLine(args.passphraseFile, "passphrase");
  const first = await ask("Passphrase: ", "passphrase");
  if (process.stdin.isTTY && (await ask("Repeat passphrase: ", "passphrase")) !== first) fail("the passphrases do not match");
  return first;
}

async function openStore(args: KeyArgs): Promise<KeyStore> {
  if (typeof args.home !== "string" || args.home === "") fail("--home DIR is required: the key store is DIR/keystore (without a home the node keeps its keys in memory)");
  const opts: KeyStoreOptions = {
    dir: path.join(path.resolve(args.home), "keystore"),
    scrypt: args.lightKdf ? "light" : "standard",
    onSkipped: (file, reason) => console.warn(`WARNING: skipped key file ${file}: ${reason}`),
  };
  try {
    return await keystoreModule().KeyStore.open(opts);
  } catch (err) {
    fail(`cannot open the key store ${opts.dir}: ${(err as Error).message}`);
  }
}

/** geth's `account import` key file: hex, with or without 0x, on the first line. */
function parseKey(text: string): Uint8Array {
  const body = text.trim().replace(/^0[xX]/, "");
  if (!/^[0-9a-fA-F]{64}$/.test(body)) fail("the private key must be 32 bytes of hex (64 digits, with or without 0x)");
  const key = new Uint8Array(Buffer.from(body, "hex"));
  if (!keystoreModule().isValidPrivateKey(key)) fail("the private key is not a valid secp256k1 key (zero, or not below the curve order)");
  return key;
}

async function store(args: KeyArgs, make: (ks: KeyStore, passphrase: string) => Promise<string>): Promise<string> {
  const ks = await openStore(args);
  try {
    const passphrase = await newPassphrase(args);
    let address: string;
    try {
      address = await make(ks, passphrase);
    } catch (err) {
      if (err instanceof keystoreModule().KeyStoreError) fail(err.message);
      throw err;
    }
    const file = ks
      .wallets()
      .find((w) => w.accounts[0].address === address)
      ?.url.replace(/^keystore:\/\//, "");
    console.log(`Public address of the key:   ${getAddress(address)}`);
    console.log(`Path of the secret key file: ${file}`);
    console.log("Keep a copy of the key file and remember the passphrase: without both, the key cannot be used.");
    return getAddress(address);
  } finally {
    ks.close();
  }
}

/** keys:new: a fresh key, encrypted with the passphrase; answers its address. */
export function keysNew(args: KeyArgs): Promise<string> {
  return store(args, (ks, passphrase) => ks.newAccount(passphrase));
}

/** keys:import: a hex private key (from `keyFile` or a prompt), encrypted with the passphrase. */
export async function keysImport(args: KeyArgs & { keyFile?: string }): Promise<string> {
  const key = parseKey(args.keyFile !== undefined ? firstLine(args.keyFile, "key") : await ask("Private key (hex): ", "private key"));
  try {
    return await store(args, (ks, passphrase) => ks.importKey(key, passphrase));
  } finally {
    key.fill(0);
  }
}

/** keys:list: geth's `account list` lines; answers the addresses. */
export async function keysList(home: string): Promise<string[]> {
  const ks = await openStore({ home, lightKdf: false });
  try {
    const wallets = ks.wallets();
    if (wallets.length === 0) console.log(`No keys in ${ks.dir}`);
    wallets.forEach((w, i) => console.log(`Account #${i}: {${w.accounts[0].address.slice(2)}} ${w.url}`));
    return wallets.map((w) => getAddress(w.accounts[0].address));
  } finally {
    ks.close();
  }
}
