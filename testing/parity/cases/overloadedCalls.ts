// ABI edge cases on our OverloadedCalls contract (hardhat/contracts/test/OverloadedCalls.sol): overloaded
// functions called by signature with values shorter than their types (2 bytes for a bytes32, 1 for a
// bytes4, a small BigInt for a uint8; graph-node widens them, fixed bytes right-padded), `try_` calls
// that revert on the padded zero tag, a declared call (`calls:`), `ethereum.encode` of short fixed bytes,
// and three overloaded events told apart by their signatures. `abi-encoding-error` then sends an amount
// of 13, for which the handler passes 33 bytes as a fixed-bytes value: graph-node cannot convert it and
// fails the handler deterministically; both engines must fail at that block with the same message.
// `abi-type-mismatch` sends 300 instead, which the handler passes for a uint8: graph-node's type check
// refuses it before the eth_call, an error it does not call deterministic (it retries the block).
import { join } from "node:path";
import { id } from "ethers";
import { deployOverloadedCalls, emitTagged } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase, ScenarioContext, ScenarioResult } from "subgraph-workbench/parity";

const FIXTURE = join(projectRoot, "testing", "parity", "cases", "_test", "overloaded");

async function tagged(chainUrl: string, failing: false | 13n | 300n): Promise<ScenarioResult> {
  const { address, startBlock } = await deployOverloadedCalls({ rpcUrl: chainUrl });
  const calls = [
    { tag: id("first"), amount: 5n, label: "first" },
    { tag: `0x${"00".repeat(32)}`, amount: 0n, label: "" },
    { tag: `0x1234${"00".repeat(30)}`, amount: 255n, label: "padded by hand" },
    ...(failing ? [{ tag: id("fails"), amount: failing, label: "fails" }] : []),
    { tag: id("last"), amount: 2n ** 200n, label: "last" },
  ];
  const blocks = await emitTagged({ rpcUrl: chainUrl, address, calls });
  return { address, startBlock, pastBlocks: [blocks[1]!] };
}

export function overloadedCallsCase(): ParityCase {
  return { name: "overloaded-calls", projectDir: FIXTURE, scenario: ({ chainUrl }: ScenarioContext) => tagged(chainUrl, false) };
}

export function abiEncodingErrorCase(): ParityCase {
  return { name: "abi-encoding-error", projectDir: FIXTURE, scenario: ({ chainUrl }: ScenarioContext) => tagged(chainUrl, 13n) };
}

export function abiTypeMismatchCase(): ParityCase {
  return { name: "abi-type-mismatch", projectDir: FIXTURE, scenario: ({ chainUrl }: ScenarioContext) => tagged(chainUrl, 300n) };
}
