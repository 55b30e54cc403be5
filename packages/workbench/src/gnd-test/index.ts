// Tests in the JSON format of graph-node's `gnd test`, run on the local node with gnd's verdicts.
export { runJsonTests, discoverTestFiles, type JsonTestsOutcome, type RunJsonTestsOptions } from "./runJsonTests.js";
export { runTestFile, type RunTestFileOptions } from "./runTestFile.js";
export { jsonEqual } from "./assertions.js";
export { buildMockChain, defaultBlockHash, defaultTransactionHash, ZERO_HASH, type MockBlock, type MockChain, type MockLog } from "./mockChain.js";
export { startMockRpc, type MockRpc } from "./mockRpc.js";
export { parseTestFile, readTestFile, GndTestError, type TestFile } from "./testFile.js";
export { testPassed, type TestResult } from "./report.js";
