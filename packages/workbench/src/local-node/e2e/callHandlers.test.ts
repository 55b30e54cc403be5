// Call handlers and a call-filtered block handler on a real Hardhat chain: calls come from
// `debug_traceTransaction`'s callTracer (Hardhat 3 has no `trace_filter`, so graph-node cannot run this
// subgraph here: no parity case). Checked against the chain itself: every successful transaction to the
// token, its input decoded by the ABI; a reverted one gives nothing; the order in a block is its logs,
// then its calls, then the block handler.
import { join } from "node:path";
import { Contract, Interface, JsonRpcProvider } from "ethers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHardhatNode, type HardhatNode } from "../../../../../hardhat/chain/index.js";
import { deployApprovalToken, readArtifact, sendApprovals } from "../../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { backends, blockNumber, deployWithGraphCli, graphql, rpc, startNode, waitForHead, type NodeFixture } from "./harness.js";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

let chain: HardhatNode;
let built: BuiltSubgraph;
let token = "";
let startBlock = 0;
let reverted = "";

beforeAll(async () => {
  chain = await startHardhatNode();
  const deployed = await deployApprovalToken({ rpcUrl: chain.url });
  token = deployed.proxy.toLowerCase();
  startBlock = deployed.startBlock;
  await sendApprovals({ rpcUrl: chain.url, token, count: 6 });
  await sendApprovals({ rpcUrl: chain.url, token, count: 40, batchSize: 8, seed: 3 });
  // A transaction that reverts (lengths differ): Hardhat mines it and answers the revert as an error;
  // it must give nothing.
  const provider = new JsonRpcProvider(chain.url, undefined, { staticNetwork: true });
  try {
    const signer = await provider.getSigner(3);
    const contract = new Contract(token, (await readArtifact("ApprovalToken")).abi, signer);
    await (contract.getFunction("approveMany")([`0x${"11".repeat(20)}`], [1n, 2n], { gasLimit: 200_000 }) as Promise<unknown>).catch(() => undefined);
    const head = await rpc<{ transactions: { hash: string; from: string }[] }>(chain.url, "eth_getBlockByNumber", ["latest", true]);
    const from = (await signer.getAddress()).toLowerCase();
    reverted = head.transactions.find((t) => t.from.toLowerCase() === from)?.hash ?? "";
  } finally {
    provider.destroy();
  }
  built = await buildSubgraph({ projectDir: join(projectRoot, "packages", "workbench", "src", "local-node", "e2e", "_test", "calls"), address: token, startBlock, network: "localhost" });
});
afterAll(async () => {
  await chain?.stop();
});

interface ExpectedCall {
  id: string;
  method: string;
  from: string;
  spenders: string[];
  values: string[];
  block: string;
}

/** Every successful transaction to the token, read from the chain's blocks and receipts. */
async function chainCalls(): Promise<ExpectedCall[]> {
  const iface = new Interface((await readArtifact("ApprovalToken")).abi);
  const out: ExpectedCall[] = [];
  const head = await blockNumber(chain.url);
  for (let n = startBlock; n <= head; n++) {
    const block = await rpc<{ transactions: { hash: string; to: string | null; from: string; input: string }[] }>(chain.url, "eth_getBlockByNumber", [`0x${n.toString(16)}`, true]);
    for (const tx of block.transactions) {
      if (tx.to?.toLowerCase() !== token) continue;
      const receipt = await rpc<{ status: string }>(chain.url, "eth_getTransactionReceipt", [tx.hash]);
      if (receipt.status !== "0x1") continue;
      const parsed = iface.parseTransaction({ data: tx.input })!;
      const spenders = (parsed.name === "approve" ? [parsed.args[0]] : [...parsed.args[0]]) as string[];
      const values = (parsed.name === "approve" ? [parsed.args[1]] : [...parsed.args[1]]) as bigint[];
      out.push({ id: tx.hash.toLowerCase(), method: parsed.name, from: tx.from.toLowerCase(), spenders: spenders.map((s) => s.toLowerCase()), values: values.map(String), block: String(n) });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

describe.each(backends())("call handlers on %s", (backend) => {
  let fixture: NodeFixture | undefined;
  afterAll(async () => {
    await fixture?.stop();
  });

  it("runs a handler per successful call to the data source, after the transaction's logs, and the call block handler", async () => {
    fixture = await startNode(chain.url, backend);
    const name = `e2e/calls-${backend}`;
    await deployWithGraphCli(built, name, { admin: fixture.node.urls.admin, ipfs: fixture.node.urls.ipfs });
    expect((await waitForHead(fixture.node.urls.status.replace(/\/graphql$/, ""), name, chain.url)).health).toBe("healthy");
    const query = `${fixture.node.urls.query}/subgraphs/name/${name}`;

    const expected = await chainCalls();
    expect(expected.length).toBeGreaterThan(6);
    const res = await graphql<{ approveCalls: (ExpectedCall & { output: boolean })[]; callBlocks: { number: string }[] }>(
      query,
      "{ approveCalls(first: 1000, orderBy: id) { id method from spenders values block output } callBlocks(first: 1000) { number } }",
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!.approveCalls.map(({ output: _output, ...rest }) => rest)).toEqual(expected);
    expect(res.data!.approveCalls.every((c) => c.output)).toBe(true);
    expect(reverted).not.toBe("");
    expect((await rpc<{ status: string }>(chain.url, "eth_getTransactionReceipt", [reverted])).status).toBe("0x0");
    expect(res.data!.approveCalls.map((c) => c.id)).not.toContain(reverted.toLowerCase());
    expect(res.data!.callBlocks.map((b) => Number(b.number)).sort((a, b) => a - b)).toEqual([...new Set(expected.map((c) => Number(c.block)))].sort((a, b) => a - b));

    // One approveMany block: its logs (in log order), then its call, then the block handler.
    const many = expected.find((c) => c.method === "approveMany")!;
    const traces = await graphql<{ traces: { what: string }[] }>(query, `{ traces(first: 1000, where: { block: "${many.block}" }, orderBy: seq) { what } }`);
    expect(traces.errors).toBeUndefined();
    const ordered = traces.data!.traces.map((t) => t.what);
    expect(ordered).toEqual([...many.spenders.map((_s, i) => `log ${i}`), "approveMany", "block"]);
  });
});
