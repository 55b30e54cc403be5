// The chain the three engines index, and the rows of a subgraph engine (ours, graph-node) read back
// through GraphQL with the parity harness's paging by id.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import { readAllEntities } from "subgraph-workbench/parity";
import { parseSubgraphSchema } from "subgraph-workbench/subgraph-schema";
import type { ApprovalRow } from "./report.js";

export interface PeerChain {
  rpcUrl: string;
  chainId: bigint;
  /** The token's proxy, and the block it was deployed in (every engine's start block). */
  token: string;
  startBlock: number;
  events: number;
  /** The block of the last Approval event (empty blocks follow it). */
  lastEventBlock: number;
}

/** Every ApprovalQuery of the project's schema at `queryUrl`. */
export async function readSubgraphRows(queryUrl: string): Promise<ApprovalRow[]> {
  const schema = parseSubgraphSchema(readFileSync(join(projectRoot, "schema.graphql"), "utf8"));
  const type = schema.entities.get("ApprovalQuery");
  if (!type) throw new Error("schema.graphql has no ApprovalQuery entity");
  const read = await readAllEntities(queryUrl, type);
  if ("error" in read) throw new Error(`reading the approvals back from ${queryUrl} failed: ${read.error}`);
  return read.rows as unknown as ApprovalRow[];
}
