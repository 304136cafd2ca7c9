// Lint rules: typescript-eslint's recommended set, strict about unused code and floating promises.
import tseslint from "typescript-eslint";

/** rpc/ reaches the chain through src/chain/index.ts (Node, the execution and tracing entry points, types), and no raw store. */
const RPC_CHAIN = [
  { regex: "^(\\.\\./)+chain/", message: "rpc/ imports the chain from src/chain/index.ts only (docs/architecture.md)" },
  { regex: "^(\\.\\./)+storage/(kv|level-kv|memory-kv|module-store|trie-db)$", message: "rpc/ does not reach a raw store (docs/architecture.md)" },
];

/**
 * The rest above the chain (the composition root, the shared host, the Hardhat hosts) reaches it
 * through its three declared entries: src/chain/index.ts, src/chain/setup.ts (what builds and hosts a
 * node) and src/chain/config.ts (its settings, light enough for Hardhat's config resolution).
 */
const CHAIN_ENTRIES = {
  regex: "^(\\.\\./)+chain/(?!(setup|config)(\\.js)?$)",
  message: "above the chain, import it from src/chain/index.ts, src/chain/setup.ts or src/chain/config.ts (docs/architecture.md)",
};

/** rpc/ and app/ reach the Cosmos modules through src/cosmos/index.ts (the CosmosModules object and its types). */
const COSMOS_FACADE = { regex: "^(\\.\\./)+cosmos/", message: "rpc/ and app/ import the Cosmos modules from src/cosmos/index.ts only (docs/architecture.md)" };

/**
 * ethers' root entry loads all of ethers (providers, wallets, word lists): about twice the modules and
 * the time of the parts the chain uses, paid by every cold start. Its subpaths (`ethers/abi`,
 * `ethers/utils`, …) load only what they name.
 */
const ETHERS_ROOT = { regex: "^ethers$", message: "import from ethers' subpaths (ethers/abi, ethers/utils, …): the root entry loads all of ethers" };

const ETHERS_SYNTAX = [
  { selector: "CallExpression[callee.name='require'][arguments.0.value='ethers']", message: ETHERS_ROOT.message },
  { selector: "ImportExpression[source.value='ethers']", message: ETHERS_ROOT.message },
];

/**
 * An EVM journal checkpoint left open swallows the block's state (docs/security.md, "What a
 * transaction can do to the chain"): executions open theirs through src/chain/engine/isolation.ts,
 * which restores the depth whatever is thrown; block production opens the block's own.
 */
const CHECKPOINT_OWNERS = ["src/chain/engine/isolation.ts", "src/chain/block/block-producer.ts"];
const JOURNAL_CHECKPOINT = {
  selector: "CallExpression[callee.property.name='checkpoint'][callee.object.property.name='journal']",
  message: "open an execution's checkpoint with openCheckpoint or restoringDepth (src/chain/engine/isolation.ts): they restore the state's depth whatever is thrown",
};

/**
 * The Cosmos module folders of src/cosmos/ and the ones each may import types from (its expected
 * keepers: docs/architecture.md, "The Cosmos modules as a Cosmos app"). No value crosses between module
 * folders, and none imports the app's files (src/cosmos/*.ts): the wiring file hands them their keepers.
 */
const COSMOS_MODULES = {
  bank: [],
  bech32: [],
  p256: [],
  ics20: ["bank"],
  erc20: ["bank", "ics20"],
  staking: ["bank"],
  slashing: ["bank", "staking"],
  distribution: ["bank", "staking"],
  mint: ["bank", "staking", "distribution"],
  gov: ["bank", "staking", "distribution", "mint"],
};

const ORDER_TEXT = Object.entries(COSMOS_MODULES).map(([m, b]) => `${m} on ${b.join(", ") || "common/"}`).join("; ");

