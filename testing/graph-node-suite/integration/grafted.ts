// graph-node's grafting case, restated: a subgraph grafted onto `base` at block 2 answers, for blocks
// 1-3, the proof of indexing graph-node computes from the base's legacy digests and its own fast ones.
import { assert, assertEqual, at } from "../expect.js";
import type { IntegrationCase } from "../types.js";
import { expectedGraftedPois } from "./graftingPoi.js";

const FETCH_BLOCK_HASH = `
        query blockHashFromNumber($network: String!, $blockNumber: Int!) {
            hash: blockHashFromNumber(
              network: $network,
              blockNumber: $blockNumber,
            ) } `;

const FETCH_POI = `
        query proofOfIndexing($subgraph: String!, $blockNumber: Int!, $blockHash: String!, $indexer: String!) {
            proofOfIndexing(
              subgraph: $subgraph,
              blockNumber: $blockNumber,
              blockHash: $blockHash,
              indexer: $indexer
            ) } `;

export const grafted: IntegrationCase = {
  name: "grafted",
  sources: [{ case: "base", kind: "graft" }],
  async test(ctx) {
    assert(ctx.subgraph.healthy, "the subgraph is healthy (assert!(subgraph.healthy))");
    const hashes: string[] = [];
    for (let i = 1; i < 4; i++) {
      const resp = await ctx.status(FETCH_BLOCK_HASH, { network: "test", blockNumber: i });
      assertEqual(`errors of blockHashFromNumber(${i})`, resp.errors ?? null, null);
      const hash = at(resp, "data", "hash");
      assert(typeof hash === "string", `Failed to get block hash for block ${i}`, resp);
      hashes.push(hash);
    }
    const expected = expectedGraftedPois(ctx.subgraph.deployment, hashes);
    for (let i = 1; i < 4; i++) {
      const resp = await ctx.status(FETCH_POI, { subgraph: ctx.subgraph.deployment, blockNumber: i, blockHash: hashes[i - 1], indexer: "0000000000000000000000000000000000000000" });
      assertEqual(`errors of proofOfIndexing at block ${i}`, resp.errors ?? null, null);
      const poi = at(resp, "data", "proofOfIndexing");
      assert(typeof poi === "string", `proofOfIndexing at block ${i} is a string`, resp);
      assertEqual(`POI mismatch for block ${i}`, poi, expected[i - 1]);
    }
  },
};
