// Proof of indexing on both engines. gnd dev names a deployment by its manifest's path where the local
// node uses the IPFS hash, and the deployment id is part of the proof, so the proofs are compared in two
// steps that together cover it: the digests each engine stored per causality region (everything the
// handlers did), then graph-node's status API answer against the local node's own answer signed with
// graph-node's deployment id (the choice of block, failures, and the finishing step).
import { createJsonRpcClient } from "../json-rpc/index.js";
import type { Engine } from "./engines.js";
import { postGraphQL } from "./graphql.js";
import { readDeploymentId } from "./status.js";

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;
/** An indexer address for the proofs that are signed (graph-node's test cases use a repeated byte too). */
const INDEXER = `0x${"ab".repeat(20)}`;

/** Subjects for the blocks up to the chain's head: the stored digests, then the proof unsigned and signed. */
export async function poiSubjects(local: Engine, graphNode: Engine, chainUrl: string, blocks: number[]): Promise<[string, unknown, unknown][]> {
  if (!local.proofOfIndexingAs) throw new Error("the local engine cannot answer proofs of indexing in process");
  const chain = createJsonRpcClient({ url: chainUrl });
  const [localId, graphNodeId] = await Promise.all([readDeploymentId(local), readDeploymentId(graphNode)]);
  const subjects: [string, unknown, unknown][] = [];
  for (const block of blocks) {
    const header = await chain.request<{ hash: string } | null>("eth_getBlockByNumber", [`0x${block.toString(16)}`, false]);
    if (!header) continue;
    const [localDigests, graphNodeDigests] = await Promise.all([local.poiDigests(localId, block), graphNode.poiDigests(graphNodeId, block)]);
    const shown = (ds: { region: string; digest: Uint8Array }[]) => ds.map((d) => ({ region: d.region, digest: hex(d.digest) }));
    subjects.push([`poi-digests@${block}`, shown(localDigests), shown(graphNodeDigests)]);
    for (const indexer of [null, INDEXER]) {
      const answer = await postGraphQL(graphNode.statusUrl, `query P($id: String!, $n: Int!, $h: Bytes!, $i: Bytes) { p: proofOfIndexing(subgraph: $id, blockNumber: $n, blockHash: $h, indexer: $i) }`, {
        id: graphNodeId,
        n: block,
        h: header.hash,
        i: indexer,
      });
      const graphNodeProof = answer.errors?.length ? { errors: answer.errors.map((e) => e.message) } : ((answer.data as { p?: string | null } | undefined)?.p ?? null);
      const bytes = (h: string) => new Uint8Array(Buffer.from(h.slice(2), "hex"));
      const localProof = await local.proofOfIndexingAs(localId, { number: block, hash: bytes(header.hash) }, indexer === null ? null : bytes(indexer), graphNodeId);
      subjects.push([`poi@${block}${indexer ? ":indexer" : ""}`, localProof, graphNodeProof]);
    }
  }
  return subjects;
}
