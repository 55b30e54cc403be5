// A trap in a graph-cli build (no source map): the node names the mapping's function from the wasm's
// name section, in its log and on the dashboard, while the status API's message stays graph-node's (no
// location in it: parity). The fixture (_test/trapping) hits `unreachable` on the chain's approval of 13.
import { join } from "node:path";
import { Contract } from "ethers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readArtifact } from "../../../../../hardhat/deploy/artifacts.js";
import { connectChain } from "../../../../../hardhat/deploy/signers.js";
import { sendApprovals } from "../../../../../hardhat/deploy/approvals.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import type { Overview } from "../dashboard/index.js";
import { buildFor, deployWithGraphCli, startChainWithToken, startNode, waitForHead, waitForStatus, type ChainFixture, type NodeFixture } from "./harness.js";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

const FIXTURE = join(projectRoot, "packages", "workbench", "src", "local-node", "e2e", "_test", "trapping");
let fx: ChainFixture;
let node: NodeFixture;

beforeAll(async () => {
  fx = await startChainWithToken();
  await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: 5 });
  node = await startNode(fx.chain.url);
});
afterAll(async () => {
  await node?.stop();
  await fx?.stop();
});

describe("a trap in a graph-cli build", () => {
  it("names the mapping's function in the node's log and on the dashboard, and keeps graph-node's message", async () => {
    const statusBase = node.node.urls.status.replace(/\/graphql$/, "");
    const id = await deployWithGraphCli(await buildFor(fx.token, FIXTURE), "e2e/trapping", node.node.urls);
    await waitForHead(statusBase, "e2e/trapping", fx.chain.url);
    const { provider, signers } = await connectChain(fx.chain.url);
    const token = new Contract(fx.token.proxy, (await readArtifact("ApprovalToken")).abi, signers[2]);
    const tx = (await token.getFunction("approve")("0x0000000000000000000000000000000000000013", 13n)) as { wait(): Promise<{ blockNumber: number }> };
    const block = (await tx.wait()).blockNumber;
    provider.destroy();
    const failed = await waitForStatus(statusBase, "e2e/trapping", (s) => s.health === "failed");

    // graph-node's words: the trap and where in the chain, no mapping location.
    expect(failed.fatalError!.message).toMatch(/wasm trap: unreachable/);
    expect(failed.fatalError!.message).toContain(`in handler \`ApprovalHandler\` at block #${block}`);
    expect(failed.fatalError!.message).not.toContain("in the mapping");
    // The log: the handler's own function from the name section (AssemblyScript's `file/function`).
    const logged = node.logs.find((l) => l.includes(`${id}: handler ApprovalHandler failed at block ${block}`));
    expect(logged).toBeDefined();
    const location = /\(in the mapping: (.+)\)$/.exec(logged!)?.[1];
    expect(location).toMatch(/^src\/mapping\.as\/ApprovalHandler \(wasm function \d+, offset 0x[0-9a-f]+\)/);
    // The dashboard shows the same location with the error.
    const overview = (await (await fetch(`${node.node.urls.query}/_workbench/api/overview`)).json()) as Overview;
    const error = overview.deployments.find((d) => d.id === id)!.errors[0]!;
    expect(error).toMatchObject({ kind: "fatal", block, handler: "ApprovalHandler", location });
  });
});
