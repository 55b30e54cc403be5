import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // tests/ holds the subgraph's Matchstick (AssemblyScript) tests; they run through test-runner/, not vitest.
    include: ["{clients,gnd-test,graph-node,hardhat,lib,local-node,parity,scripts,subgraph-schema,test-runner,testing,wasm-host}/**/*.test.ts"],
    exclude: ["**/node_modules/**", "tests/**", "**/_test/**/*.as.ts"],
    globalSetup: ["testing/globalSetup.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: keep parallelism modest so chain- and node-backed suites do not starve each other.
    maxWorkers: 2,
  },
});
