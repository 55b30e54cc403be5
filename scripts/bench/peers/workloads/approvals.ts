// The project's own workload: the ApprovalToken behind its proxy, N Approval events sent in dense
// approveMany batches, one immutable ApprovalQuery entity each (the project's subgraph).
import { join } from "node:path";
import { ensureCompiled, sendApprovals } from "../../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../../hardhat/projectRoot.js";
import { chainApprovals, startChainWithToken } from "../../../../packages/workbench/src/local-node/e2e/harness.js";
import type { Workload } from "../workload.js";

export const approvals: Workload = {
  name: "approvals",
  eventsLabel: "Approval events",
  shape: {
    fields: [
      { name: "owner", kind: "hex" },
      { name: "spender", kind: "hex" },
      { name: "value", kind: "integer" },
    ],
  },
  targets: { events: 100_000, smallChainEvents: 1200 },
  async prepare({ events, log }) {
    log("starting Hardhat and deploying the token behind its proxy");
    await ensureCompiled();
    const fx = await startChainWithToken();
    try {
      log(`sending ${events.toLocaleString("en-US")} approvals (approveMany batches of 500)`);
      const sent = await sendApprovals({ rpcUrl: fx.chain.url, token: fx.token.proxy, count: events, batchSize: 500, seed: 1 });
      return {
        chain: { rpcUrl: fx.chain.url, chainId: fx.token.chainId, address: fx.token.proxy, startBlock: fx.token.startBlock, events, lastEventBlock: sent.lastBlock },
        expected: async () => (await chainApprovals(fx.chain.url, fx.token.proxy, fx.token.startBlock)).map((r) => ({ ...r })),
        stop: () => fx.stop(),
      };
    } catch (error) {
      await fx.stop();
      throw error;
    }
  },
  subgraph: { projectDir: projectRoot, entity: "ApprovalQuery", name: "bench/approvals" },
  ponder: {
    sourceDir: join(projectRoot, "scripts", "bench", "peers", "ponder-app", "approvals"),
    extraFiles: () => ({ "ApprovalToken.json": join(projectRoot, "abis", "ApprovalToken.json") }),
    collection: "approvals",
  },
  subsquid: {
    sourceDir: join(projectRoot, "scripts", "bench", "peers", "subsquid-app", "approvals"),
    abis: () => ({ "ApprovalToken.json": join(projectRoot, "abis", "ApprovalToken.json") }),
    table: "approval",
  },
  envio: {
    sourceDir: join(projectRoot, "scripts", "bench", "peers", "envio-app", "approvals"),
    abis: () => ({ "ApprovalToken.json": join(projectRoot, "abis", "ApprovalToken.json") }),
    table: "Approval",
  },
};
