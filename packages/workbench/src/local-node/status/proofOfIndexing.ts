// The status API's proofs of indexing, as graph-node's index node answers them (server/index-node
// resolver.rs, store get_proof_of_indexing): the regions' digests as of the block, finished with the
// deployment id, the block hash the caller names and the indexer's address.
import { parseManifestYaml } from "../../lib/manifestYaml.js";
import { finishPoi, poiVersionOf } from "../poi/index.js";
import type { NodeStore } from "../store/index.js";

/** graph-node's limit on one publicProofsOfIndexing call. */
const MAX_PUBLIC_REQUESTS = 10;
const ZERO_ADDRESS = new Uint8Array(20);

/** Brings the deployment's digests up to `block` (the proof follows the data, local-node/proofs). */
export type ProofsThrough = (deployment: string, block: number) => Promise<void>;

export class PoiArgumentError extends Error {
  override name = "PoiArgumentError";
}

function bytesArg(value: unknown, what: string, length?: number): Uint8Array {
  const hex = typeof value === "string" ? value.replace(/^0x/i, "") : "";
  const bytes = /^([0-9a-f]{2})*$/i.test(hex) ? Buffer.from(hex, "hex") : null;
  if (bytes === null || (length !== undefined && bytes.length !== length)) {
    throw new PoiArgumentError(`${what} must be ${length ?? "some"} bytes as 0x hex, got ${JSON.stringify(value)}`);
  }
  return new Uint8Array(bytes);
}

function specVersionOf(manifest: string): string {
  const doc = parseManifestYaml(manifest) as { specVersion?: unknown } | null;
  return typeof doc?.specVersion === "string" ? doc.specVersion : "0.0.5";
}

/**
 * The proof at `block` as 0x hex, or null when the deployment is unknown or has not indexed that far.
 * A failed deployment answers for any later block with its failure block's proof. `signedAs` names the
 * deployment in the proof (default: itself); the parity suite compares with graph-node under its id.
 */
export async function proofOfIndexing(
  store: NodeStore,
  deployment: string,
  block: { number: number; hash: Uint8Array },
  indexer: Uint8Array | null,
  signedAs = deployment,
  proofsThrough?: ProofsThrough,
): Promise<string | null> {
  const d = await store.getDeployment(deployment);
  if (!d?.latestBlock) return null;
  let at = block;
  if (d.latestBlock.number < block.number) {
    const failedAt = d.fatalError?.block;
    if (!failedAt) return null;
    at = { number: failedAt.number, hash: bytesArg(failedAt.hash, "the failure block's hash") };
  }
  await proofsThrough?.(d.id, at.number);
  const regions = (await store.poiDigests(d.id, at.number)).map((r) => ({ name: r.region, digest: r.digest }));
  const proof = finishPoi({ deployment: signedAs, block: at, indexer, regions, version: poiVersionOf(specVersionOf(d.manifest)) });
  return `0x${Buffer.from(proof).toString("hex")}`;
}

export function poiResolvers(store: NodeStore, proofsThrough?: ProofsThrough): Record<string, (args: Record<string, unknown>) => Promise<unknown>> {
  return {
    proofOfIndexing: async (args) => {
      const block = { number: Number(args.blockNumber), hash: bytesArg(args.blockHash, "blockHash") };
      const indexer = args.indexer === undefined || args.indexer === null ? null : bytesArg(args.indexer, "indexer", 20);
      return proofOfIndexing(store, String(args.subgraph), block, indexer, undefined, proofsThrough);
    },
    // Signed with the zero address, at the block hash this node recorded for the number.
    publicProofsOfIndexing: async (args) => {
      const requests = (args.requests ?? []) as { deployment: string; blockNumber: string }[];
      if (requests.length > MAX_PUBLIC_REQUESTS) throw new PoiArgumentError(`at most ${MAX_PUBLIC_REQUESTS} requests at a time, got ${requests.length}`);
      return Promise.all(
        requests.map(async ({ deployment, blockNumber }) => {
          const number = Number(blockNumber);
          const hash = Number.isSafeInteger(number) ? await store.recentBlockHash(deployment, number).catch(() => null) : null;
          const proof = hash ? await proofOfIndexing(store, deployment, { number, hash: bytesArg(hash, "block hash") }, ZERO_ADDRESS, deployment, proofsThrough) : null;
          // As graph-node answers a PartialBlockPtr: the hash as hex without `0x`.
          const block: { number: string; hash?: string } = { number: String(blockNumber), ...(hash ? { hash: hash.replace(/^0x/i, "") } : {}) };
          return { deployment, block, proofOfIndexing: proof };
        }),
      );
    },
  };
}
