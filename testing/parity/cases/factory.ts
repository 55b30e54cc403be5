// The factory pattern: pools created from a template with a context (one and several per block, a
// pool's own first deposit logged before its PoolCreated), vaults created by pools (nested templates),
// once and polling block handlers on the pool template, a topic1 filter, an immutable entity written
// by several data sources in one block, and a Trace entity that records the order in which handlers
// ran. Then a reorg orphans a created pool and a new branch creates another at the same address.
import { join } from "node:path";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { deployPoolFactory, runFactoryScenario } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { ParityCase } from "subgraph-workbench/parity";

export function factoryCase(): ParityCase {
  let factory = "";
  let snapshot = "";
  return {
    name: "factory",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "factory"),
    async scenario({ chainUrl }) {
      const deployed = await deployPoolFactory({ rpcUrl: chainUrl });
      factory = deployed.factory;
      const first = await runFactoryScenario({ rpcUrl: chainUrl, factory, rounds: 2, batch: 3 });
      snapshot = await createJsonRpcClient({ url: chainUrl }).request<string>("evm_snapshot");
      // Orphaned by `afterwards`: a pool, its deposits and a vault.
      await runFactoryScenario({ rpcUrl: chainUrl, factory, rounds: 1, batch: 1 });
      return { address: factory, startBlock: deployed.startBlock, dataSource: "PoolFactory", pastBlocks: [first.blocks[Math.floor(first.blocks.length / 2)]!, first.blocks.at(-1)!] };
    },
    async afterwards({ chainUrl }) {
      const rpc = createJsonRpcClient({ url: chainUrl });
      await rpc.request("evm_revert", [snapshot]);
      // Empty blocks first, so the new branch's pools (at the orphaned pools' addresses) come later.
      for (let i = 0; i < 3; i++) await rpc.request("evm_mine", []);
      await runFactoryScenario({ rpcUrl: chainUrl, factory, rounds: 1, batch: 2 });
    },
  };
}
