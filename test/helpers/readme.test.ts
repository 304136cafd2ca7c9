import { expect } from "chai";
import { readmeScript, readmeSection } from "./readme";

const README = [
  "# t",
  "### Host A",
  "```sh",
  "npm install --save-dev hardhat-epochs hardhat@^2 \\",
  "  other hardhat-epochs",
  "npx hardhat epochs:list",
  "```",
  "```ts",
  "// test/a.test.ts",
  "import 'hardhat-epochs';",
  "```",
  "### Host B",
  "```sh",
  "echo b",
  "```",
].join("\n");

describe("the README's install sections as a script (test/helpers/readme.ts)", () => {
  it("takes the blocks under one heading only, in order", () => {
    expect(readmeSection(README, "### Host A").map((b) => b.lang)).to.deep.equal(["sh", "ts"]);
    expect(readmeSection(README, "### Host B")).to.deep.equal([{ lang: "sh", text: "echo b\n" }]);
    expect(() => readmeSection(README, "### Host C")).to.throw(/no heading/);
  });

  it("puts the tarball in place of the registry name in install lines only, and saves files where they say", () => {
    const script = readmeScript(readmeSection(README, "### Host A"), "/t/p.tgz");
    expect(script).to.include("npm install --save-dev /t/p.tgz hardhat@^2 \\\n  other /t/p.tgz\n");
    expect(script).to.include("npx hardhat epochs:list\n");
    expect(script).to.include("cat > 'test/a.test.ts' <<'README_EOF'\n// test/a.test.ts\nimport 'hardhat-epochs';\nREADME_EOF");
  });

  it("refuses a file block that does not say where it goes", () => {
    expect(() => readmeScript([{ lang: "ts", text: "const x = 1;\n" }], "/t.tgz")).to.throw(/without a "\/\/ <path>"/);
  });
});
