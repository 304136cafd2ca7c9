/**
 * Checked when the plugin loads, before anything else: the Hardhat it runs in and the Node.js it runs
 * on. Each mismatch stops with a message naming what is installed and what is needed, instead of a
 * failure somewhere inside.
 */
import { HardhatPluginError } from "hardhat/plugins";
import { version as HARDHAT_VERSION } from "hardhat/package.json";

/** The Hardhat versions this plugin works with (its peer range, `^2.26.0`). */
const HARDHAT_RANGE = { major: 2, minMinor: 26, text: "^2.26.0" } as const;
/** Node.js ≥ 20.19: EthereumJS v10 needs require() of ES modules. */
const NODE_MIN = { major: 20, minor: 19, text: ">=20.19" } as const;

function majorMinor(v: string): [number, number] {
  const m = /^(\d+)\.(\d+)/.exec(v);
  return m === null ? [NaN, NaN] : [Number(m[1]), Number(m[2])];
}

/** Why this Hardhat or Node.js cannot run the plugin, or undefined when both can. */
export function compatibilityProblem(hardhatVersion: string, nodeVersion: string): string | undefined {
  const [hMajor, hMinor] = majorMinor(hardhatVersion);
  if (hMajor !== HARDHAT_RANGE.major || !(hMinor >= HARDHAT_RANGE.minMinor)) {
    const hint =
      hMajor > HARDHAT_RANGE.major
        ? 'with Hardhat 3, list the plugin in `plugins` of hardhat.config.ts instead (`import hardhatEpochs from "hardhat-epochs"`, the package\'s import entry), or install hardhat@^2'
        : "upgrade Hardhat (npm install --save-dev hardhat@^2)";
    return `hardhat-epochs needs Hardhat ${HARDHAT_RANGE.text}, but this project has Hardhat ${hardhatVersion}: ${hint}`;
  }
  const [nMajor, nMinor] = majorMinor(nodeVersion);
  if (nMajor < NODE_MIN.major || (nMajor === NODE_MIN.major && nMinor < NODE_MIN.minor)) {
    return `hardhat-epochs needs Node.js ${NODE_MIN.text} (the EthereumJS VM it runs loads ES modules with require()), but this is Node.js ${nodeVersion}`;
  }
  return undefined;
}

const problem = compatibilityProblem(HARDHAT_VERSION, process.versions.node);
if (problem !== undefined) throw new HardhatPluginError("hardhat-epochs", problem);
