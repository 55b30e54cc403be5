// graph-node's poi-for-failed-subgraph case, restated: a subgraph that fails still reports its failed
// block, its entity count, a proof of indexing at that block, and its `_logs` (the log store's answer).
import { assert, assertEqual, at } from "../expect.js";
import type { IntegrationCase } from "../types.js";

const INDEXING_STATUS = `
    query statuses($subgraphName: String!) {
        statuses: indexingStatusesForSubgraphName(subgraphName: $subgraphName) {
          subgraph
          health
          entityCount
          chains {
            network
            latestBlock { number hash }
          } } }`;

const FETCH_POI = `
    query proofOfIndexing($subgraph: String!, $blockNumber: Int!, $blockHash: String!) {
        proofOfIndexing(
          subgraph: $subgraph,
          blockNumber: $blockNumber,
          blockHash: $blockHash
        ) } `;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const poiForFailedSubgraph: IntegrationCase = {
  name: "poi-for-failed-subgraph",
  engineLimits: { "graph-node": "its last steps query `_logs`, and gnd dev takes no config file, so it has no log store (\"not enabled on this indexer\")" },
  async test(ctx) {
    assert(!ctx.subgraph.healthy, "the subgraph is not healthy (assert!(!subgraph.healthy))");
    const fetchStatus = async () => {
      const resp = await ctx.status(INDEXING_STATUS, { subgraphName: ctx.subgraph.name });
      assertEqual("errors of indexingStatusesForSubgraphName", resp.errors ?? null, null);
      const statuses = at(resp, "data", "statuses");
      assertEqual("number of statuses", Array.isArray(statuses) ? statuses.length : statuses, 1);
      return { health: at(statuses, 0, "health"), entityCount: at(statuses, 0, "entityCount"), latestBlock: at(statuses, 0, "chains", 0, "latestBlock") };
    };
    const started = Date.now();
    let status = await fetchStatus();
    while (status.latestBlock === null && Date.now() - started < 300_000) {
      await sleep(1_000);
      status = await fetchStatus();
    }
    assert(status.latestBlock !== null, "Subgraph never wrote the failed block");
    assertEqual("entityCount", status.entityCount, "1");
    assertEqual("health", status.health, "failed");
    const calls = await ctx.query("{ calls(subgraphError: allow)  { id value } }");
    assert(calls.errors !== undefined, "calls with subgraphError: allow has indexing errors", calls);
    assertEqual("number of calls", (at(calls, "data", "calls") as unknown[] | null)?.length ?? null, 0);
    const poi = await ctx.status(FETCH_POI, { subgraph: ctx.subgraph.deployment, blockNumber: Number(at(status.latestBlock, "number")), blockHash: at(status.latestBlock, "hash") });
    assertEqual("errors of proofOfIndexing at the failed block", poi.errors ?? null, null);
    assert(typeof at(poi, "data", "proofOfIndexing") === "string", "proofOfIndexing at the failed block is a string", poi);
    // `_logs` works on a failed subgraph (for debugging).
    await sleep(2_000);
    const logs = await ctx.query("{ _logs(first: 100) { id timestamp level text } }");
    assertEqual("errors of _logs on the failed subgraph", logs.errors ?? null, null);
    assert(Array.isArray(at(logs, "data", "_logs")), "Expected _logs to be an array", logs);
    const errorLogs = await ctx.query("{ _logs(level: ERROR, first: 100) { level text } }");
    assertEqual("errors of _logs(level: ERROR) on the failed subgraph", errorLogs.errors ?? null, null);
  },
};
