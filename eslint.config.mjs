// Lint rules: typescript-eslint's recommended set, strict about unused code and floating promises.
import tseslint from "typescript-eslint";

/** rpc/ reaches the chain through src/chain/index.ts (Node, the execution and tracing entry points, types), and no raw store. */
const RPC_CHAIN = [
  { regex: "^(\\.\\./)+chain/", message: "rpc/ imports the chain from src/chain/index.ts only (docs/architecture.md)" },
  { regex: "^(\\.\\./)+storage/(kv|level-kv|memory-kv|module-store|trie-db)$", message: "rpc/ does not reach a raw store (docs/architecture.md)" },
];

/** A `no-restricted-imports` block per layer: the folders (and paths) its files may not import. */
function layers(rows) {
  return rows.map(([files, above, extra = []]) => ({
    files,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              // a relative import that climbs to src/ and enters a layer above
              regex: `^(\\.\\./)+(${above.join("|")})(/|$)`,
              message: "imports go one way: hosts → host → app → rpc → epochs/cosmos → chain/keystore → storage (docs/architecture.md)",
            },
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
  // One direction of imports (docs/architecture.md): hosts → host → app → rpc → epochs/cosmos → chain/keystore → storage.
  ...layers([
    [["src/storage/**"], ["chain", "keystore", "epochs", "cosmos", "rpc", "app", "host", "hardhat", "hardhat3"]],
    [["src/chain/**", "src/keystore/**"], ["epochs", "cosmos", "rpc", "app", "host", "hardhat", "hardhat3"]],
    [["src/epochs/**", "src/cosmos/**"], ["rpc", "app", "host", "hardhat", "hardhat3"]],
    [["src/rpc/**"], ["app", "host", "hardhat", "hardhat3"], RPC_CHAIN],
    [["src/app/**"], ["host", "hardhat", "hardhat3"]],
    // the shared host has no Hardhat import: each host maps Hardhat onto it
    [["src/host/**"], ["hardhat", "hardhat3"], [{ group: ["hardhat", "hardhat/**"], message: "the shared host has no Hardhat import: each host maps Hardhat onto it" }]],
  ]),
  {
    files: ["test/**/*.ts", "bench/tests/test/**/*.ts"],
    rules: { "@typescript-eslint/no-unused-expressions": "off" },
  },
);