function cosmosModuleFolders() {
  const all = Object.keys(COSMOS_MODULES);
  return Object.entries(COSMOS_MODULES).map(([module, below]) => {
    const others = all.filter((m) => m !== module);
    const notBelow = others.filter((m) => !below.includes(m));
    return {
      files: [`src/cosmos/${module}/**`],
      rules: {
        "@typescript-eslint/no-restricted-imports": [
          "error",
          {
            patterns: [
              ...(below.length > 0 ? [{ regex: `^\\.\\./(${below.join("|")})/`, allowTypeImports: true, message: `a Cosmos module imports another's types only (its expected keepers); src/cosmos/app.ts hands it keepers` }] : []),
              { regex: `^\\.\\./(${notBelow.join("|")})/`, message: `src/cosmos/${module}/ imports types of ${below.join(", ") || "no other module"} only (the module order: ${ORDER_TEXT})` },
              { regex: "^\\.\\./[^./][^/]*$", message: "a Cosmos module does not import the app's files (src/cosmos/*.ts): the wiring file hands it what it needs" },
            ],
          },
        ],
      },
    };
  });
}

/** A `no-restricted-imports` block per layer: the folders (and paths) its files may not import. */
function layers(rows) {
  return rows.map(([files, above, extra = []]) => ({
    files,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            // a relative import that climbs to src/ and enters a layer above
            ...(above.length > 0
              ? [{ regex: `^(\\.\\./)+(${above.join("|")})(/|$)`, message: "imports go one way: hosts → host → app → rpc → epochs/cosmos → chain/keystore → solidity/storage (docs/architecture.md)" }]
              : []),
            ETHERS_ROOT,
            ...extra,
          ],
        },
      ],
    },
  }));
}

export default tseslint.config(
  // examples/ are projects of their own: the package test type-checks them where the package is installed
  { ignores: ["node_modules/", "dist/", "examples/", "artifacts/", "cache/", "typechain-types/", "scratch/", "bench/.hardhat-*/"] },
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
  // One direction of imports (docs/architecture.md): hosts → host → app → rpc → epochs/cosmos → chain/keystore → solidity/storage.
  ...layers([
    [["src/storage/**"], ["solidity", "chain", "keystore", "epochs", "cosmos", "rpc", "app", "host", "hardhat", "hardhat3"]],
    // what compiler output says about code (contracts, source maps, stack traces, revert data, console.log): below the chain, beside storage
    [["src/solidity/**"], ["storage", "chain", "keystore", "epochs", "cosmos", "rpc", "app", "host", "hardhat", "hardhat3"]],
    [["src/chain/**", "src/keystore/**"], ["epochs", "cosmos", "rpc", "app", "host", "hardhat", "hardhat3"]],
    [["src/epochs/**", "src/cosmos/**"], ["rpc", "app", "host", "hardhat", "hardhat3"]],
    [["src/rpc/**"], ["app", "host", "hardhat", "hardhat3"], [...RPC_CHAIN, COSMOS_FACADE]],
    // the REST routes serve requests as rpc/ does: the chain through its facade; the composition root (runtime.ts) builds it
    [["src/app/rest/**"], ["host", "hardhat", "hardhat3"], [...RPC_CHAIN, COSMOS_FACADE]],
    [["src/app/*.ts"], ["host", "hardhat", "hardhat3"], [COSMOS_FACADE, CHAIN_ENTRIES]],
    // the shared host has no Hardhat import: each host maps Hardhat onto it
    [["src/host/**"], ["hardhat", "hardhat3"], [CHAIN_ENTRIES, { group: ["hardhat", "hardhat/**"], message: "the shared host has no Hardhat import: each host maps Hardhat onto it" }]],
    // the hosts and the shared utilities: no layer above them, ethers' subpaths all the same
    [["src/hardhat/**", "src/hardhat3/**"], [], [CHAIN_ENTRIES]],
    [["src/utils/**", "src/*.ts"], []],
  ]),
  // the Cosmos module folders among themselves
  ...cosmosModuleFolders(),
  // the same for ethers loaded on demand; and the EVM journal's checkpoints opened in one place only
  {
    files: ["src/**/*.ts", "src/**/*.mts"],
    ignores: CHECKPOINT_OWNERS,
    rules: { "no-restricted-syntax": ["error", ...ETHERS_SYNTAX, JOURNAL_CHECKPOINT] },
  },
  {
    files: CHECKPOINT_OWNERS,
    rules: { "no-restricted-syntax": ["error", ...ETHERS_SYNTAX] },
  },
  {
    files: ["test/**/*.ts", "bench/tests/test/**/*.ts"],
    rules: { "@typescript-eslint/no-unused-expressions": "off" },
  },
);
