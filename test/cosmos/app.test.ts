/**
 * The wiring file (src/cosmos/app.ts) is the one place a Cosmos keeper is built: a keeper built
 * elsewhere would get its dependencies or hooks its own way (a staking keeper without distribution's
 * hooks skips the reward withdrawal a delegation change owes). And x/gov runs a proposal's messages
 * through the Msg router, not a switch of its own.
 */
import { expect } from "chai";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { Keepers } from "../../src/cosmos/app";
import { DEC } from "../../src/cosmos/staking/types";
import { ALICE, OP0, stakingChain } from "../helpers/module-env";

const SRC = path.resolve(__dirname, "../../src");
const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(path.join(dir, n)).isDirectory() ? files(path.join(dir, n)) : n.endsWith(".ts") ? [path.join(dir, n)] : []));
const code = (file: string) =>
  readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");

describe("the Cosmos app's wiring", () => {
  it("builds every Cosmos keeper in src/cosmos/app.ts and nowhere else", () => {
    const keeperClasses = ["Bank", "StakingKeeper", "DistributionKeeper", "SlashingKeeper", "MintKeeper", "GovKeeper", "Erc20Keeper", "Ics20Keeper"];
    const built = new RegExp(`new (${keeperClasses.join("|")})\\(`, "g");
    const outside = files(SRC)
      .filter((f) => path.relative(SRC, f) !== path.join("cosmos", "app.ts"))
      .flatMap((f) => [...code(f).matchAll(built)].map((m) => `${path.relative(SRC, f)}: ${m[0]}`));
    expect(outside).to.deep.equal([]);
    // and the wiring file builds each of them
    for (const c of keeperClasses) expect(code(path.join(SRC, "cosmos", "app.ts"))).to.contain(`new ${c}(`);
  });

  it("has x/gov route a proposal's messages through the Msg router: no type URL switch in src/cosmos/gov/", () => {
    const cases = files(path.join(SRC, "cosmos", "gov")).filter((f) => /case\s+["']\/cosmos\./.test(code(f)));
    expect(cases).to.deep.equal([]);
  });

  it("wires staking's delegation hooks to distribution: a delegation that grows withdraws its rewards first", async () => {
    const { at } = await stakingChain();
    const k = at();
    expect(k).to.be.instanceOf(Keepers);
    await k.distribution.allocate(10n * DEC);
    const owed = await k.distribution.delegationRewards(OP0, OP0);
    expect(owed > 0n).to.equal(true);
    // a second self-delegation: distribution's hook pays what was owed before the shares change
    await k.env.mint(OP0, DEC);
    await k.staking.delegate(OP0, OP0, DEC);
    expect(await k.distribution.delegationRewards(OP0, OP0)).to.equal(0n);
    expect(await k.env.balance(OP0)).to.equal(owed / DEC);
    expect(await k.staking.delegationShares(ALICE, OP0)).to.equal(undefined);
  });
});
