// The rows of a subgraph engine (ours, graph-node) read back through GraphQL with the parity harness's
// paging by id, and the workload's subgraph built with graph-cli for the chain.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readAllEntities } from "subgraph-workbench/parity";
import { parseSubgraphSchema } from "subgraph-workbench/subgraph-schema";
import { buildSubgraph, type BuildSubgraphParameters, type BuiltSubgraph } from "subgraph-workbench/lib/subgraphBuild";
import type { PeerChain, Row, WorkloadSubgraph } from "./workload.js";

/** Every entity of the workload's type at `queryUrl`. */
export async function readSubgraphRows(queryUrl: string, subgraph: WorkloadSubgraph): Promise<Row[]> {
  const schema = parseSubgraphSchema(readFileSync(join(subgraph.projectDir, "schema.graphql"), "utf8"));
  const type = schema.entities.get(subgraph.entity);
  if (!type) throw new Error(`${join(subgraph.projectDir, "schema.graphql")} has no ${subgraph.entity} entity`);
  const read = await readAllEntities(queryUrl, type);
  if ("error" in read) throw new Error(`reading the ${subgraph.entity} entities back from ${queryUrl} failed: ${read.error}`);
  return read.rows as Row[];
}

/** codegen + build of the workload's subgraph for the chain's contract (see buildSubgraph for the rest). */
export function buildWorkloadSubgraph(subgraph: WorkloadSubgraph, chain: PeerChain, extra: Partial<BuildSubgraphParameters> = {}): Promise<BuiltSubgraph> {
  return buildSubgraph({
    ...extra,
    address: chain.address,
    startBlock: chain.startBlock,
    network: "localhost",
    projectDir: subgraph.projectDir,
    ...(subgraph.files ? { files: subgraph.files } : {}),
    ...(subgraph.prepare ? { prepare: subgraph.prepare } : {}),
  });
}
