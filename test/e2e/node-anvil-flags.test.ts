/**
 * `npx hardhat node` with Anvil's chain flags, as a Foundry user types them: `--chain-id`,
 * `--accounts`, `--mnemonic`, `--balance`, `--block-time` (src/host/settings/chain-flags.ts), and a bad value
 * answered with the flag's name, not Hardhat's "unexpected error".
 */
import { expect } from "chai";
import { HDNodeWallet } from "ethers";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Started, startHardhatNode, stopProcessGroup, waitForOutput } from "../helpers/processes";
import { rpc } from "../helpers/json-rpc";

const MNEMONIC = "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat";

describe("npx hardhat node: Anvil's chain flags", function () {
  this.timeout(120_000);
  let node: Started | undefined;
  after(() => stopProcessGroup(node?.child));

  it("--chain-id, --accounts, --mnemonic, --balance and --block-time shape the node's chain; the keys stay unprinted", async () => {
    node = await startHardhatNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0", "--chain-id", "777", "--accounts", "3", "--mnemonic", MNEMONIC, "--balance", "5", "--block-time", "1"]);
    await waitForOutput(node, "Account #2: ");
    expect((await rpc(node.url, "eth_chainId")).result).to.equal("0x309");
    const accounts = (await rpc<string[]>(node.url, "eth_accounts")).result ?? [];
    const expected = [0, 1, 2].map((i) => HDNodeWallet.fromPhrase(MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`).address.toLowerCase());
    expect(accounts.map((a) => a.toLowerCase())).to.deep.equal(expected);
    expect((await rpc(node.url, "eth_getBalance", [accounts[0], "latest"])).result).to.equal(`0x${(5n * 10n ** 18n).toString(16)}`);
    // a team's own mnemonic: neither it nor its keys reach the terminal
    expect(node.output()).to.not.include("Private Key");
    expect(node.output()).to.not.include("candy maple");
    expect(node.output()).to.not.include("Account #3: ");
    // blocks come by themselves: no word about timers waiting for transactions
    expect(node.output()).to.not.include("Blocks are mined only when a transaction arrives");
    // interval mining, no automine: a transaction waits for the next block, which comes by itself
    const hash = (await rpc<string>(node.url, "eth_sendTransaction", [{ from: accounts[0], to: accounts[1], value: "0x1" }])).result;
    expect(hash).to.match(/^0x[0-9a-f]{64}$/);
    expect((await rpc(node.url, "eth_getTransactionReceipt", [hash])).result).to.equal(null);
    let receipt: { status: string } | null = null;
    for (let i = 0; i < 50 && receipt === null; i++) {
      await new Promise((r) => setTimeout(r, 100));
      receipt = (await rpc<{ status: string } | null>(node.url, "eth_getTransactionReceipt", [hash])).result ?? null;
    }
    expect(receipt?.status, "mined by the 1-second interval").to.equal("0x1");
    await stopProcessGroup(node.child);
  });

  /** The start's failure text; fails the test when the node starts. */
  const startFails = (args: string[]): Promise<string> =>
    startHardhatNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0", ...args]).then(
      (n) => {
        node = n;
        return expect.fail("the node started");
      },
      (err: Error) => err.message,
    );

  it("refuses a bad value with the flag's name", async () => {
    const failed = await startFails(["--block-time", "0"]);
    expect(failed).to.include('--block-time: expected seconds greater than 0 (e.g. 2 or 0.5), got "0"');
    expect(failed).to.not.include("An unexpected error occurred");
  });

  it("--chain-id makes a new home's genesis; an existing home's other chain id is refused, not ignored", async () => {
    const home = mkdtempSync(path.join(tmpdir(), "epochs-chain-id-"));
    try {
      node = await startHardhatNode(["--port", "0", "--json-rpc.ws-address", "127.0.0.1:0", "--home", home, "--chain-id", "4242"]);
      expect((await rpc(node.url, "eth_chainId")).result).to.equal("0x1092");
      await stopProcessGroup(node.child);
      expect(await startFails(["--home", home, "--chain-id", "777"])).to.include(
        `--chain-id 777: the home's genesis (${path.join(home, "config", "genesis.json")}) says chain id 4242, fixed when the home was made`,
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
