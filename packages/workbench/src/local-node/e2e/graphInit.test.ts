// A subgraph exactly as graph-cli 0.98's `graph init` scaffolds it today (specVersion 1.3.0,
// apiVersion 0.0.9, indexerHints prune: auto, network mainnet), deployed unchanged to a node whose
// `--ethereum-rpc mainnet:<url>` names the network: every PoolCreated log becomes its entity. A node
// with no RPC for the network refuses the deploy with graph-node's message.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { id as keccakId, AbiCoder } from "ethers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startHardhatNode, type HardhatNode } from "../../../../../hardhat/chain/index.js";
import { deployPoolFactory, readArtifact, runFactoryScenario } from "../../../../../hardhat/deploy/index.js";
import { findGraphCli, graphCli } from "../../lib/graphCli.js";
import { projectRoot } from "../../../../../hardhat/projectRoot.js";
import { buildSubgraph, type BuiltSubgraph } from "../../lib/subgraphBuild.js";
import { createLocalNode, type LocalNode } from "../index.js";
import { deployWithGraphCli, graphql, rpc, waitForHead } from "./harness.js";

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

let chain: HardhatNode;
let scratch = "";
let built: BuiltSubgraph;
let factory = "";
let manifest = "";

beforeAll(async () => {
  chain = await startHardhatNode();
  const deployed = await deployPoolFactory({ rpcUrl: chain.url });
  factory = deployed.factory;
  await runFactoryScenario({ rpcUrl: chain.url, factory, rounds: 2, batch: 2 });
  scratch = await mkdtemp(join(tmpdir(), "graph-init-"));
  await writeFile(join(scratch, "PoolFactory.json"), JSON.stringify((await readArtifact("PoolFactory", "test/PoolFactory.sol")).abi));
  // Offline: the ABI comes from a file, dependencies are not installed (the build links the project's).
  await graphCli(
    ["init", "pools", join(scratch, "pools"), "--protocol", "ethereum", "--from-contract", factory, "--abi", join(scratch, "PoolFactory.json"), "--network", "mainnet", "--contract-name", "PoolFactory", "--index-events", "--skip-install", "--skip-git", "--start-block", String(deployed.startBlock)],
    { cwd: scratch, bin: findGraphCli(projectRoot).bin },
  );
  manifest = await readFile(join(scratch, "pools", "subgraph.yaml"), "utf8");
  built = await buildSubgraph({ projectDir: join(scratch, "pools"), nodeModules: join(projectRoot, "node_modules"), graphCliBin: findGraphCli(projectRoot).bin, address: factory, startBlock: deployed.startBlock, network: "mainnet", dataSource: "PoolFactory" });
});
afterAll(async () => {
  await chain?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("a subgraph fresh from graph init", () => {
  let node: LocalNode | undefined;
  afterAll(async () => {
    await node?.close();
  });

  it("is what graph init writes today", () => {
    expect(manifest).toMatch(/^specVersion: 1\.3\.0$/m);
    expect(manifest).toMatch(/apiVersion: 0\.0\.9/);
    expect(manifest).toMatch(/indexerHints:\s+prune: auto/);
  });

  it("deploys unchanged and indexes every event from the network's own RPC", async () => {
    node = await createLocalNode({ ethereumRpc: [`mainnet:${chain.url}`], ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, log: () => {}, pollIntervalMs: 100 });
    await deployWithGraphCli(built, "e2e/graph-init", { admin: node.urls.admin, ipfs: node.urls.ipfs }, { network: "mainnet" });
    const status = await waitForHead(`${node.urls.status}`, "e2e/graph-init", chain.url, 120_000);
    expect(status.health).toBe("healthy");
    const logs = await rpc<{ data: string; transactionHash: string }[]>(chain.url, "eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest", address: factory, topics: [keccakId("PoolCreated(address,address,uint256)")] }]);
    const res = await graphql<{ poolCreateds: { pool: string; index: string; transactionHash: string }[] }>(
      `${node.urls.query}/subgraphs/name/e2e/graph-init`,
      `{ poolCreateds(first: 1000, orderBy: index) { pool index transactionHash } }`,
    );
    expect(res.errors).toBeUndefined();
    const expected = logs.map((l) => {
      const [pool, index] = AbiCoder.defaultAbiCoder().decode(["address", "uint256"], l.data) as unknown as [string, bigint];
      return { pool: pool.toLowerCase(), index: index.toString(), transactionHash: l.transactionHash };
    });
    expect(res.data?.poolCreateds).toEqual(expected.sort((a, b) => Number(a.index) - Number(b.index)));
    expect(expected.length).toBe(6);
  });

  it("is refused, naming the network, by a node with no RPC for it", async () => {
    const other = await createLocalNode({ ethereumRpc: [`sepolia:${chain.url}`], ports: { query: 0, admin: 0, ipfs: 0, status: 0 }, log: () => {} });
    try {
      const error = await deployWithGraphCli(built, "e2e/graph-init-elsewhere", { admin: other.urls.admin, ipfs: other.urls.ipfs }, { network: "mainnet" }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toContain("network not supported by registrar: no network mainnet found on chain ethereum");
    } finally {
      await other.close();
    }
  });
});
