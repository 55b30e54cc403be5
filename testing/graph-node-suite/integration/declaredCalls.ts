// graph-node's declared-calls cases (specVersion 1.2.0 `calls:` on event handlers), restated from
// integration_tests.rs: the values the handlers read through declared calls, plain and from struct fields.
import { assert, assertEqual, at } from "../expect.js";
import type { IntegrationCase } from "../types.js";
import { pollingQuery } from "./querySucceeds.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function assertCallResult(results: unknown[], label: string, success: boolean, value?: string): void {
  const result = results.find((c) => at(c, "label") === label);
  assert(result !== undefined, `Expected call result with label '${label}', but none found`);
  const actual = at(result, "success");
  assert(typeof actual === "boolean", `Expected call result with label '${label}' to have a boolean 'success' field`, actual);
  if (!success) return assert(!actual, `Expected call result with label '${label}' to have failed`);
  assert(actual, `Expected call result with label '${label}' to be successful`, result);
  assertEqual(`call result '${label}' value`, at(result, "value"), value);
}

export const declaredCallsBasic: IntegrationCase = {
  name: "declared-calls-basic",
  async test(ctx) {
    assert(ctx.subgraph.healthy, "the subgraph is healthy (assert!(subgraph.healthy))");
    const [transferCalls = [], callResults = []] = await pollingQuery(ctx, `{
        transferCalls(first: 1, orderBy: blockNumber) {
            id from to value balanceFromBefore balanceToBefore totalSupply constantValue sumResult metadataFrom revertCallSucceeded
        }
        callResults(orderBy: label) { label success value error }
    }`, ["transferCalls", "callResults"]);
    assert(transferCalls.length > 0, "Should have at least one transfer call");
    assert(callResults.length > 0, "Should have call results");
    const transfer = transferCalls[0];
    assertEqual("Constant value should be 42", at(transfer, "constantValue"), "42");
    assertEqual("Sum result should be 200 (100 + 100)", at(transfer, "sumResult"), "200");
    assertEqual("Revert call should have failed", at(transfer, "revertCallSucceeded"), false);
    assertEqual("Total supply should be 3000", at(transfer, "totalSupply"), "3000");
    assertCallResult(callResults, "balance_from", true, "900");
    assertCallResult(callResults, "balance_to", true, "1100");
    assertCallResult(callResults, "constant_value", true, "42");
    assertCallResult(callResults, "metadata_from", true, "Test Asset 1");
    assertCallResult(callResults, "sum_values", true, "200");
    assertCallResult(callResults, "total_supply", true, "3000");
    assertCallResult(callResults, "will_revert", false);
  },
};

export const declaredCallsStructFields: IntegrationCase = {
  name: "declared-calls-struct-fields",
  async test(ctx) {
    assert(ctx.subgraph.healthy, "the subgraph is healthy (assert!(subgraph.healthy))");
    await sleep(2_000);
    const [assetTransfers = [], complexAssets = [], structTests = []] = await pollingQuery(ctx, `{
        assetTransferCalls(first: 1, orderBy: blockNumber) { id assetAddr assetAmount assetActive owner metadata amountCalc }
        complexAssetCalls(first: 1, orderBy: blockNumber) { id baseAssetAddr baseAssetAmount baseAssetOwner baseAssetMetadata baseAssetAmountCalc }
        structFieldTests(orderBy: testType) { testType fieldName success result error }
    }`, ["assetTransferCalls", "complexAssetCalls", "structFieldTests"]);
    assert(assetTransfers.length > 0, "Should have asset transfer calls");
    assert(complexAssets.length > 0, "Should have complex asset calls");
    assert(structTests.length > 0, "Should have struct field tests");
    const transfer = assetTransfers[0];
    assertEqual("assetAddr", at(transfer, "assetAddr"), "0x1111111111111111111111111111111111111111");
    assertEqual("assetAmount", at(transfer, "assetAmount"), "150");
    assertEqual("assetActive", at(transfer, "assetActive"), true);
    assertEqual("amountCalc (150 + 150)", at(transfer, "amountCalc"), "300");
    const complex = complexAssets[0];
    assertEqual("baseAssetAddr", at(complex, "baseAssetAddr"), "0x4444444444444444444444444444444444444444");
    assertEqual("baseAssetAmount", at(complex, "baseAssetAmount"), "250");
    assertEqual("baseAssetAmountCalc (250 + 99)", at(complex, "baseAssetAmountCalc"), "349");
    assert(structTests.some((t) => at(t, "success") === true), "Should have successful struct field tests", structTests);
  },
};
