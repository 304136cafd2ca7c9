// Lint rules: typescript-eslint's recommended set, strict about unused code and floating promises.
import tseslint from "typescript-eslint";

export default tseslint.config(
  // examples/ are projects of their own: the package test type-checks them where the package is installed
  { ignores: ["node_modules/", "dist/", "examples/", "artifacts/", "cache/", "typechain-types/", "scratch/"] },
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
  {
    files: ["test/**/*.ts", "bench/tests/test/**/*.ts"],
    rules: { "@typescript-eslint/no-unused-expressions": "off" },
  },
);
