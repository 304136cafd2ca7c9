import { expect } from "chai";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bearerMatches, generateToken, readOrCreateTokenFile } from "../../../src/rpc/transport/auth";

describe("transport: bearer token", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "token-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("generates 32 random bytes as hex", () => {
    const a = generateToken();
    expect(a).to.match(/^[0-9a-f]{64}$/);
    expect(generateToken()).not.to.equal(a);
  });

  it("matches only `Bearer <token>` with the exact token", () => {
    expect(bearerMatches("Bearer abc", "abc")).to.equal(true);
    expect(bearerMatches("bearer   abc ", "abc")).to.equal(true);
    for (const h of [undefined, "", "abc", "Bearer", "Bearer ab", "Bearer abcd", "Basic abc", "Bearer abc def"]) expect(bearerMatches(h, "abc"), String(h)).to.equal(false);
  });

  it("creates the token file with mode 0600 (in a new directory) and reuses it", () => {
    const file = path.join(dir, "sub", "jsonrpc.token");
    const t = readOrCreateTokenFile(file);
    expect(t).to.match(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(readFileSync(file, "utf8")).to.equal(`${t}\n`);
    expect(readOrCreateTokenFile(file)).to.equal(t);
  });

  it("narrows an existing file's wider mode, and a configured token replaces the stored one", () => {
    const file = path.join(dir, "jsonrpc.token");
    writeFileSync(file, "stored-token\n");
    chmodSync(file, 0o644);
    expect(readOrCreateTokenFile(file)).to.equal("stored-token");
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(readOrCreateTokenFile(file, "configured")).to.equal("configured");
    expect(readFileSync(file, "utf8")).to.equal("configured\n");
    expect(statSync(file).mode & 0o777).to.equal(0o600);
  });

  it("replaces an empty file with a new token and refuses tokens a header cannot carry", () => {
    const file = path.join(dir, "jsonrpc.token");
    writeFileSync(file, "\n", { mode: 0o600 });
    expect(readOrCreateTokenFile(file)).to.match(/^[0-9a-f]{64}$/);
    expect(() => readOrCreateTokenFile(file, "has space")).to.throw("the bearer token must be non-empty printable ASCII without spaces");
    expect(() => readOrCreateTokenFile(file, "")).to.throw("bearer token");
  });
});
