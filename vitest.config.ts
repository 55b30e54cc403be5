import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // tests/ holds Matchstick (AssemblyScript) tests; they run through bench/runner, not vitest.
    include: ["{bench,clients,hardhat,scripts}/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "tests/**", "**/_test/**/*.as.ts"],
    globalSetup: ["test/globalSetup.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Two cores: keep parallelism modest so chain- and node-backed suites do not starve each other.
    maxWorkers: 2,
  },
});
