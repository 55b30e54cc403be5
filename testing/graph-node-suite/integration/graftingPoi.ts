// The proofs of indexing graph-node's grafting case expects (`compute_expected_pois`): the base
// (specVersion 0.0.5, legacy hashing) writes one BaseData per block 0-2, the grafted subgraph
// (0.0.6, fast hashing) inherits those digests at its graft block 2 and writes one GraftedData at block 3;
// each proof is finished the fast way, with the zero indexer address. The hashing is the workbench's port
// of graph-node's (local-node/poi, checked against graph-node's stored digests by the parity suite), so
// for graph-node this is a real check of the port, and for the local node one of its graft bookkeeping.
import { finishPoi, hashBlockRecord, joinDigests, type PoiVersion } from "../../../packages/workbench/src/local-node/poi/index.js";

const REGION = "ethereum/test";

function hexToBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.replace(/^0x/, ""), "hex"));
}

/** The expected proofs at blocks 1, 2 and 3, given those blocks' hashes and the grafted deployment's id. */
export function expectedGraftedPois(deployment: string, blockHashes: string[]): string[] {
  const digests = new Map<number, Uint8Array>();
  let digest: Uint8Array | null = null;
  for (let block = 0; block <= 3; block++) {
    const version: PoiVersion = block <= 2 ? "legacy" : "fast";
    const [entityType, data] = block <= 2 ? ["BaseData", "from base"] : ["GraftedData", "to grafted"];
    const id = String(block);
    const entity = new Map([
      ["id", { kind: "String", value: id } as const],
      ["data", { kind: "String", value: data } as const],
      ["blockNumber", { kind: "BigInt", value: BigInt(block) } as const],
    ]);
    const [own] = hashBlockRecord({ block, regions: [{ name: REGION, events: [{ kind: "SetEntity", entityType, id, data: entity }] }] }, version);
    digest = joinDigests(version, digest, own?.own ?? new Uint8Array());
    digests.set(block, digest);
  }
  return blockHashes.map((hash, i) => {
    const number = i + 1;
    const regionDigest = digests.get(number);
    const poi = finishPoi({ deployment, block: { number, hash: hexToBytes(hash) }, indexer: new Uint8Array(20), regions: regionDigest ? [{ name: REGION, digest: regionDigest }] : [], version: "fast" });
    return `0x${Buffer.from(poi).toString("hex")}`;
  });
}
