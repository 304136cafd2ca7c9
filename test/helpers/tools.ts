/**
 * A test that needs a tool the repository does not install itself (Anvil's platform binary, Debian's
 * Chromium, root for a tmpfs): locally it is skipped with the reason printed; under CI (`CI=true`) a
 * missing tool fails the run with what to install, so a green CI never hides a skipped test.
 */
import type { Context } from "mocha";

export function requireTool(ctx: Context, tool: string, missing: string | undefined, install: string): void {
  if (missing === undefined) return;
  if (process.env.CI === "true") throw new Error(`${tool} is missing (${missing}): ${install}`);
  console.log(`      (skipped: ${tool} is missing (${missing}); ${install})`);
  ctx.skip();
}
