import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // tests/ holds the subgraph's Matchstick (AssemblyScript) tests; they run through the workbench's
    // `test` command, not vitest. The workbench's own tests sit beside its code, in packages/workbench/src.
    include: ["{clients,hardhat,scripts,testing}/**/*.test.ts", "packages/*/src/**/*.test.ts"],
    exclude: ["**/node_modules/**", "tests/**", "**/_test/**/*.as.ts", "packages/*/dist/**", "testing/_test/outside-subgraph/**"],
    globalSetup: ["testing/globalSetup.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: keep parallelism modest so chain- and node-backed suites do not starve each other.
    maxWorkers: 2,
  },
});
