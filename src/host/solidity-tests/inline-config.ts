/**
 * forge's inline test configuration: `/// forge-config: default.fuzz.runs = 512` in the comments
 * right above a test function (or above its contract, for all of its tests). The keys this runner
 * reads: `fuzz.runs`, `fuzz.max_test_rejects`, `invariant.runs`, `invariant.depth`,
 * `allow_internal_expect_revert`.
 */
export interface InlineConfig {
  fuzzRuns?: number;
  maxTestRejects?: number;
  invariantRuns?: number;
  invariantDepth?: number;
  allowInternalExpectRevert?: boolean;
}

const KEYS: Record<string, keyof InlineConfig> = {
  "fuzz.runs": "fuzzRuns",
  "fuzz.max_test_rejects": "maxTestRejects",
  "invariant.runs": "invariantRuns",
  "invariant.depth": "invariantDepth",
  allow_internal_expect_revert: "allowInternalExpectRevert",
};

/** Each function's settings in `source` for `profile`, by function name ("" = the contract's, for all of them). */
export function inlineConfig(source: string | undefined, contract: string, profile = "default"): Map<string, InlineConfig> {
  const out = new Map<string, InlineConfig>();
  if (source === undefined) return out;
  const lines = source.split("\n");
  let inContract = false;
  lines.forEach((line, i) => {
    const c = /^\s*(?:abstract\s+)?contract\s+(\w+)/.exec(line);
    if (c !== null) {
      inContract = c[1] === contract;
      if (inContract) out.set("", { ...out.get(""), ...commentsAbove(lines, i, profile) });
      return;
    }
    const f = /^\s*function\s+(\w+)\s*\(/.exec(line);
    if (f !== null && inContract) out.set(f[1], { ...out.get(""), ...commentsAbove(lines, i, profile) });
  });
  return out;
}

function commentsAbove(lines: string[], at: number, profile: string): InlineConfig {
  const config: InlineConfig = {};
  for (let i = at - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!(line.startsWith("//") || line.startsWith("*") || line.startsWith("/*"))) break;
    const m = /forge-config:\s*(\w+)\.([\w.]+)\s*=\s*(\S+)/.exec(line);
    if (m === null || m[1] !== profile) continue;
    const key = KEYS[m[2]];
    if (key === undefined) continue;
    if (key === "allowInternalExpectRevert") config[key] = m[3] === "true";
    else config[key] = Number(m[3]);
  }
  return config;
}
