/** test/helpers/tools.ts: a missing tool skips a test locally and fails it under CI, naming the tool. */
import { expect } from "chai";
import type { Context } from "mocha";
import { requireTool } from "./tools";

describe("a test's missing tool (test/helpers/tools.ts)", function () {
  const saved = process.env.CI;
  afterEach(() => {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  });
  const context = (): Context & { skipped: boolean } => {
    const ctx = { skipped: false, skip: () => void (ctx.skipped = true) };
    return ctx as unknown as Context & { skipped: boolean };
  };

  it("under CI=true fails naming the tool and what to install", () => {
    process.env.CI = "true";
    const ctx = context();
    expect(() => requireTool(ctx, "Chromium", "no browser at /usr/bin/chromium", "apt-get install chromium")).to.throw(
      "Chromium is missing (no browser at /usr/bin/chromium): apt-get install chromium",
    );
    expect(ctx.skipped).to.equal(false);
  });

  it("elsewhere skips the test; a tool that is there changes nothing", () => {
    delete process.env.CI;
    const ctx = context();
    requireTool(ctx, "Anvil", "npm installed no binary", "npm ci");
    expect(ctx.skipped).to.equal(true);
    const present = context();
    process.env.CI = "true";
    requireTool(present, "Anvil", undefined, "npm ci");
    expect(present.skipped).to.equal(false);
  });
});
