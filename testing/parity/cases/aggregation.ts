// Aggregations over a timeseries (`@aggregation`, `@aggregate`): approvals an hour and then a day apart,
// so that both engines roll buckets up (hourly and daily, per owner and over everything) when a block's
// time passes them. Compared: each interval's buckets with every aggregate, filters on the dimension and
// the timestamp, an order by an aggregate, and a query at a block before the last rollups; then again
// after a reorg that takes rollups back.
// Also each owner's buckets as a field of the Owner entity (`stats: [OwnerStats!]! @derivedFrom`).
// With `current: include` too (the in-progress bucket from the rows not rolled up yet), but not with a
// timestamp filter: graph-node applies it to the timeseries rows before aggregating them, the local node
// to the bucket rows.
import { join } from "node:path";
import { createJsonRpcClient } from "subgraph-workbench/json-rpc";
import { deployApprovalToken, sendApprovals } from "../../../hardhat/deploy/index.js";
import { projectRoot } from "../../../hardhat/projectRoot.js";
import type { CorpusQuery, ParityCase } from "subgraph-workbench/parity";
import { postGraphQL } from "subgraph-workbench/parity";
import { waitUntilSettled } from "subgraph-workbench/parity";

const OWNER_STATS = "id timestamp owner { id approvals } total weighted biggest smallest opening closing capped approvals lifetime heaviest";

export function aggregationCase(): ParityCase {
  const queries: CorpusQuery[] = [];
  let token = "";
  let snapshot = "";
  return {
    name: "aggregation",
    projectDir: join(projectRoot, "testing", "parity", "cases", "_test", "aggregation"),
    async scenario({ chainUrl }) {
      const deployed = await deployApprovalToken({ rpcUrl: chainUrl });
      token = deployed.proxy;
      const chain = createJsonRpcClient({ url: chainUrl });
      await sendApprovals({ rpcUrl: chainUrl, token, count: 8, batchSize: 2, seed: 41 });
      await chain.request("evm_increaseTime", [3_600]);
      const second = await sendApprovals({ rpcUrl: chainUrl, token, count: 6, batchSize: 3, seed: 43 });
      await chain.request("evm_increaseTime", [3_600]);
      await sendApprovals({ rpcUrl: chainUrl, token, count: 3, seed: 45 });
      snapshot = await chain.request<string>("evm_snapshot");
      await chain.request("evm_increaseTime", [86_400]);
      await sendApprovals({ rpcUrl: chainUrl, token, count: 4, batchSize: 2, seed: 47 });
      const owner = (await createJsonRpcClient({ url: chainUrl }).request<string[]>("eth_accounts"))[0]?.toLowerCase() ?? "";
      queries.push(
        { id: "aggregation.owner.hour", query: `{ r: ownerStats_collection(interval: hour, first: 1000) { ${OWNER_STATS} } }` },
        { id: "aggregation.owner.day", query: `{ r: ownerStats_collection(interval: day) { ${OWNER_STATS} } }` },
        { id: "aggregation.all.hour", query: "{ r: allStats_collection(interval: hour) { id timestamp points total } }" },
        { id: "aggregation.owner.where", query: `{ r: ownerStats_collection(interval: hour, where: { owner: "${owner}" }) { ${OWNER_STATS} } }` },
        { id: "aggregation.owner.orderBy", query: `{ r: ownerStats_collection(interval: hour, orderBy: total, orderDirection: asc, first: 3, skip: 1) { id total } }` },
        { id: "aggregation.all.pastBlock", query: `{ r: allStats_collection(interval: hour, block: { number: ${second.lastBlock} }) { id timestamp points total } }` },
        { id: "aggregation.day.missingInterval", query: "{ r: allStats_collection(interval: day) { id } }" },
        { id: "aggregation.owner.hour.current", query: `{ r: ownerStats_collection(interval: hour, current: include, first: 1000) { ${OWNER_STATS} } }` },
        { id: "aggregation.owner.day.current", query: `{ r: ownerStats_collection(interval: day, current: include) { ${OWNER_STATS} } }` },
        { id: "aggregation.all.hour.current", query: "{ r: allStats_collection(interval: hour, current: include) { id timestamp points total } }" },
        { id: "aggregation.nested.hour", query: "{ r: owners(orderBy: id) { id stats(interval: hour, orderBy: timestamp, orderDirection: asc) { id timestamp total approvals lifetime } } }" },
        { id: "aggregation.nested.day.current", query: "{ r: owners(orderBy: id) { id stats(interval: day, current: include) { id timestamp total closing } } }" },
        { id: "aggregation.nested.hour.current.paged", query: "{ r: owners(orderBy: id, first: 3) { id stats(interval: hour, current: include, orderBy: timestamp, orderDirection: desc, first: 2) { id total __typename } } }" },
        { id: "aggregation.nested.default", query: "{ r: owners(orderBy: id) { id stats(interval: hour) { id timestamp } } }" },
        { id: "aggregation.nested.where", query: "{ r: owners(orderBy: id) { id stats(interval: hour, where: { timestamp_gt: \"0\" }) { id } } }" },
        { id: "aggregation.nested.missingInterval", query: "{ r: owners { id stats { id } } }" },
        { id: "aggregation.owner.current.where", query: `{ r: ownerStats_collection(interval: hour, current: include, where: { owner: "${owner}" }) { ${OWNER_STATS} } }` },
      );
      return { address: token, startBlock: deployed.startBlock };
    },
    // A reorg takes back the blocks whose time passed the day (and their rollups); the new branch passes
    // two hours instead.
    async afterwards({ chainUrl }) {
      const chain = createJsonRpcClient({ url: chainUrl });
      await chain.request("evm_revert", [snapshot]);
      await chain.request("evm_increaseTime", [7_200]);
      await sendApprovals({ rpcUrl: chainUrl, token, count: 6, batchSize: 2, seed: 49 });
    },
    queries,
    // The comparison must be of buckets, not of two empty lists: the scenario crosses two hours and a day,
    // and its last blocks leave an in-progress bucket.
    async settle({ local, graphNode, chainUrl }) {
      await waitUntilSettled([local, graphNode], chainUrl);
      const answer = await postGraphQL(local.queryUrl, "{ h: ownerStats_collection(interval: hour, first: 1000) { id } c: ownerStats_collection(interval: hour, first: 1000, current: include) { id } }");
      const data = answer.data as { h?: unknown[]; c?: unknown[] } | undefined;
      if ((data?.h?.length ?? 0) < 3 || (data?.c?.length ?? 0) <= (data?.h?.length ?? 0)) throw new Error(`aggregation case: the local node rolled up too little: ${JSON.stringify(answer)}`);
    },
  };
}
