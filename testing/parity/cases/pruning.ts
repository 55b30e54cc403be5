// `indexerHints.prune: 12` on a fixture whose mutable entities change in every block: both engines must
// move the earliest queryable block the same way (graph-node prunes once the head passes earliest +
// 12 × 1.2 blocks, to head − 12; `gnd dev`'s reorg threshold is 10), refuse time travel before it with
// the same error, and answer the same at and after it.
// graph-node batches writes by time while it catches up and checks for pruning once per batch (with
// GRAPH_STORE_WRITE_BATCH_SIZE=0, after every block, as the local node does), and it skips a prune
// that comes due while the previous one still runs; so the blocks that prune come one at a time.
import { join } from "node:path";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import { readStatus, waitUntilSettled } from "subgraph-workbench/parity";
import type { ParityCase, SettleContext } from "subgraph-workbench/parity";

export function pruningCase(): ParityCase {
  let token = "";
  return {
    name: "pruning",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "pruning"),
    graphNodeEnv: { GRAPH_STORE_WRITE_BATCH_SIZE: "0" },
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      token = deployed.proxy;
      // Too few blocks to prune while both engines catch up (graph-node's pruning then depends on timing).
      const sent = await sendApprovals({ rpcUrl: chainUrl, token, count: 8, batchSize: 1, seed: 3 });
      // The head after `afterwards`; the earliest block ends 12 to 14 blocks below it. These straddle it,
      // and one is long gone.
      const head = sent.lastBlock + LIVE_BLOCKS;
      return { address: token, startBlock: deployed.startBlock, pastBlocks: [sent.firstBlock + 1, head - 16, head - 15, head - 14, head - 13, head - 12, head - 11, head - 3] };
    },
    async afterwards({ chainUrl }) {
      // One approval per block, ten owners in turn, each block alone at the head of both engines: every
      // block writes new versions, and graph-node's prune task ends long before the next one is due. A
      // prune that comes due while the previous one still runs is skipped and shifts every later one by
      // a block: with 400 ms between blocks that happened once on a loaded machine (earliest 41 against
      // the local node's 43), hence the longer pause.
      for (let i = 0; i < LIVE_BLOCKS; i++) {
        await sendApprovals({ rpcUrl: chainUrl, token, count: 1, seed: 100 + i });
        await new Promise((r) => setTimeout(r, BLOCK_PAUSE_MS));
      }
    },
    settle: waitForGraphNodePruning,
  };
}

/** Blocks mined one at a time while both engines follow the head. */
const LIVE_BLOCKS = 45;
/** Between those blocks: graph-node prunes every third block, so its prune has about 3 s to end. */
const BLOCK_PAUSE_MS = 1_000;

/**
 * graph-node prunes in a background task after the write that called for it: once both engines are at
 * the head, wait until its earliest block has stayed the same for a while, so that the comparison sees
 * the pruning finished.
 */
async function waitForGraphNodePruning({ local, graphNode, chainUrl }: SettleContext): Promise<void> {
  await waitUntilSettled([local, graphNode], chainUrl);
  const deadline = Date.now() + 60_000;
  let last: string | null = null;
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    const status = await readStatus(graphNode);
    const earliest = "earliestBlock" in status ? status.earliestBlock : null;
    if (earliest !== last) {
      last = earliest;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= 3_000) {
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
