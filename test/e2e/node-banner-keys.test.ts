/**
 * The node banner prints a private key only when it is publicly known (Hardhat's default mnemonic):
 * src/host/node/account-banner.ts, which both hosts' `node` tasks print. Keys of a user's own mnemonic
 * never reach the terminal (checked through `npx hardhat node` of a project with its own mnemonic).
 */
import { expect } from "chai";
import { rmSync } from "node:fs";
import path from "node:path";
import { DEFAULT_ACCOUNT_BALANCE, DEFAULT_HD_PATH, DEFAULT_MNEMONIC, deriveAccounts } from "../../src/chain/config";
import { accountBanner } from "../../src/host/node/account-banner";
import { isPubliclyKnownKey } from "../../src/chain/config";
import { BOOTSTRAP, ROOT, type Started, freePort, startNodeProcess, stopProcessGroup, waitForOutput } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";

const OWN = "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat";
const PROJECT = path.join(ROOT, "test", "fixture-projects", "own-mnemonic");
const hexKey = (k: Uint8Array) => `0x${Buffer.from(k).toString("hex")}`;

describe("node banner: private keys only when publicly known", function () {
  this.timeout(120_000);
  let node: Started | undefined;
  after(async () => {
    await stopProcessGroup(node?.child);
    rmSync(path.join(PROJECT, "cache"), { recursive: true, force: true });
  });

  it("prints the default mnemonic's keys under the warning, and none of a user's own mnemonic", () => {
    const defaults = deriveAccounts(DEFAULT_MNEMONIC, DEFAULT_HD_PATH, 2, 0, DEFAULT_ACCOUNT_BALANCE);
    const text = accountBanner(defaults).join("\n");
    expect(text).to.include("WARNING: These accounts, and their private keys, are publicly known.");
    expect(text).to.include("Account #0: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 (10000 ETH)\nPrivate Key: 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");

    const own = deriveAccounts(OWN, DEFAULT_HD_PATH, 3, 0, DEFAULT_ACCOUNT_BALANCE);
    const ownText = accountBanner(own).join("\n");
    expect(ownText).to.not.include("Private Key");
    expect(ownText).to.not.include("publicly known");
    for (const a of own) {
      expect(isPubliclyKnownKey(a.privateKey)).to.equal(false);
      expect(ownText).to.not.include(hexKey(a.privateKey).slice(2));
    }
    // a list mixing both prints only the known key
    const mixed = accountBanner([own[0], defaults[1]]).join("\n");
    expect(mixed.match(/Private Key/g)).to.have.length(1);
    expect(mixed).to.include(hexKey(defaults[1].privateKey));
  });

  it("npx hardhat node of a project with its own mnemonic prints its accounts without their keys", async () => {
    const port = await freePort();
    node = await startNodeProcess(process.execPath, [BOOTSTRAP, "--config", path.join(PROJECT, "hardhat.config.ts"), "node", "--port", String(port)], { cwd: ROOT });
    await waitForOutput(node, "Account #2: ");
    const out = node.output();
    const [address] = (await rpc(node.url, "eth_accounts")).result as string[];
    expect(out).to.include(`Account #0: `);
    expect(out.toLowerCase()).to.include(address.toLowerCase());
    expect(out).to.not.include("Private Key");
    expect(out).to.not.include("publicly known");
    for (const a of deriveAccounts(OWN, DEFAULT_HD_PATH, 3, 0, DEFAULT_ACCOUNT_BALANCE)) expect(out).to.not.include(hexKey(a.privateKey).slice(2));
  });
});
