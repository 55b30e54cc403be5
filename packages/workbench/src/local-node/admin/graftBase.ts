// graph-node's checks of a graft base at deploy (Graft::validate): the base exists, has indexed the graft
// block and `reorgThreshold` blocks beyond it (or, if unhealthy, only blocks before its failure), and
// still has history at the graft block. Answers the graft with the block's hash, or the reason it is
// invalid, worded as graph-node words it.
import type { LoadedDeployment } from "../manifest/index.js";
import type { AdminStore } from "./types.js";

export type GraftCheck = { graft: { base: string; block: { number: number; hash: string } } } | { invalid: string };

export async function checkGraftBase(store: Pick<AdminStore, "getDeployment" | "recentBlockHash">, graft: NonNullable<LoadedDeployment["graft"]>, reorgThreshold: number): Promise<GraftCheck> {
  const { base, block } = graft;
  const record = await store.getDeployment(base);
  if (!record) return { invalid: `deployment not found: ${base}` };
  const ptr = record.latestBlock;
  if (!ptr) return { invalid: `failed to graft onto \`${base}\` since it has not processed any blocks` };
  const healthy = record.health === "healthy";
  if (healthy && ptr.number < block) return { invalid: `failed to graft onto \`${base}\` at block ${block} since it has only processed block ${ptr.number}` };
  if (healthy && block + reorgThreshold > ptr.number) {
    return { invalid: `failed to graft onto \`${base}\` at block ${block} since it's only at block ${ptr.number} which is within the reorg threshold of ${reorgThreshold} blocks` };
  }
  if (!healthy && block >= ptr.number) {
    return { invalid: `failed to graft onto \`${base}\` at block ${block} since it's not healthy. You can graft it starting at block ${ptr.number - 1} backwards` };
  }
  if (block < record.earliestBlock) return { invalid: `failed to graft onto \`${base}\` at block ${block} since its earliest available block is ${record.earliestBlock}` };
  const hash = await store.recentBlockHash(base, block);
  if (!hash) return { invalid: `failed to graft onto \`${base}\` at block ${block}: the base has no hash for that block` };
  return { graft: { base, block: { number: block, hash } } };
}
